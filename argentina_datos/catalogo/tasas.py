"""Rates: deposits, fixed-term deposits by bank, crypto pesos, dollar accounts."""

from __future__ import annotations

from argentina_datos.catalogo.campos import BCRA, FRACCION, UPSTREAM, as_fraction, entidad, integer, number, serie, text
from argentina_datos.catalogo.esquema import ANNUAL_RATE, DAILY, Children, Computed, Dataset, Route, sourced
from argentina_datos.catalogo.slug import entity_id


def plazo_fijo_fields(tasas_table):
    return [
        entidad("banco"),
        text("logo", "URL del logo del banco"),
        number("tnaClientes", "tasa nominal anual a 30 días para clientes", unit=FRACCION),
        number("tnaNoClientes", "tasa nominal anual a 30 días para no clientes (0 = no ofrece)", unit=FRACCION),
        text("enlace", "página del banco; null si no se publica", optional=True),
        Children(
            "tasas",
            tasas_table,
            [
                number("montoMinimo", "monto mínimo del tramo; null = sin mínimo", unit="pesos"),
                number("montoMaximo", "monto máximo del tramo; null = sin máximo", unit="pesos"),
                integer("plazoMinDias", "plazo mínimo", unit="días"),
                integer("plazoMaxDias", "plazo máximo; null = sin máximo", unit="días"),
                number("tna", "tasa nominal anual del tramo", unit=FRACCION),
            ],
            "tasas por tramo de monto y plazo",
            optional=True,
        ),
        text("condiciones", "condiciones de la oferta", optional=True),
        text("condicionesCorto", "condiciones, versión corta", optional=True),
    ]


CRIPTOPESOS_FIELDS = [
    text("token", "token del criptopeso", facet=True),
    entidad("emisor o plataforma"),
    number("tna", "tasa nominal anual", unit=FRACCION),
]

CUENTAS_USD_FIELDS = [
    entidad("banco"),
    number(
        "tasa",
        "rendimiento anual de la cuenta en dólares; la fuente mezcla escalas: 0.02 = 2 % pero "
        "algunos bancos publican 3.5 = 3,5 % (un valor de 1 o más es porcentaje)",
        unit=FRACCION,
    ),
    number("tope", "saldo máximo que remunera", unit="dólares (USD)"),
]


DATASETS: list[Dataset] = [
    serie(
        "depositos_30_dias",
        "Depósitos a 30 días",
        "Tasa de interés promedio de los depósitos a plazo fijo a 30 días.",
        route="v1/finanzas/tasas/depositos30Dias",
        valor="tasa nominal anual promedio (en 2023-2024 supera 1: 1.08 = 108 %); desde el 27 de agosto de 2024 la "
        "fuente publica algunos días como porcentaje (39.92 = 39,92 %): un valor mayor que 10 es porcentaje",
        unit=FRACCION,
        origin=BCRA,
        frequency=DAILY,
        kind=ANNUAL_RATE,
        # The highest fraction published is 1.30 (130 %, 2023); the lowest percentage, 25.2.
        derived={"valorFraccion": as_fraction("valor", percent_above=10)},
    ),
    Dataset(
        "plazo_fijo",
        "Plazo fijo",
        "Tasas nominales anuales de plazo fijo a 30 días por banco (última publicación).",
        plazo_fijo_fields("plazo_fijo_tasas"),
        **sourced("v1/finanzas/tasas/plazoFijo", BCRA[0], "https://www.bcra.gob.ar/BCRAyVos/Plazos_fijos_online.asp"),
        fts=("entidad",),
        derived={
            "entidadId": Computed(
                "la entidad sin tildes ni mayúsculas y sin su forma jurídica final (S.A., S.A.U., SOCIEDAD ANONIMA): "
                "el mismo banco con los nombres que la fuente le dio con los años («BANCO DE GALICIA Y BUENOS AIRES "
                "S.A.» y «… S.A.U.») tiene un solo id, así su serie en plazo_fijo_historico no se parte",
                lambda r: entity_id(r["entidad"]),
            )
        },
        routes=[Route("/v1/finanzas/tasas/plazoFijo", summary="Tasas de plazo fijo por banco")],
    ),
    Dataset(
        "plazo_fijo_uva_pago_periodico",
        "Plazo fijo UVA con pago periódico",
        "Tasas de plazos fijos UVA que pagan intereses periódicamente, por tramo de plazo.",
        [
            text("id", "identificador del proveedor"),
            entidad("banco"),
            text("logo", "URL del logo"),
            Children(
                "tasas",
                "plazo_fijo_uva_pago_periodico_tasas",
                [
                    text("nombre", "nombre del producto"),
                    integer("plazoMinDias", unit="días", description="plazo mínimo"),
                    integer("plazoMaxDias", "plazo máximo", unit="días"),
                    number("tna", "tasa nominal anual (sobre UVA)", unit=FRACCION),
                    number("tea", "tasa efectiva anual (sobre UVA)", unit=FRACCION),
                ],
                "tasas por tramo de plazo",
            ),
        ],
        **sourced(
            "v1/finanzas/tasas/plazoFijoUvaPagoPeriodico", "Banco de la Nación Argentina", "https://www.bna.com.ar/"
        ),
        routes=[Route("/v1/finanzas/tasas/plazoFijoUvaPagoPeriodico", summary="Plazo fijo UVA con pago periódico")],
    ),
    Dataset(
        "plazo_fijo_precancelable",
        "Plazo fijo UVA precancelable",
        "Condiciones y tasas de plazos fijos UVA precancelables por banco.",
        [
            text("id", "identificador del proveedor"),
            entidad("banco"),
            text("logo", "URL del logo"),
            text("enlace", "página del producto"),
            text("canal", "canales donde se ofrece"),
            text("moneda", "moneda", facet=True),
            integer("plazoMinDias", "plazo mínimo", unit="días"),
            integer("plazoMaxDias", "plazo máximo; null = sin máximo", unit="días"),
            integer("plazoPrecancelacionDias", "días desde los que se puede precancelar", unit="días"),
            integer("avisoPrecancelacionDias", "aviso previo para precancelar; null = sin dato", unit="días"),
            number("montoMinimo", "monto mínimo", unit="pesos"),
            number("montoMaximo", "monto máximo; null = sin máximo", unit="pesos"),
            text("modalidad", "modalidad"),
            number("tna", "tasa nominal anual (sobre UVA)", unit=FRACCION),
            number("tea", "tasa efectiva anual (sobre UVA)", unit=FRACCION),
            number("tnaPrecancelacion", "TNA si se precancela", unit=FRACCION),
            number("teaPrecancelacion", "TEA si se precancela; null = sin dato", unit=FRACCION),
        ],
        **sourced("v1/finanzas/tasas/plazoFijoPrecancelable", "Bancos (páginas propias)", UPSTREAM),
        routes=[Route("/v1/finanzas/tasas/plazoFijoPrecancelable", summary="Plazo fijo UVA precancelable")],
    ),
    Dataset(
        "criptopesos",
        "Criptopesos",
        "Tasa nominal anual que pagan los tokens de pesos por plataforma.",
        CRIPTOPESOS_FIELDS,
        **sourced("v1/finanzas/criptopesos", "Plataformas cripto", UPSTREAM),
        routes=[Route("/v1/finanzas/criptopesos", summary="Criptopesos")],
    ),
    Dataset(
        "cuentas_remuneradas_usd",
        "Cuentas remuneradas en dólares",
        "Rendimiento anual y tope remunerado de cuentas en dólares por banco.",
        CUENTAS_USD_FIELDS,
        **sourced("v1/finanzas/cuentas-remuneradas-usd", "Bancos (páginas propias)", UPSTREAM),
        # USD accounts pay a few percent a year: published fractions stay under 0.1.
        derived={"tasaFraccion": as_fraction("tasa", percent_above=1)},
        routes=[Route("/v1/finanzas/cuentas-remuneradas-usd", summary="Cuentas remuneradas en USD")],
    ),
]
