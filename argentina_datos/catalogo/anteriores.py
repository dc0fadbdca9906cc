"""Routes upstream still serves from its older paths, each with the shape it had then: plazo fijo by
day (before /v1/finanzas/tasas/plazoFijo kept only the last publication), the REM's inflation
expectations (before /v1/rems), and UVA mortgages with the rate as a percentage (before
/v1/finanzas/creditos/hipotecariosUva, which writes it as a fraction)."""

from __future__ import annotations

from argentina_datos.catalogo.campos import BCRA, FRACCION, PORCENTAJE, UPSTREAM, entidad, fecha, number, text
from argentina_datos.catalogo.esquema import Children, Dataset, Route, sourced

DATASETS: list[Dataset] = [
    Dataset(
        "plazos_fijos_por_dia",
        "Plazo fijo por día (ruta anterior)",
        "Tasas de plazo fijo a 30 días de cada banco, una lista por día (las filas de plazos_fijos_por_dia_tasas), "
        "como las publicaba upstream en su ruta anterior, que todavía sirve; la ruta actual es "
        "/v1/finanzas/tasas/plazoFijo (y su historia, plazo_fijo_historico).",
        [
            fecha(description="día de la publicación"),
            Children(
                "plazosFijos",
                "plazos_fijos_por_dia_tasas",
                [
                    entidad("banco"),
                    text("logo", "URL del logo del banco"),
                    number("tnaClientes", "tasa nominal anual a 30 días para clientes", unit=FRACCION),
                    number(
                        "tnaNoClientes",
                        "tasa nominal anual a 30 días para no clientes; null = no ofrece",
                        unit=FRACCION,
                    ),
                    text("enlace", "página del banco; null si no se publica"),
                ],
                "tasas de ese día, una por banco",
            ),
        ],
        **sourced("v1/finanzas/tasas/plazosFijos", BCRA[0], "https://www.bcra.gob.ar/BCRAyVos/Plazos_fijos_online.asp"),
        sort=("fecha",),
        routes=[Route("/v1/finanzas/tasas/plazosFijos", summary="Plazo fijo por día (ruta anterior)")],
    ),
    Dataset(
        "inflacion_rem",
        "Inflación esperada del REM (ruta anterior)",
        "Inflación mensual esperada por el Relevamiento de Expectativas de Mercado del BCRA (o la premisa que upstream "
        "publicó junto a ella), por mes, como la publicaba upstream en su ruta anterior, que todavía sirve; el REM "
        "completo está en rems y finanzas_rem.",
        [
            text("tipo", "qué serie es: el informe del REM («REM - Enero») o una premisa", facet=True),
            fecha(description="mes esperado (su primer día)"),
            number("valor", "inflación mensual esperada", unit=PORCENTAJE),
        ],
        **sourced(
            "v1/finanzas/inflacion/rem",
            BCRA[0],
            "https://www.bcra.gob.ar/PublicacionesEstadisticas/Relevamiento_Expectativas_de_Mercado.asp",
        ),
        sort=("fecha",),
        routes=[Route("/v1/finanzas/inflacion/rem", summary="Inflación esperada del REM (ruta anterior)")],
    ),
    Dataset(
        "hipotecarios_uva_anteriores",
        "Créditos hipotecarios UVA (ruta anterior)",
        "Tasa nominal anual de créditos hipotecarios UVA por banco, como la publicaba upstream en su ruta anterior, "
        "que todavía sirve, con la tasa como porcentaje; la ruta actual, /v1/finanzas/creditos/hipotecariosUva "
        "(tabla hipotecarios_uva), la escribe como fracción.",
        [
            entidad("banco"),
            text("nombreComercial", "nombre comercial del banco"),
            number("tna", "tasa nominal anual del crédito hipotecario UVA", unit=PORCENTAJE),
        ],
        **sourced("v1/finanzas/hipotecarios-uva", "Bancos (páginas propias)", UPSTREAM),
        routes=[Route("/v1/finanzas/hipotecarios-uva", summary="Hipotecarios UVA (ruta anterior)")],
    ),
]
