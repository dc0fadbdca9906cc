"""Credit offers: UVA mortgages and personal loans."""

from __future__ import annotations

from argentina_datos.catalogo.campos import BCRA, FRACCION, UPSTREAM, boolean, entidad, fecha, integer, number, text
from argentina_datos.catalogo.esquema import Bound, Children, Dataset, Obj, Route, sourced

# A yearly rate of a loan in pesos below 5 %: lower than any the BCRA's transparency regime lists for a real
# product; the source's 0.0216 for a 216 % rate (a percentage divided by 100 twice, or a monthly rate).
_TASA_DE_PRESTAMO = Bound(
    low=0.05,
    why="una tasa anual de préstamo en pesos de menos de 5 %: casi seguro un error de unidad de la fuente "
    "(un porcentaje dividido dos veces por 100, o una tasa mensual)",
)


def hipotecarios_fields():
    return [
        entidad("banco (código corto)"),
        text("nombreComercial", "nombre comercial del banco"),
        number("tna", "tasa nominal anual del crédito hipotecario UVA", unit=FRACCION),
        Obj(
            "metadata",
            [
                integer("plazo_max_anios", "plazo máximo", unit="años"),
                text("relacion_cuota_ingreso", 'relación cuota/ingreso máxima, como texto ("25%")'),
                text("financiamiento", 'porcentaje máximo financiado, como texto ("75%")'),
            ],
            "condiciones del crédito",
            optional=True,
        ),
    ]


DATASETS: list[Dataset] = [
    Dataset(
        "hipotecarios_uva",
        "Créditos hipotecarios UVA",
        "Tasa nominal anual de créditos hipotecarios UVA por banco.",
        hipotecarios_fields(),
        **sourced("v1/finanzas/creditos/hipotecariosUva", "Bancos (páginas propias)", UPSTREAM),
        routes=[Route("/v1/finanzas/creditos/hipotecariosUva", summary="Hipotecarios UVA")],
    ),
    Dataset(
        "prestamos_personales",
        "Préstamos personales",
        "Ofertas de préstamos personales con tasas por tramo de plazo (tabla prestamos_personales_tasas).",
        [
            entidad("banco (código corto)"),
            text("nombreComercial", "nombre comercial"),
            text("producto", "producto"),
            number("tna", "tasa nominal anual", unit=FRACCION),
            number("tea", "tasa efectiva anual", unit=FRACCION),
            number("cftTna", "costo financiero total nominal; null = no publicado", unit=FRACCION),
            number("cftTea", "costo financiero total efectivo anual", unit=FRACCION),
            text("tipoTasa", "fija o variable", facet=True),
            text("moneda", "moneda", facet=True),
            boolean("requiereCliente", "requiere ser cliente del banco"),
            text("condiciones", "condiciones"),
            text("enlace", "página del producto"),
            fecha("vigenciaDesde", "inicio de vigencia; null = sin dato"),
            fecha("vigenciaHasta", "fin de vigencia; null = sin dato"),
            Obj(
                "metadata",
                [
                    integer("plazoMesesEjemplo", "plazo del ejemplo publicado", unit="meses", optional=True),
                    integer("plazoMinMeses", "plazo mínimo", unit="meses"),
                    integer("plazoMaxMeses", "plazo máximo", unit="meses"),
                    Children(
                        "tasasPorPlazo",
                        "prestamos_personales_tasas",
                        [
                            integer("plazoMinMeses", "plazo mínimo del tramo", unit="meses"),
                            integer("plazoMaxMeses", "plazo máximo del tramo", unit="meses"),
                            number("tna", "tasa nominal anual", unit=FRACCION),
                            number("tea", "tasa efectiva anual", unit=FRACCION),
                            number("cftTea", "costo financiero total efectivo anual", unit=FRACCION),
                        ],
                        "tasas por tramo de plazo",
                    ),
                    boolean("fuentePdf", "los datos vienen de un PDF", optional=True),
                ],
                "plazos y tasas por plazo",
            ),
        ],
        **sourced("v1/finanzas/creditos/prestamosPersonales", "Bancos (páginas propias)", UPSTREAM),
        fts=("nombreComercial", "producto"),
        routes=[Route("/v1/finanzas/creditos/prestamosPersonales", summary="Préstamos personales")],
    ),
    Dataset(
        "prestamos_personales_bcra",
        "Préstamos personales (BCRA)",
        "TEA y CFT máximos de préstamos personales por producto y entidad, del régimen de transparencia del BCRA.",
        [
            text("codigoEntidad", "código de entidad del BCRA"),
            entidad("entidad"),
            text("nombreComercial", "nombre comercial"),
            text("producto", "producto"),
            text("productoCorto", "código del producto"),
            text("moneda", "moneda", facet=True),
            number("teaMax", "tasa efectiva anual máxima", unit=FRACCION),
            number("cftTeaMax", "costo financiero total efectivo anual máximo (negativo = sin dato)", unit=FRACCION),
            text("tipoTasa", "fija o variable", facet=True),
            boolean("requiereCliente", "requiere ser cliente"),
            text("condiciones", "a quién se ofrece"),
            fecha("vigenciaDesde", "inicio de vigencia"),
            text("enlace", "página de la entidad"),
            Obj(
                "metadata",
                [
                    number("montoMin", "monto mínimo", unit="pesos"),
                    number("montoMax", "monto máximo", unit="pesos"),
                    integer("plazoMaxMeses", "plazo máximo", unit="meses"),
                    number("ingresoMinMensual", "ingreso mínimo mensual", unit="pesos"),
                    integer("antiguedadLaboralMinMeses", "antigüedad laboral mínima", unit="meses"),
                    integer("edadMax", "edad máxima", unit="años"),
                    text("afectacionIngresos", "afectación máxima de ingresos, como texto"),
                    number("cargoCancelacionAnticipada", "cargo por cancelación anticipada", unit=FRACCION),
                    number("cuotaInicialPor10000", "cuota inicial por cada 10.000 pesos", unit="pesos"),
                    text("territorio", "alcance territorial"),
                    text("notas", "notas; null = ninguna"),
                    text("fuente", "origen del dato"),
                ],
                "condiciones del régimen de transparencia",
            ),
        ],
        **sourced(
            "v1/finanzas/creditos/prestamosPersonalesBcra",
            BCRA[0],
            "https://www.bcra.gob.ar/BCRAyVos/Regimen_de_transparencia.asp",
        ),
        bounds={"teaMax": _TASA_DE_PRESTAMO},
        fts=("entidad", "producto"),
        routes=[Route("/v1/finanzas/creditos/prestamosPersonalesBcra", summary="Préstamos personales (BCRA)")],
    ),
]
