"""Indices: inflation, UVA, country risk, confidence in the government."""

from __future__ import annotations

from argentina_datos.catalogo.campos import BCRA, FRACCION, INDEC, PORCENTAJE, fecha, number, serie, text
from argentina_datos.catalogo.esquema import (
    ANNUAL_RATE,
    DAILY,
    MONTHLY,
    RATE,
    Dataset,
    DerivedTable,
    Route,
    Series,
    sourced,
)

DATASETS: list[Dataset] = [
    serie(
        "inflacion",
        "Inflación mensual",
        "Variación mensual del índice de precios al consumidor.",
        route="v1/finanzas/indices/inflacion",
        valor="variación mensual del IPC; la fecha es el último día del mes",
        unit=PORCENTAJE,
        origin=INDEC,
        frequency=MONTHLY,
        kind=RATE,
        # INDEC publishes a month's CPI in the middle of the next one: the next value is due ~45 days after
        # the last day of the month last published.
        late_after=50,
    ),
    serie(
        "inflacion_interanual",
        "Inflación interanual",
        "Variación del índice de precios al consumidor contra el mismo mes del año anterior.",
        route="v1/finanzas/indices/inflacionInteranual",
        valor="variación interanual del IPC; la fecha es el último día del mes",
        unit=PORCENTAJE,
        origin=INDEC,
        frequency=MONTHLY,
        kind=ANNUAL_RATE,
        late_after=50,
        compounds="inflacion",
    ),
    serie(
        "uva",
        "Índice UVA",
        "Valor diario de la Unidad de Valor Adquisitivo.",
        route="v1/finanzas/indices/uva",
        valor="valor de una UVA",
        unit="pesos por UVA",
        origin=BCRA,
        frequency=DAILY,
    ),
    Dataset(
        "riesgo_pais",
        "Riesgo país",
        "Riesgo país (EMBI de JP Morgan para Argentina), diario.",
        [
            number(
                "valor",
                "riesgo país: diferencia de tasa contra los bonos del Tesoro de EE.UU. (500 = 5 puntos porcentuales)",
                unit="puntos básicos",
            ),
            fecha(description="fecha del dato", nullable=False),
        ],
        **sourced(
            "v1/finanzas/indices/riesgo-pais",
            "JP Morgan (vía Ámbito)",
            "https://www.ambito.com/contenidos/riesgo-pais.html",
        ),
        unique=("fecha",),
        sort=("fecha",),
        series=Series(DAILY, values=("valor",)),
        routes=[
            Route("/v1/finanzas/indices/riesgo-pais", summary="Serie de riesgo país"),
            Route("/v1/finanzas/indices/riesgo-pais/ultimo", shape="last", summary="Último riesgo país"),
        ],
    ),
    Dataset(
        "confianza_gobierno",
        "Índice de confianza en el gobierno",
        "Índice mensual de confianza en el gobierno (escala 0 a 5) de la Universidad Torcuato Di Tella.",
        [
            fecha(description="mes del relevamiento (primer día)", nullable=False),
            number("valor", "índice", unit="puntos (0 a 5)"),
            number(
                "variacion",
                "variación contra el mes anterior; la primera fila no la trae",
                unit=FRACCION,
                optional=True,
            ),
        ],
        **sourced("v1/politica/indices/confianza-gobierno", "Universidad Torcuato Di Tella", "https://www.utdt.edu/"),
        unique=("fecha",),
        sort=("fecha",),
        series=Series(MONTHLY, values=("valor",)),
        routes=[
            Route("/v1/politica/indices/confianza-gobierno", summary="Serie mensual"),
            Route("/v1/politica/indices/confianza-gobierno/ultimo", shape="last", summary="Último valor"),
        ],
    ),
]

IPC_BASE = "2016-12"  # INDEC's base month for the CPI (diciembre de 2016 = 100)

# Argentina's currencies since the CPI's first month: (name, first day, units of the previous one it replaced).
# An amount of 1975 is in pesos ley 18.188: a peso of today is 10,000 australes = 10^7 pesos argentinos =
# 10^11 pesos ley, so carrying it to pesos of today divides by 10^11 besides the inflation.
CURRENCIES = [
    ("peso moneda nacional", "1881-11-05", 1),
    ("peso ley 18.188", "1970-01-01", 100),
    ("peso argentino", "1983-06-01", 10_000),
    ("austral", "1985-06-15", 1_000),
    ("peso", "1992-01-01", 10_000),
]
_CURRENCY_TEXT = "; ".join(
    f"{name} desde {start}" + (f" (= {units:,} de la anterior)".replace(",", ".") if units > 1 else "")
    for name, start, units in CURRENCIES[1:]
)


DERIVED_TABLES = [
    DerivedTable(
        "ipc",
        "Índice de precios al consumidor (encadenado)",
        "Nivel mensual de precios encadenado desde la inflación mensual (tabla inflacion): cada mes es el anterior "
        f"por (1 + inflación / 100). Base: {IPC_BASE} = 100 (la del IPC del INDEC). Es una reconstrucción desde "
        "las variaciones publicadas, redondeadas a un decimal: puede diferir levemente del índice oficial. "
        "`aPesosDeHoy` multiplica un monto en la moneda de ese mes (`moneda`) para expresarlo en pesos del último "
        "mes publicado, con la inflación y los cambios de moneda (" + _CURRENCY_TEXT + "): "
        "`JOIN ipc ON ipc.mes = substr(serie.fecha, 1, 7)` y `serie.valor * ipc.aPesosDeHoy`.",
        [
            fecha(description="último día del mes, como en inflacion", nullable=False),
            text("mes", "el mes, AAAA-MM (para unir con cualquier serie: substr(fecha, 1, 7))", nullable=False),
            number("valor", f"nivel del índice ({IPC_BASE} = 100)", unit="índice"),
            number("inflacion", "variación mensual publicada", unit=PORCENTAJE),
            number(
                "aPesosDeHoy",
                "factor que lleva un monto en la moneda de ese mes a pesos del último mes publicado: la inflación "
                "acumulada dividida por los cambios de moneda posteriores",
                unit="veces",
            ),
            text("moneda", "la moneda vigente el último día del mes (junio de 1985: el austral)"),
        ],
        key=("fecha",),
        reads=("inflacion",),
        indexes=[("mes",)],
        origin=INDEC[0],
        origin_url=INDEC[1],
        sort=("mes",),
    ),
]
