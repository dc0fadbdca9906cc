"""The catalogue: one entry per dataset.

Each entry says where its files are, which table and columns hold it, and which
/v1 routes it answers.  The builder, the API plugin, metadata.yml and the
OpenAPI document are all derived from this list.  Adding a dataset is adding
an entry here.
"""
from __future__ import annotations

from .esquema import (
    BOOLEAN,
    DATE_UNIT,
    INTEGER,
    JSON,
    NUMBER,
    TEXT,
    Children,
    Dataset,
    Derivation,
    Field,
    Obj,
    Route,
    Source,
)
from .parametros import (
    CASA,
    CATEGORIA_FCI,
    DIA,
    DIVISA,
    FECHA,
    FECHA_ARCHIVO,
    FECHA_FCI,
    LISTADO_AÑO,
    LISTADO_FCI,
    LISTADO_MES,
    MES,
    MONEDA,
    NOMBRE_FONDO,
    SLUG,
    year,
)
from .slug import slugify

LICENCIA = "MIT (ArgentinaDatos)"
UPSTREAM = "https://api.argentinadatos.com"

FRACCION = "fracción (0.25 = 25 %)"
PORCENTAJE = "porcentaje (2.1 = 2,1 %)"
FECHA_ISO = DATE_UNIT


# ---- small constructors: the catalogue reads like a table of fields ----------
def text(name, description="", **kw):
    return Field(name, TEXT, description, **kw)


def integer(name, description="", unit=None, **kw):
    return Field(name, INTEGER, description, unit=unit, **kw)


def number(name, description="", unit=None, **kw):
    return Field(name, NUMBER, description, unit=unit, **kw)


def boolean(name, description="", **kw):
    return Field(name, BOOLEAN, description, **kw)


def json(name, description="", **kw):
    return Field(name, JSON, description, **kw)


def fecha(name="fecha", description="fecha", **kw):
    return Field(name, TEXT, f"{description} ({FECHA_ISO})", unit=FECHA_ISO, **kw)


def entidad(description="entidad financiera", **kw):
    return text("entidad", description, facet=True, **kw)


def serie(table, title, description, route, unit, origin, origin_url, valor_desc, first="fecha"):
    """A date/value series: one file, one route."""
    valor = number("valor", valor_desc, unit=unit)
    day = fecha(description="fecha del dato", nullable=False)
    fields = [day, valor] if first == "fecha" else [valor, day]
    return Dataset(
        table, title, description, fields, [Source(route)], origin=origin, origin_url=origin_url,
        unique=("fecha",), routes=[Route("/" + route, summary=title)], sort=("fecha",),
    )


# ---- field lists used by more than one dataset ------------------------------
def plazo_fijo_fields(tasas_table):
    return [
        entidad("banco"),
        text("logo", "URL del logo del banco"),
        number("tnaClientes", "tasa nominal anual a 30 días para clientes", unit=FRACCION),
        number("tnaNoClientes", "tasa nominal anual a 30 días para no clientes (0 = no ofrece)", unit=FRACCION),
        text("enlace", "página del banco; null si no se publica", optional=True),
        Children("tasas", tasas_table, [
            number("montoMinimo", "monto mínimo del tramo; null = sin mínimo", unit="pesos"),
            number("montoMaximo", "monto máximo del tramo; null = sin máximo", unit="pesos"),
            integer("plazoMinDias", "plazo mínimo", unit="días"),
            integer("plazoMaxDias", "plazo máximo; null = sin máximo", unit="días"),
            number("tna", "tasa nominal anual del tramo", unit=FRACCION),
        ], "tasas por tramo de monto y plazo", optional=True),
        text("condiciones", "condiciones de la oferta", optional=True),
        text("condicionesCorto", "condiciones, versión corta", optional=True),
    ]


def cotizacion_fields(casa_description):
    return [
        text("casa", casa_description, facet=True, nullable=False),
        number("compra", "precio de compra; null = sin dato", unit="pesos por dólar"),
        number("venta", "precio de venta", unit="pesos por dólar"),
        fecha(description="día de la cotización", nullable=False),
    ]


def moneda_fields():
    return [
        text("moneda", "código ISO de la moneda: USD, EUR, BRL, CLP o UYU", facet=True, nullable=False),
        text("casa", "tipo de cotización (oficial); los registros más viejos no la traen", facet=True,
             optional=True),
        number("compra", "precio de compra; null = sin dato", unit="pesos por unidad de la moneda"),
        number("venta", "precio de venta", unit="pesos por unidad de la moneda"),
        fecha(description="día de la cotización", nullable=False),
    ]


CRIPTOPESOS_FIELDS = [
    text("token", "token del criptopeso", facet=True),
    entidad("emisor o plataforma"),
    number("tna", "tasa nominal anual", unit=FRACCION),
]
CUENTAS_USD_FIELDS = [
    entidad("banco"),
    number("tasa", "rendimiento anual de la cuenta en dólares; la fuente mezcla escalas: 0.02 = 2 % pero "
                   "algunos bancos publican 3.5 = 3,5 % (un valor de 1 o más es porcentaje)", unit=FRACCION),
    number("tope", "saldo máximo que remunera", unit="dólares (USD)"),
]


def hipotecarios_fields():
    return [
        entidad("banco (código corto)"),
        text("nombreComercial", "nombre comercial del banco"),
        number("tna", "tasa nominal anual del crédito hipotecario UVA", unit=FRACCION),
        Obj("metadata", [
            integer("plazo_max_anios", "plazo máximo", unit="años"),
            text("relacion_cuota_ingreso", "relación cuota/ingreso máxima, como texto (\"25%\")"),
            text("financiamiento", "porcentaje máximo financiado, como texto (\"75%\")"),
        ], "condiciones del crédito", optional=True),
    ]


def senado_viaje_fields(internacional: bool):
    common = [
        text("ambito", "nacional o internacional", facet=True),
        integer("anio", "año del documento"),
        integer("mes", "mes del documento (1-12)"),
        text("mesNombre", "nombre del mes"),
        text("documentoId", "id del documento del Senado"),
        text("documentoUrl", "URL del documento del Senado"),
        text("nombre", "senador, tal como lo escribe el documento (varía entre meses)"),
        text("senadorId", "id del senador (tabla senadores); null si no se pudo identificar"),
    ]
    if not internacional:
        return common + [
            text("origen", "ciudad de origen"),
            text("origenCodigo", "código IATA de origen"),
            text("destino", "ciudad de destino", facet=True),
            text("destinoCodigo", "código IATA de destino"),
        ]
    return common + [
        text("expediente", "número de expediente"),
        text("destino", "país o ciudad de destino", facet=True),
        fecha("fechaInicio", "inicio del viaje"),
        fecha("fechaFin", "fin del viaje"),
        text("fechaTexto", "fechas tal como las escribe el documento"),
        boolean("asistenciaAlViajero", "si se contrató asistencia al viajero"),
        boolean("viaticos", "si se pagaron viáticos"),
        number("viaticosUsd", "viáticos en dólares; 0 o null = ninguno", unit="dólares (USD)"),
        number("viaticosEuro", "viáticos en euros; 0 o null = ninguno", unit="euros"),
        number("viaticosArs", "viáticos en pesos; 0 o null = ninguno", unit="pesos"),
        text("motivo", "motivo del viaje (algunos registros de 2015 traen texto mal extraído)"),
        text("bloque", "bloque político"),
    ]


VIAJES = "v1/senado/viajes"
SENADO = ("Senado de la Nación", "https://www.senado.gob.ar/administrativo/viajes")
BCRA = ("BCRA", "https://www.bcra.gob.ar/")
CAFCI = ("CAFCI", "https://www.cafci.org.ar/")


def history(table, title, route, fields, origin):
    """Dated past versions of a dataset upstream only publishes as 'latest'."""
    return Dataset(
        table, title,
        f"Versiones diarias pasadas de /{route} (la última de cada día), una por fecha.",
        fields, [Source(route + "/{fecha}", history=True)], origin=origin[0], origin_url=origin[1],
        partitions=[FECHA_ARCHIVO], required=False, sort=("fecha",),
    )


def por_año(table, title, description, route, fields, año, what, origin):
    """A dataset published once per year (``route/{año}``) plus the current year at ``route``."""
    return Dataset(
        table, title, description, fields,
        [Source(route + "/{listado}"), Source(route, fixed={"listado": "actual"})],
        origin=origin[0], origin_url=origin[1], partitions=[LISTADO_AÑO],
        routes=[
            Route("/" + route, where={"listado": "actual"}, summary=f"{what} del año en curso"),
            Route(f"/{route}/{{año}}", [año], where={"listado": lambda p: str(p["año"])},
                  summary=f"{what} de un año"),
        ],
    )

DATASETS: list[Dataset] = [
    por_año(
        "feriados", "Feriados nacionales",
        "Feriados nacionales por año. `listado` es el año del archivo, o `actual` para /v1/feriados "
        "(la versión más nueva del año en curso).",
        "v1/feriados",
        [fecha(description="día del feriado", nullable=False),
         text("tipo", "inamovible, trasladable o puente", facet=True),
         text("nombre", "nombre del feriado")],
        year(2016, 2026, "del feriado"), "Feriados",
        ("Ministerio del Interior", "https://www.argentina.gob.ar/interior/feriados-nacionales"),
    ),
    por_año(
        "feriados_bancarios", "Feriados bancarios",
        "Días no laborables para la actividad bancaria, por año. `listado` es el año del archivo, "
        "o `actual` para /v1/feriados-bancarios.",
        "v1/feriados-bancarios",
        [fecha(description="día no laborable bancario", nullable=False), text("nombre", "motivo")],
        year(2011, 2026, "del feriado bancario"), "Feriados bancarios", BCRA,
    ),
    Dataset(
        "eventos_presidenciales", "Eventos presidenciales",
        "Elecciones, asunciones y otros hitos presidenciales desde 1983.",
        [fecha(description="fecha del evento"), text("tipo", "tipo de evento", facet=True),
         text("evento", "descripción")],
        [Source("v1/eventos/presidenciales")], origin="ArgentinaDatos", origin_url=UPSTREAM,
        routes=[Route("/v1/eventos/presidenciales", summary="Eventos presidenciales")],
    ),
    Dataset(
        "presidentes", "Presidentes", "Presidentes de la Nación desde 1826.",
        [text("nombre", "nombre"), fecha("inicio", "inicio del mandato"),
         fecha("fin", "fin del mandato; null = en curso"),
         text("partido", "partido; null = sin dato", facet=True),
         text("periodoPresidencial", "período constitucional (\"1826-1831\")"),
         text("vicepresidente", "vicepresidente"), text("imagen", "URL del retrato"),
         text("partidoImagen", "URL del logo del partido", optional=True)],
        [Source("v1/presidentes")], origin="ArgentinaDatos", origin_url=UPSTREAM, fts=("nombre",),
        routes=[Route("/v1/presidentes", summary="Presidentes")],
    ),
    Dataset(
        "cotizaciones_dolares", "Cotizaciones del dólar",
        "Cotización diaria de compra y venta de cada casa (oficial, blue, bolsa/MEP, contado con "
        "liquidación, cripto, mayorista, solidario, tarjeta), tal como la publica /v1/cotizaciones/dolares.",
        cotizacion_fields("casa de cambio (tarjeta = la que la especificación llama turista)"),
        [Source("v1/cotizaciones/dolares")], origin="Ámbito / BCRA", origin_url="https://www.ambito.com/contenidos/dolar.html",
        unique=("casa", "fecha"), sort=("fecha",),
        routes=[Route("/v1/cotizaciones/dolares", summary="Cotizaciones de todas las casas")],
    ),
    Dataset(
        "cotizaciones_dolares_casa", "Cotizaciones del dólar por casa",
        "La serie que upstream publica por separado para cada casa (/v1/cotizaciones/dolares/{casa}). "
        "Difiere en algunos días de la serie completa: se guarda tal cual.",
        cotizacion_fields("casa de cambio"),
        [Source("v1/cotizaciones/dolares/{casa}")], origin="Ámbito / BCRA",
        origin_url="https://www.ambito.com/contenidos/dolar.html", partitions=[CASA],
        indexes=[("casa", "fecha")], sort=("fecha",),
        routes=[
            Route("/v1/cotizaciones/dolares/{casa}", [CASA], where={"casa": lambda p: p["casa"]},
                  summary="Cotizaciones de una casa"),
            Route("/v1/cotizaciones/dolares/{casa}/{fecha}", [CASA, FECHA],
                  where={"casa": lambda p: p["casa"], "fecha": lambda p: p["fecha"]}, shape="one",
                  summary="Cotización de una casa en una fecha"),
        ],
    ),
    Dataset(
        "cotizaciones_dolares_fecha", "Cotizaciones del dólar: archivos por fecha",
        "Los archivos por fecha que upstream publica (/v1/cotizaciones/dolares/{fecha}): todas las casas de un "
        "día. Casi todos son el corte de ese día de cotizaciones_dolares; algunos de 2019 traen menos casas, y se "
        "guardan tal cual. La ruta responde cualquier fecha de cotizaciones_dolares: con el archivo de esa fecha "
        "si upstream lo publica, si no con las filas de ese día de la serie completa. `dia` es la fecha del archivo.",
        cotizacion_fields("casa de cambio"),
        [Source("v1/cotizaciones/dolares/{dia}")], origin="Ámbito / BCRA",
        origin_url="https://www.ambito.com/contenidos/dolar.html", partitions=[DIA], sort=("fecha",), required=False,
        routes=[Route("/v1/cotizaciones/dolares/{fecha}", [FECHA], where={"dia": lambda p: p["fecha"]},
                      derive=Derivation("cotizaciones_dolares", {"fecha": lambda p: p["fecha"]}),
                      summary="Cotizaciones de todas las casas en una fecha")],
    ),
    Dataset(
        "cotizaciones", "Cotizaciones de monedas",
        "Cotización diaria de compra y venta, en pesos, del dólar (USD), el euro (EUR), el real (BRL), el peso "
        "chileno (CLP) y el peso uruguayo (UYU), tal como la publica /v1/cotizaciones.",
        moneda_fields(), [Source("v1/cotizaciones")], origin=BCRA[0], origin_url=BCRA[1],
        indexes=[("fecha",), ("moneda", "fecha")], sort=("fecha",),
        routes=[Route("/v1/cotizaciones", summary="Cotizaciones de todas las monedas")],
    ),
    Dataset(
        "cotizaciones_moneda", "Cotizaciones de monedas, por moneda",
        "La serie que upstream publica por separado para cada moneda (/v1/cotizaciones/{moneda}). `divisa` es la "
        "moneda de la ruta, en minúsculas.",
        moneda_fields(), [Source("v1/cotizaciones/{divisa}")], origin=BCRA[0], origin_url=BCRA[1],
        partitions=[DIVISA], indexes=[("divisa", "fecha")], sort=("fecha",),
        routes=[Route("/v1/cotizaciones/{moneda}", [MONEDA], where={"divisa": lambda p: p["moneda"]},
                      summary="Cotizaciones de una moneda")],
    ),
    Dataset(
        "cotizaciones_moneda_fecha", "Cotizaciones de monedas: archivos por moneda y fecha",
        "Los archivos por moneda y fecha que upstream publica (/v1/cotizaciones/{moneda}/{fecha}), un registro "
        "cada uno; algunos días viejos no traen `casa`. La ruta responde cualquier fecha de la serie de la "
        "moneda: con el archivo si upstream lo publica, si no con el registro de ese día de cotizaciones_moneda.",
        moneda_fields(), [Source("v1/cotizaciones/{divisa}/{dia}")], origin=BCRA[0], origin_url=BCRA[1],
        partitions=[DIVISA, DIA], single_record=True, sort=("fecha",), required=False,
        routes=[Route("/v1/cotizaciones/{moneda}/{fecha}", [MONEDA, FECHA], shape="one",
                      where={"divisa": lambda p: p["moneda"], "dia": lambda p: p["fecha"]},
                      derive=Derivation("cotizaciones_moneda",
                                        {"divisa": lambda p: p["moneda"], "fecha": lambda p: p["fecha"]}),
                      summary="Cotización de una moneda en una fecha")],
    ),
    Dataset(
        "cotizaciones_fecha", "Cotizaciones de monedas: archivos por fecha",
        "Los archivos por fecha que upstream publica (/v1/cotizaciones/{fecha}): todas las monedas de un día. "
        "La ruta responde cualquier fecha de cotizaciones: con el archivo si upstream lo publica, si no con las "
        "filas de ese día de la serie completa.",
        moneda_fields(), [Source("v1/cotizaciones/{dia}")], origin=BCRA[0], origin_url=BCRA[1],
        partitions=[DIA], sort=("fecha",), required=False,
        routes=[Route("/v1/cotizaciones/{fecha}", [FECHA], where={"dia": lambda p: p["fecha"]},
                      derive=Derivation("cotizaciones", {"fecha": lambda p: p["fecha"]}),
                      summary="Cotizaciones de todas las monedas en una fecha")],
    ),
    serie("inflacion", "Inflación mensual", "Variación mensual del índice de precios al consumidor.",
          "v1/finanzas/indices/inflacion", PORCENTAJE, "INDEC", "https://www.indec.gob.ar/",
          "variación mensual del IPC; la fecha es el último día del mes"),
    serie("inflacion_interanual", "Inflación interanual",
          "Variación del índice de precios al consumidor contra el mismo mes del año anterior.",
          "v1/finanzas/indices/inflacionInteranual", PORCENTAJE, "INDEC", "https://www.indec.gob.ar/",
          "variación interanual del IPC; la fecha es el último día del mes"),
    serie("uva", "Índice UVA", "Valor diario de la Unidad de Valor Adquisitivo.",
          "v1/finanzas/indices/uva", "pesos por UVA", *BCRA, "valor de una UVA"),
    Dataset(
        "riesgo_pais", "Riesgo país", "Riesgo país (EMBI de JP Morgan para Argentina), diario.",
        [number("valor", "riesgo país: diferencia de tasa contra los bonos del Tesoro de EE.UU. (500 = 5 puntos "
                 "porcentuales)", unit="puntos básicos"), fecha(description="fecha del dato", nullable=False)],
        [Source("v1/finanzas/indices/riesgo-pais")], origin="JP Morgan (vía Ámbito)",
        origin_url="https://www.ambito.com/contenidos/riesgo-pais.html", unique=("fecha",), sort=("fecha",),
        routes=[Route("/v1/finanzas/indices/riesgo-pais", summary="Serie de riesgo país"),
                Route("/v1/finanzas/indices/riesgo-pais/ultimo", shape="last", summary="Último riesgo país")],
    ),
    Dataset(
        "confianza_gobierno", "Índice de confianza en el gobierno",
        "Índice mensual de confianza en el gobierno (escala 0 a 5) de la Universidad Torcuato Di Tella.",
        [fecha(description="mes del relevamiento (primer día)", nullable=False),
         number("valor", "índice", unit="puntos (0 a 5)"),
         number("variacion", "variación contra el mes anterior; la primera fila no la trae", unit=FRACCION,
                optional=True)],
        [Source("v1/politica/indices/confianza-gobierno")], origin="Universidad Torcuato Di Tella",
        origin_url="https://www.utdt.edu/", unique=("fecha",), sort=("fecha",),
        routes=[Route("/v1/politica/indices/confianza-gobierno", summary="Serie mensual"),
                Route("/v1/politica/indices/confianza-gobierno/ultimo", shape="last", summary="Último valor")],
    ),
    serie("depositos_30_dias", "Depósitos a 30 días",
          "Tasa de interés promedio de los depósitos a plazo fijo a 30 días.",
          "v1/finanzas/tasas/depositos30Dias", FRACCION, *BCRA,
          "tasa nominal anual promedio (en 2023-2024 supera 1: 1.08 = 108 %); desde el 27 de agosto de 2024 la fuente "
          "publica algunos días como porcentaje (39.92 = 39,92 %): un valor mayor que 10 es porcentaje"),
    Dataset(
        "plazo_fijo", "Plazo fijo", "Tasas nominales anuales de plazo fijo a 30 días por banco (última publicación).",
        plazo_fijo_fields("plazo_fijo_tasas"), [Source("v1/finanzas/tasas/plazoFijo")], origin=BCRA[0],
        origin_url="https://www.bcra.gob.ar/BCRAyVos/Plazos_fijos_online.asp", fts=("entidad",),
        routes=[Route("/v1/finanzas/tasas/plazoFijo", summary="Tasas de plazo fijo por banco")],
    ),
    Dataset(
        "plazo_fijo_uva_pago_periodico", "Plazo fijo UVA con pago periódico",
        "Tasas de plazos fijos UVA que pagan intereses periódicamente, por tramo de plazo.",
        [text("id", "identificador del proveedor"), entidad("banco"), text("logo", "URL del logo"),
         Children("tasas", "plazo_fijo_uva_pago_periodico_tasas", [
             text("nombre", "nombre del producto"), integer("plazoMinDias", unit="días", description="plazo mínimo"),
             integer("plazoMaxDias", "plazo máximo", unit="días"),
             number("tna", "tasa nominal anual (sobre UVA)", unit=FRACCION),
             number("tea", "tasa efectiva anual (sobre UVA)", unit=FRACCION)], "tasas por tramo de plazo")],
        [Source("v1/finanzas/tasas/plazoFijoUvaPagoPeriodico")], origin="Banco de la Nación Argentina",
        origin_url="https://www.bna.com.ar/",
        routes=[Route("/v1/finanzas/tasas/plazoFijoUvaPagoPeriodico", summary="Plazo fijo UVA con pago periódico")],
    ),
    Dataset(
        "plazo_fijo_precancelable", "Plazo fijo UVA precancelable",
        "Condiciones y tasas de plazos fijos UVA precancelables por banco.",
        [text("id", "identificador del proveedor"), entidad("banco"), text("logo", "URL del logo"),
         text("enlace", "página del producto"), text("canal", "canales donde se ofrece"),
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
         number("teaPrecancelacion", "TEA si se precancela; null = sin dato", unit=FRACCION)],
        [Source("v1/finanzas/tasas/plazoFijoPrecancelable")], origin="Bancos (páginas propias)",
        origin_url=UPSTREAM,
        routes=[Route("/v1/finanzas/tasas/plazoFijoPrecancelable", summary="Plazo fijo UVA precancelable")],
    ),
    Dataset(
        "criptopesos", "Criptopesos", "Tasa nominal anual que pagan los tokens de pesos por plataforma.",
        CRIPTOPESOS_FIELDS, [Source("v1/finanzas/criptopesos")], origin="Plataformas cripto", origin_url=UPSTREAM,
        routes=[Route("/v1/finanzas/criptopesos", summary="Criptopesos")],
    ),
    Dataset(
        "cuentas_remuneradas_usd", "Cuentas remuneradas en dólares",
        "Rendimiento anual y tope remunerado de cuentas en dólares por banco.",
        CUENTAS_USD_FIELDS, [Source("v1/finanzas/cuentas-remuneradas-usd")], origin="Bancos (páginas propias)",
        origin_url=UPSTREAM,
        routes=[Route("/v1/finanzas/cuentas-remuneradas-usd", summary="Cuentas remuneradas en USD")],
    ),
    Dataset(
        "remesas", "Plataformas de remesas",
        "Plataformas para recibir pagos del exterior, con costos y características. "
        "`detalles` aclara algunos campos (objeto JSON o null).",
        [text("compania", "plataforma"), boolean("cuentaPropia", "si da una cuenta a nombre propio"),
         text("moneda", "moneda de la cuenta", facet=True), boolean("inversiones", "si permite invertir"),
         boolean("tarjetaUsa", "si da una tarjeta de EE.UU."),
         text("costoRecibirPagos", "costo de recibir pagos, como texto (\"3%\", \"0\")"),
         text("costoMantenimientoTarjeta", "costo de mantener la tarjeta, número y moneda (\"0 USD\")"),
         text("costoTarjeta", "costo de usar la tarjeta, como porcentaje en texto"),
         text("retiroArs", "cómo se retiran pesos"),
         json("detalles", "aclaraciones por campo (objeto JSON de textos) o null"),
         number("calificacionAndroid", "calificación en Google Play; null = sin dato", unit="estrellas (0 a 5)"),
         number("calificacionIos", "calificación en App Store; null = sin dato", unit="estrellas (0 a 5)")],
        [Source("v1/finanzas/remesas")], origin="Plataformas (páginas propias)", origin_url=UPSTREAM,
        envelope_list="remesas", fts=("compania",),
        routes=[Route("/v1/finanzas/remesas", shape="envelope", summary="Plataformas de remesas")],
    ),
    Dataset(
        "cobros_comisiones", "Comisiones de cobro",
        "Aranceles (MDR) por cobrar con posnet, QR, link de pago y checkout, por entidad, medio de pago y plazo de acreditación.",
        [entidad("identificador de la entidad"), text("nombreComercial", "nombre comercial", facet=True),
         text("producto", "producto", facet=True), text("canal", "canal de cobro", facet=True),
         text("medioPago", "medio de pago", facet=True),
         number("arancel", "arancel sobre el monto cobrado", unit=FRACCION),
         boolean("arancelEsTope", "el arancel es un tope"), boolean("incluyeIva", "el arancel incluye IVA"),
         boolean("ivaAdicional", "se suma IVA al arancel"), text("acreditacionTipo", "tipo de acreditación"),
         integer("acreditacionPlazoHabiles", "días hábiles hasta la acreditación; null = sin dato", unit="días hábiles"),
         text("acreditacionLabel", "plazo de acreditación, como texto"),
         text("moneda", "moneda", facet=True), text("condiciones", "condiciones; null = ninguna"),
         text("enlace", "página de la entidad"), fecha("vigenciaDesde", "inicio de vigencia; null = sin dato"),
         fecha("vigenciaHasta", "fin de vigencia; null = sin dato"),
         json("metadata", "datos de la extracción (objeto JSON: fuenteUrl, celdaOriginal, ...)")],
        [Source("v1/finanzas/cobros/comisiones")], origin="Entidades de cobro (páginas propias)", origin_url=UPSTREAM,
        envelope_list="comisiones", fts=("entidad", "nombreComercial"),
        routes=[Route("/v1/finanzas/cobros/comisiones", shape="envelope", summary="Comisiones de cobro")],
    ),
    Dataset(
        "brokers_comisiones", "Comisiones de brokers",
        "Comisiones minoristas (web/app) de brokers por producto. Si `tasaBase` es mensual, anual o tna, "
        "comparar con `tasaAnualEquivalente`; `tasaEsTope` indica que el valor es un máximo.",
        [entidad("broker"), text("nombreComercial", "nombre comercial", facet=True),
         text("producto", "producto (acciones, cedears, bonos, ...)", facet=True),
         text("operacion", "operación", facet=True), text("moneda", "moneda", facet=True),
         text("canal", "canal", facet=True), text("plan", "plan o segmento; null = único"),
         number("tasa", "comisión", unit=FRACCION),
         text("tasaBase", "base de la tasa (por operación, mensual, anual, tna); null = por operación"),
         number("tasaAnualEquivalente", "comisión anualizada; null si no corresponde", unit=FRACCION),
         boolean("tasaEsTope", "la comisión es un tope"), boolean("incluyeIva", "la comisión incluye IVA"),
         boolean("ivaAdicional", "se suma IVA"), integer("prorrateoDias", "días de prorrateo; null = no aplica", unit="días"),
         number("comisionMinima", "comisión mínima; null = sin mínimo", unit="pesos"),
         number("derechoMercado", "derecho de mercado; null = sin dato", unit=FRACCION),
         text("enlace", "página del broker"),
         json("metadata", "datos de la extracción (objeto JSON: fuenteUrl, celdaOriginal, notas, ...)")],
        [Source("v1/finanzas/brokers/comisiones")], origin="Brokers (páginas propias)", origin_url=UPSTREAM,
        envelope_list="comisiones", fts=("entidad", "nombreComercial", "producto"),
        routes=[Route("/v1/finanzas/brokers/comisiones", shape="envelope", summary="Comisiones de brokers")],
    ),
    Dataset(
        "hipotecarios_uva", "Créditos hipotecarios UVA", "Tasa nominal anual de créditos hipotecarios UVA por banco.",
        hipotecarios_fields(), [Source("v1/finanzas/creditos/hipotecariosUva")], origin="Bancos (páginas propias)",
        origin_url=UPSTREAM,
        routes=[Route("/v1/finanzas/creditos/hipotecariosUva", summary="Hipotecarios UVA")],
    ),
    Dataset(
        "prestamos_personales", "Préstamos personales",
        "Ofertas de préstamos personales con tasas por tramo de plazo (tabla prestamos_personales_tasas).",
        [entidad("banco (código corto)"), text("nombreComercial", "nombre comercial"),
         text("producto", "producto"), number("tna", "tasa nominal anual", unit=FRACCION),
         number("tea", "tasa efectiva anual", unit=FRACCION),
         number("cftTna", "costo financiero total nominal; null = no publicado", unit=FRACCION),
         number("cftTea", "costo financiero total efectivo anual", unit=FRACCION),
         text("tipoTasa", "fija o variable", facet=True), text("moneda", "moneda", facet=True),
         boolean("requiereCliente", "requiere ser cliente del banco"), text("condiciones", "condiciones"),
         text("enlace", "página del producto"), fecha("vigenciaDesde", "inicio de vigencia; null = sin dato"),
         fecha("vigenciaHasta", "fin de vigencia; null = sin dato"),
         Obj("metadata", [
             integer("plazoMesesEjemplo", "plazo del ejemplo publicado", unit="meses", optional=True),
             integer("plazoMinMeses", "plazo mínimo", unit="meses"),
             integer("plazoMaxMeses", "plazo máximo", unit="meses"),
             Children("tasasPorPlazo", "prestamos_personales_tasas", [
                 integer("plazoMinMeses", "plazo mínimo del tramo", unit="meses"),
                 integer("plazoMaxMeses", "plazo máximo del tramo", unit="meses"),
                 number("tna", "tasa nominal anual", unit=FRACCION),
                 number("tea", "tasa efectiva anual", unit=FRACCION),
                 number("cftTea", "costo financiero total efectivo anual", unit=FRACCION)],
                 "tasas por tramo de plazo"),
             boolean("fuentePdf", "los datos vienen de un PDF", optional=True),
         ], "plazos y tasas por plazo")],
        [Source("v1/finanzas/creditos/prestamosPersonales")], origin="Bancos (páginas propias)", origin_url=UPSTREAM,
        fts=("nombreComercial", "producto"),
        routes=[Route("/v1/finanzas/creditos/prestamosPersonales", summary="Préstamos personales")],
    ),
    Dataset(
        "prestamos_personales_bcra", "Préstamos personales (BCRA)",
        "TEA y CFT máximos de préstamos personales por producto y entidad, del régimen de transparencia del BCRA.",
        [text("codigoEntidad", "código de entidad del BCRA"), entidad("entidad"),
         text("nombreComercial", "nombre comercial"), text("producto", "producto"),
         text("productoCorto", "código del producto"), text("moneda", "moneda", facet=True),
         number("teaMax", "tasa efectiva anual máxima", unit=FRACCION),
         number("cftTeaMax", "costo financiero total efectivo anual máximo (negativo = sin dato)", unit=FRACCION),
         text("tipoTasa", "fija o variable", facet=True), boolean("requiereCliente", "requiere ser cliente"),
         text("condiciones", "a quién se ofrece"), fecha("vigenciaDesde", "inicio de vigencia"),
         text("enlace", "página de la entidad"),
         Obj("metadata", [
             number("montoMin", "monto mínimo", unit="pesos"), number("montoMax", "monto máximo", unit="pesos"),
             integer("plazoMaxMeses", "plazo máximo", unit="meses"),
             number("ingresoMinMensual", "ingreso mínimo mensual", unit="pesos"),
             integer("antiguedadLaboralMinMeses", "antigüedad laboral mínima", unit="meses"),
             integer("edadMax", "edad máxima", unit="años"),
             text("afectacionIngresos", "afectación máxima de ingresos, como texto"),
             number("cargoCancelacionAnticipada", "cargo por cancelación anticipada", unit=FRACCION),
             number("cuotaInicialPor10000", "cuota inicial por cada 10.000 pesos", unit="pesos"),
             text("territorio", "alcance territorial"), text("notas", "notas; null = ninguna"),
             text("fuente", "origen del dato")], "condiciones del régimen de transparencia")],
        [Source("v1/finanzas/creditos/prestamosPersonalesBcra")], origin=BCRA[0],
        origin_url="https://www.bcra.gob.ar/BCRAyVos/Regimen_de_transparencia.asp",
        fts=("entidad", "producto"),
        routes=[Route("/v1/finanzas/creditos/prestamosPersonalesBcra", summary="Préstamos personales (BCRA)")],
    ),
    Dataset(
        "fci_valores", "Fondos comunes de inversión: valores diarios",
        "Valor de cuotaparte, cuotapartes y patrimonio de cada fondo, por categoría y listado. "
        "`listado` es la fecha del archivo publicado, o `ultimo` / `penultimo` (listados propios de upstream). "
        "Un listado puede traer registros con `fecha` anterior a la suya. Las filas como «Region: Argentina» "
        "son agregados (sin horizonte). La vista fci_valores_vista muestra los nombres en lugar de los ids.",
        [text("fondo", "nombre del fondo y clase"),
         text("horizonte", "horizonte de inversión (corto, medio, largo, flex); los agregados no lo traen",
              optional=True, facet=True),
         fecha(description="fecha del valor; null en filas agregadas"),
         number("vcp", "valor de la cuotaparte; null = sin dato", unit="moneda del fondo por cuotaparte"),
         number("ccp", "cantidad de cuotapartes; null = sin dato", unit="cuotapartes"),
         number("patrimonio", "patrimonio del fondo; null = sin dato", unit="moneda del fondo")],
        [Source("v1/finanzas/fci/{categoria}/{listado}")], origin=CAFCI[0], origin_url=CAFCI[1],
        partitions=[CATEGORIA_FCI, LISTADO_FCI], lookups=("categoria", "listado", "fondo", "horizonte"),
        fts=("fondo",),
        routes=[Route("/v1/finanzas/fci/{categoria}/{fecha}", [CATEGORIA_FCI, FECHA_FCI],
                      where={"categoria": lambda p: p["categoria"], "listado": lambda p: p["fecha"]},
                      summary="Valores de los fondos de una categoría en una fecha")],
    ),
    Dataset(
        "fci_fondos", "Fondos comunes de inversión: ficha",
        "Ficha de cada fondo: administradora, rendimientos, honorarios; cartera, calificaciones y "
        "sociedades en tablas hijas. `slug` es el nombre normalizado de /v1/finanzas/fci/fondos/{nombre}.",
        [text("fondoId", "id del fondo en CAFCI"), text("claseId", "id de la clase en CAFCI"),
         text("nombre", "nombre del fondo y clase"), fecha(description="fecha de los datos"),
         text("administradora", "sociedad gerente", facet=True), text("depositaria", "sociedad depositaria", facet=True),
         text("tipoRenta", "tipo de renta", facet=True), text("tipoDD", "tipo de fondo"), text("region", "región", facet=True),
         text("benchmark", "índice de referencia"), text("horizonte", "horizonte de inversión", facet=True),
         text("duracion", "duración", optional=True), text("moneda", "moneda del fondo", facet=True),
         text("codigoCNV", "código CNV"), number("patrimonio", "patrimonio", unit="moneda del fondo"),
         number("inversionMinima", "inversión mínima", unit="moneda de inversión"),
         text("monedaInversion", "moneda de suscripción"),
         integer("plazoLiquidacionDias", "plazo de rescate", unit="días"),
         Obj("rendimientos", [
             number("valorCuotaparte", "valor de la cuotaparte", unit="moneda del fondo"),
             number("variacionDiariaPct", "variación diaria", unit=PORCENTAJE, optional=True),
             number("ultimos7Dias", "rendimiento 7 días", unit=PORCENTAJE),
             number("unMes", "rendimiento 30 días", unit=PORCENTAJE),
             number("noventaDias", "rendimiento 90 días", unit=PORCENTAJE),
             number("cientoOchentaDias", "rendimiento 180 días", unit=PORCENTAJE),
             number("enElAnio", "rendimiento en el año", unit=PORCENTAJE),
             number("doceMeses", "rendimiento 12 meses", unit=PORCENTAJE)], "rendimientos (null = sin dato)"),
         Children("composicionCartera", "fci_fondos_composicion_cartera", [
             text("nombre", "activo o tipo de activo"), number("porcentaje", "peso en la cartera", unit=PORCENTAJE)],
             "composición de la cartera"),
         Children("calificaciones", "fci_fondos_calificaciones", [
             text("calificadora", "agencia"), text("calificacion", "calificación"),
             fecha(description="fecha de la calificación")], "calificaciones de riesgo"),
         Obj("honorarios", [
             number(n, d, unit=PORCENTAJE) for n, d in [
                 ("honorarioGerente", "honorario de la gerente"), ("honorarioDepositaria", "honorario de la depositaria"),
                 ("comisionIngreso", "comisión de suscripción"), ("comisionEgreso", "comisión de rescate"),
                 ("comisionTransferencia", "comisión de transferencia"),
                 ("gastosOrdinariosGestion", "gastos ordinarios de gestión"), ("comisionExito", "comisión de éxito"),
                 ("otros", "otros gastos")]], "honorarios y comisiones anuales"),
         Children("sociedades", "fci_fondos_sociedades", [
             text("tipo", "gerente o depositaria"), text("nombre", "sociedad"), text("logo", "URL del logo")],
             "sociedades del fondo"),
         text("duration", "duración (un fondo la publica con esta grafía en lugar de «duracion»)", optional=True)],
        [Source("v1/finanzas/fci/fondos")], origin=CAFCI[0], origin_url=CAFCI[1], envelope_list="fondos",
        derived={"slug": lambda r: slugify(r["nombre"])}, fts=("nombre", "administradora"),
        routes=[
            Route("/v1/finanzas/fci/fondos", shape="envelope", summary="Fichas de todos los fondos"),
            Route("/v1/finanzas/fci/fondos/{nombre}", [NOMBRE_FONDO], where={"slug": lambda p: p["nombre"]},
                  shape="one", summary="Ficha de un fondo"),
        ],
    ),
    Dataset(
        "fci_fondos_historico", "Fondos comunes de inversión: histórico por fondo",
        "Serie diaria de un fondo: cuotaparte, patrimonio, retornos y flujo estimado.",
        [text("slug", "nombre normalizado del fondo"), text("fondoId", "id del fondo; null en datos heredados"),
         text("claseId", "id de la clase; null en datos heredados"), text("nombre", "nombre del fondo"),
         fecha(description="día"), text("categoria", "categoría", facet=True),
         text("categoriaKey", "categoría, como en las rutas /v1/finanzas/fci/{categoria}"),
         text("horizonte", "horizonte", facet=True),
         number("valorCuotaparte", "valor de la cuotaparte", unit="moneda del fondo"),
         number("patrimonio", "patrimonio", unit="moneda del fondo"),
         number("retornoDiario", "variación diaria de la cuotaparte; null = primer día", unit=PORCENTAJE),
         number("retornoAcumulado", "variación acumulada de la cuotaparte desde el primer día", unit=PORCENTAJE),
         number("flujoEstimado", "suscripciones menos rescates estimados; null = sin dato", unit="moneda del fondo"),
         text("origen", "origen del dato", facet=True)],
        [Source("v1/finanzas/fci/fondos/{slug}/historico")], origin=CAFCI[0], origin_url=CAFCI[1],
        partitions=[SLUG], envelope_list="historico", required=False,
        routes=[Route("/v1/finanzas/fci/fondos/{nombre}/historico", [NOMBRE_FONDO],
                      where={"slug": lambda p: p["nombre"]}, shape="envelope", summary="Histórico de un fondo")],
    ),
    Dataset(
        "senadores", "Senadores", "Senadores de la Nación desde 1854, con períodos legal y real.",
        [text("id", "id del senador (senadorId en los viajes)"), text("nombre", "apellido, nombre"),
         text("provincia", "provincia", facet=True), text("partido", "partido o bloque", facet=True),
         Obj("periodoLegal", [fecha("inicio", "inicio del mandato"), fecha("fin", "fin del mandato")],
             "mandato según la ley"),
         Obj("periodoReal", [fecha("inicio", "asunción efectiva"), fecha("fin", "cese efectivo; null = en funciones")],
             "mandato efectivo"),
         text("reemplazo", "a quién reemplazó o motivo"), text("observaciones", "observaciones"),
         text("foto", "URL de la foto"), text("email", "correo"), text("telefono", "teléfono"),
         json("redes", "correo y redes sociales (lista JSON) o null")],
        [Source("v1/senado/senadores")], origin=SENADO[0], origin_url="https://www.senado.gob.ar/senadores/",
        unique=("id",), fts=("nombre",),
        routes=[Route("/v1/senado/senadores", summary="Senadores")],
    ),
    Dataset(
        "senado_documentos", "Senado: documentos de viajes",
        "Catálogo de los documentos (PDF) del Senado con los viajes oficiales.",
        [text("id", "id del documento"), text("ambito", "nacional o internacional", facet=True),
         integer("anio", "año"), integer("mes", "mes; null en documentos anuales"),
         text("mesNombre", "nombre del mes; null en documentos anuales"), text("url", "URL del documento")],
        [Source(VIAJES)], origin=SENADO[0], origin_url=SENADO[1], envelope_list="documentos",
    ),
    Dataset(
        "senado_viajes_nacionales", "Senado: viajes nacionales",
        "Pasajes de cabotaje de los senadores, uno por tramo.",
        senado_viaje_fields(False), [Source(VIAJES)], origin=SENADO[0], origin_url=SENADO[1],
        envelope_list="nacionales", indexes=[("senadorId",), ("anio", "mes")], fts=("nombre", "destino", "origen"),
        routes=[
            Route("/v1/senado/viajes/nacionales", summary="Viajes nacionales"),
            Route("/v1/senado/viajes/nacionales/{año}/{mes}", [year(2012, 2026, "del viaje"), MES],
                  where={"anio": lambda p: p["año"], "mes": lambda p: int(p["mes"])},
                  summary="Viajes nacionales de un mes"),
        ],
    ),
    Dataset(
        "senado_viajes_internacionales", "Senado: viajes internacionales",
        "Viajes al exterior de los senadores, con viáticos.",
        senado_viaje_fields(True), [Source(VIAJES)], origin=SENADO[0], origin_url=SENADO[1],
        envelope_list="internacionales", indexes=[("senadorId",), ("anio",)], fts=("nombre", "destino", "motivo"),
        routes=[
            Route("/v1/senado/viajes/internacionales", summary="Viajes internacionales"),
            Route("/v1/senado/viajes/internacionales/{año}", [year(2012, 2026, "del viaje")],
                  where={"anio": lambda p: p["año"]}, summary="Viajes internacionales de un año"),
        ],
    ),
    Dataset(
        "rems", "Relevamiento de Expectativas de Mercado (REM)",
        "Expectativas de los analistas relevadas por el BCRA, por informe mensual. `listado` es el informe "
        "AAAA-MM del archivo, o `ultimo`. Algunos informes usan \"\" donde otros usan null; sólo algunos traen `fuente`.",
        [text("informe", "informe AAAA-MM"), fecha(description="fecha del informe"),
         text("muestra", "muestra (todos, top 10)", facet=True),
         text("indicador", "variable pronosticada (IPC, tipo de cambio, PIB, tasa, ...)", facet=True),
         text("periodo", "período pronosticado"), text("periodoTipo", "mensual, trimestral, anual, ...", facet=True),
         fecha("periodoDesde", "inicio del período"), fecha("periodoHasta", "fin del período"),
         text("referencia", "referencia del indicador"), fecha("referenciaFecha", "fecha de referencia"),
         text("unidad", "unidad del indicador", facet=True),
         *[number(n, d, unit="la de `unidad` (\"var. % ...\" = porcentaje: 21.8 = 21,8 %; \"$/USD\" = pesos por dólar)")
           for n, d in [
             ("mediana", "mediana"), ("promedio", "promedio"), ("desvio", "desvío estándar"),
             ("maximo", "máximo"), ("minimo", "mínimo"), ("percentil90", "percentil 90"),
             ("percentil75", "percentil 75"), ("percentil25", "percentil 25"), ("percentil10", "percentil 10")]],
         integer("participantes", "cantidad de participantes"),
         text("publicacionUrl", "URL de la publicación"), text("xlsxUrl", "URL de la planilla"),
         text("fuente", "fuente", optional=True)],
        [Source("v1/rems/{listado}")], origin=BCRA[0],
        origin_url="https://www.bcra.gob.ar/PublicacionesEstadisticas/Relevamiento_Expectativas_de_Mercado.asp",
        partitions=[LISTADO_MES], indexes=[("indicador",)],
        routes=[
            Route("/v1/rems/ultimo", where={"listado": "ultimo"}, summary="Último REM"),
            Route("/v1/rems/{año}/{mes}", [year(2016, None, "del informe"), MES],
                  where={"listado": lambda p: f"{p['año']}-{p['mes']}"}, summary="REM de un mes"),
        ],
    ),
    Dataset(
        "rems_informes", "REM: índice de informes",
        "Rutas de los informes REM que upstream publica en /v1/rems.",
        [text("ruta", "ruta del informe, relativa a /v1")], [Source("v1/rems")], origin=BCRA[0],
        origin_url=BCRA[1], scalar_records=True,
        routes=[Route("/v1/rems", summary="Índice de informes REM")],
    ),
    history("plazo_fijo_historico", "Plazo fijo: histórico", "v1/finanzas/tasas/plazoFijo",
            plazo_fijo_fields("plazo_fijo_historico_tasas"), BCRA),
    history("criptopesos_historico", "Criptopesos: histórico", "v1/finanzas/criptopesos",
            CRIPTOPESOS_FIELDS, ("Plataformas cripto", UPSTREAM)),
    history("hipotecarios_uva_historico", "Hipotecarios UVA: histórico", "v1/finanzas/creditos/hipotecariosUva",
            hipotecarios_fields(), ("Bancos (páginas propias)", UPSTREAM)),
    history("cuentas_remuneradas_usd_historico", "Cuentas remuneradas en USD: histórico",
            "v1/finanzas/cuentas-remuneradas-usd", CUENTAS_USD_FIELDS, ("Bancos (páginas propias)", UPSTREAM)),
]

BY_TABLE = {d.table: d for d in DATASETS}
