"""Indices: inflation, UVA, country risk, confidence in the government."""

from __future__ import annotations

from argentina_datos.catalogo.campos import BCRA, FRACCION, PORCENTAJE, fecha, number, serie
from argentina_datos.catalogo.esquema import DAILY, MONTHLY, Dataset, Route, Series, Source

DATASETS: list[Dataset] = [
    serie(
        "inflacion",
        "Inflación mensual",
        "Variación mensual del índice de precios al consumidor.",
        "v1/finanzas/indices/inflacion",
        PORCENTAJE,
        "INDEC",
        "https://www.indec.gob.ar/",
        "variación mensual del IPC; la fecha es el último día del mes",
        frequency=MONTHLY,
    ),
    serie(
        "inflacion_interanual",
        "Inflación interanual",
        "Variación del índice de precios al consumidor contra el mismo mes del año anterior.",
        "v1/finanzas/indices/inflacionInteranual",
        PORCENTAJE,
        "INDEC",
        "https://www.indec.gob.ar/",
        "variación interanual del IPC; la fecha es el último día del mes",
        frequency=MONTHLY,
    ),
    serie(
        "uva",
        "Índice UVA",
        "Valor diario de la Unidad de Valor Adquisitivo.",
        "v1/finanzas/indices/uva",
        "pesos por UVA",
        *BCRA,
        "valor de una UVA",
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
        [Source("v1/finanzas/indices/riesgo-pais")],
        origin="JP Morgan (vía Ámbito)",
        origin_url="https://www.ambito.com/contenidos/riesgo-pais.html",
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
        [Source("v1/politica/indices/confianza-gobierno")],
        origin="Universidad Torcuato Di Tella",
        origin_url="https://www.utdt.edu/",
        unique=("fecha",),
        sort=("fecha",),
        series=Series(MONTHLY, values=("valor",)),
        routes=[
            Route("/v1/politica/indices/confianza-gobierno", summary="Serie mensual"),
            Route("/v1/politica/indices/confianza-gobierno/ultimo", shape="last", summary="Último valor"),
        ],
    ),
]
