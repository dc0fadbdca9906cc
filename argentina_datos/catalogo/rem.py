"""The central bank's market expectations survey (REM), under its two paths: /v1/rems and the newer
/v1/finanzas/rem."""

from __future__ import annotations

from dataclasses import replace

from argentina_datos.catalogo.campos import BCRA, fecha, integer, number, text
from argentina_datos.catalogo.esquema import MONTHLY, Dataset, Derivation, PathValue, Route, Series, sourced
from argentina_datos.catalogo.parametros import LISTADO_MES, MES, year

REM_URL = "https://www.bcra.gob.ar/PublicacionesEstadisticas/Relevamiento_Expectativas_de_Mercado.asp"


def rem_fields(fuente_antes_de_urls: bool = False) -> list:
    """The fields of a REM row.  The newer path publishes `fuente` before the URLs (and always); the
    /v1/rems table keeps it last, as it was declared."""
    fuente = text("fuente", "fuente", optional=True)
    urls = [text("publicacionUrl", "URL de la publicación"), text("xlsxUrl", "URL de la planilla")]
    return [
        text("informe", "informe AAAA-MM"),
        fecha(description="fecha del informe"),
        text("muestra", "muestra (todos, top 10)", facet=True),
        text("indicador", "variable pronosticada (IPC, tipo de cambio, PIB, tasa, ...)", facet=True),
        text("periodo", "período pronosticado"),
        text("periodoTipo", "mensual, trimestral, anual, ...", facet=True),
        fecha("periodoDesde", "inicio del período"),
        fecha("periodoHasta", "fin del período"),
        text("referencia", "referencia del indicador"),
        fecha("referenciaFecha", "fecha de referencia"),
        text("unidad", "unidad del indicador", facet=True),
        *[
            number(n, d, unit='la de `unidad` ("var. % ..." = porcentaje: 21.8 = 21,8 %; "$/USD" = pesos por dólar)')
            for n, d in [
                ("mediana", "mediana"),
                ("promedio", "promedio"),
                ("desvio", "desvío estándar"),
                ("maximo", "máximo"),
                ("minimo", "mínimo"),
                ("percentil90", "percentil 90"),
                ("percentil75", "percentil 75"),
                ("percentil25", "percentil 25"),
                ("percentil10", "percentil 10"),
            ]
        ],
        integer("participantes", "cantidad de participantes"),
        *([fuente, *urls] if fuente_antes_de_urls else [*urls, fuente]),
    ]


# ---- the newer path, /v1/finanzas/rem ------------------------------------------------------
def _finanzas_reports(source) -> list[str]:
    """The reports upstream lists in its index /v1/finanzas/rem (some of them have no file: a 404)."""
    index = source.get_json("v1/finanzas/rem") or []
    return [s.removeprefix("/finanzas/rem/") for s in index if isinstance(s, str) and s.startswith("/finanzas/rem/")]


LISTADO_FINANZAS = replace(LISTADO_MES, http_values=_finanzas_reports)
# The examples answer 200 on /v1/finanzas/rem/{año}/{mes}: the mirror's month has a file there.
AÑO_FINANZAS = year(2016, None, "del informe", example="2026")
MES_FINANZAS = replace(MES, example="09")
DEL_INFORME = {"listado": "ultimo", "informe": PathValue(text="{año}-{mes}")}


STATISTICS = (
    "mediana",
    "promedio",
    "desvio",
    "maximo",
    "minimo",
    "percentil90",
    "percentil75",
    "percentil25",
    "percentil10",
)


def _expectations(title: str) -> Series:
    """Each indicator's expectation for each period (its horizon), over the survey dates: one series per sample,
    indicator, period and statistic (the median and the others as their own), in the indicator's unit.  Not
    audited as a series (a period past is no stop) nor late."""
    return Series(
        MONTHLY,
        by=("muestra", "indicador", "periodo"),
        values=STATISTICS,
        attributes=("periodoTipo", "unidad"),
        unit=lambda field, named: named.get("unidad") or field.unit,
        title=title,
        report_late=False,
        audited=False,
        keywords={
            "Precios minoristas": "inflación, IPC",
            "Tipo de cambio": "dólar mayorista",
            "TAMAR": "tasa de interés",
            "PIB": "actividad económica, crecimiento",
            "Desocupación": "desempleo",
            "Resultado Primario": "déficit fiscal",
        },
    )


def rem_reports(table, title, description, fields, base, listado, month, suffix="", derive=None) -> Dataset:
    """A REM path of upstream's: ``base``/ultimo and one report a month (``listado``: the report, AAAA-MM)."""
    return Dataset(
        table,
        title,
        description,
        fields,
        **sourced(base + "/{listado}", BCRA[0], REM_URL),
        partitions=[listado],
        indexes=[("indicador",)],
        # Its series say which path's reports they hold: the search ranks the newer path's first
        # (catalogo/sinonimos.py), and each one's desde and hasta say which reports it spans.
        series=_expectations(f"REM ({'ruta nueva' if suffix else 'ruta anterior'}, /{base})"),
        routes=[
            Route(f"/{base}/ultimo", where={"listado": "ultimo"}, summary=f"Último REM{suffix}"),
            Route(
                f"/{base}/{{año}}/{{mes}}",
                month,
                where={"listado": PathValue(text="{año}-{mes}")},
                derive=derive,
                summary=f"REM de un mes{suffix}",
            ),
        ],
    )


DATASETS: list[Dataset] = [
    rem_reports(
        "rems",
        "Relevamiento de Expectativas de Mercado (REM)",
        "Expectativas de los analistas relevadas por el BCRA, por informe mensual. `listado` es el informe "
        'AAAA-MM del archivo, o `ultimo`. Algunos informes usan "" donde otros usan null; sólo algunos traen `fuente`.',
        rem_fields(),
        "v1/rems",
        LISTADO_MES,
        [year(2016, None, "del informe"), MES],
    ),
    Dataset(
        "rems_informes",
        "REM: índice de informes",
        "Rutas de los informes REM que upstream publica en /v1/rems.",
        [text("ruta", "ruta del informe, relativa a /v1")],
        **sourced("v1/rems", *BCRA),
        scalar_records=True,
        routes=[Route("/v1/rems", summary="Índice de informes REM")],
    ),
    rem_reports(
        "finanzas_rem",
        "REM (ruta nueva /v1/finanzas/rem)",
        "El mismo relevamiento del BCRA bajo la ruta nueva de upstream, /v1/finanzas/rem, guardado aparte de rems "
        "porque sus archivos son otras versiones. `listado` es el informe AAAA-MM del archivo, o `ultimo`, tal "
        "como se publicaron: `ultimo` puede ser un informe anterior al más nuevo con archivo. "
        "/v1/finanzas/rem/{año}/{mes} responde el archivo de ese mes; si upstream no lo publicó, las filas de "
        "`ultimo` cuando es ese informe; si no, 404 (el índice lista meses sin archivo).",
        rem_fields(fuente_antes_de_urls=True),
        "v1/finanzas/rem",
        LISTADO_FINANZAS,
        [AÑO_FINANZAS, MES_FINANZAS],
        " (ruta nueva)",
        Derivation("finanzas_rem", DEL_INFORME),
    ),
    Dataset(
        "finanzas_rem_informes",
        "REM (ruta nueva): índice de informes",
        "Rutas de los informes REM que upstream lista en /v1/finanzas/rem, tal como las publica: incluye meses "
        "de los que no publica archivo.",
        [text("ruta", "ruta del informe, relativa a /v1")],
        **sourced("v1/finanzas/rem", *BCRA),
        scalar_records=True,
        routes=[Route("/v1/finanzas/rem", summary="Índice de informes REM (ruta nueva)")],
    ),
]
