"""Quotes: the dollar by casa and other currencies, as series and per date."""

from __future__ import annotations

from argentina_datos.catalogo.calendario import HOLIDAY_TABLES
from argentina_datos.catalogo.campos import BCRA, fecha, number, per_unit, text
from argentina_datos.catalogo.esquema import (
    BOOLEAN,
    DAILY,
    Dataset,
    Derivation,
    Link,
    PathValue,
    Route,
    Series,
    by_path,
    sourced,
)
from argentina_datos.catalogo.parametros import CASA, DIA_DOLARES, DIA_MONEDAS, DIVISA, FECHA, MONEDA


def cotizacion_fields(casa_description):
    return [
        text("casa", casa_description, facet=True, nullable=False),
        number("compra", "precio de compra; null = sin dato", unit="pesos por dólar"),
        number("venta", "precio de venta", unit="pesos por dólar"),
        fecha(description="día de la cotización", nullable=False),
    ]


# The peso chileno was quoted per 100 pesos chilenos until 2024-09-05 (100.57 on the 5th, 1.0119 on the 6th).
PER_UNIT = {"CLP": ("2024-09-06", 100.0)}
_PRICE_UNIT = (
    "pesos por unidad de la moneda, salvo el peso chileno (CLP) hasta el 2024-09-05: pesos por 100 pesos chilenos "
    "(compraUnidad y ventaUnidad lo dan siempre por unidad)"
)


def moneda_fields():
    return [
        text("moneda", "código ISO de la moneda: USD, EUR, BRL, CLP o UYU", facet=True, nullable=False),
        text("casa", "tipo de cotización (oficial); los registros más viejos no la traen", facet=True, optional=True),
        number("compra", f"precio de compra; null = sin dato. En {_PRICE_UNIT}", unit="pesos por unidad de la moneda"),
        number("venta", f"precio de venta. En {_PRICE_UNIT}", unit="pesos por unidad de la moneda"),
        fecha(description="día de la cotización", nullable=False),
    ]


# compra and venta for one unit of the currency, in every row.
POR_UNIDAD = {"compraUnidad": per_unit("compra", PER_UNIT), "ventaUnidad": per_unit("venta", PER_UNIT)}


def arrastrado(table: str) -> Link:
    """The column marking the days a quote series carries forward (construccion/calculos.py computes it)."""
    return Link(
        table,
        "arrastrado",
        "1 si el día no es hábil (sábado, domingo o un feriado de las tablas feriados y feriados_bancarios) y repite "
        "la cotización del día anterior de la misma serie: la fuente publica todos los días del calendario y arrastra "
        "el último valor, así que no es una cotización de ese día; 0 si no. Un promedio de todas las filas (como "
        "?agrupar=mes de /v1) pesa tres veces el viernes; para promediar días hábiles: `WHERE habil` (un día no hábil puede traer otro valor)",
        kind=BOOLEAN,
        reads=HOLIDAY_TABLES,
    )


def habil(table: str) -> Link:
    """The column marking the business days of a quote series (construccion/calculos.py computes it)."""
    return Link(
        table,
        "habil",
        "1 si el día es hábil: lunes a viernes que no está en las tablas feriados ni feriados_bancarios (antes de "
        "2011, que no cubren, cuenta todo lunes a viernes); 0 si no. La cotización de un día no hábil queda tal "
        "como la publicó la fuente, aunque difiera de la del día anterior; para promediar días hábiles: "
        "`WHERE habil`, como las consultas guardadas",
        kind=BOOLEAN,
        reads=HOLIDAY_TABLES,
    )


DATASETS: list[Dataset] = [
    Dataset(
        "cotizaciones_dolares",
        "Cotizaciones del dólar",
        "Cotización diaria de compra y venta de cada casa (oficial, blue, bolsa/MEP, contado con "
        "liquidación, cripto, mayorista, solidario, tarjeta), tal como la publica /v1/cotizaciones/dolares.",
        cotizacion_fields("casa de cambio (tarjeta = la que la especificación llama turista)"),
        **sourced("v1/cotizaciones/dolares", "Ámbito / BCRA", "https://www.ambito.com/contenidos/dolar.html"),
        unique=("casa", "fecha"),
        sort=("fecha",),
        series=Series(
            DAILY,
            by=("casa",),
            values=("compra", "venta"),
            closed_market=("oficial", "mayorista", "bolsa", "contadoconliqui"),
            reference="oficial",
        ),
        links=[arrastrado("cotizaciones_dolares"), habil("cotizaciones_dolares")],
        routes=[Route("/v1/cotizaciones/dolares", summary="Cotizaciones de todas las casas")],
    ),
    Dataset(
        "cotizaciones_dolares_casa",
        "Cotizaciones del dólar por casa",
        "La serie que upstream publica por separado para cada casa (/v1/cotizaciones/dolares/{casa}). "
        "Difiere en algunos días de la serie completa: se guarda tal cual, y la tabla calidad dice cuáles "
        "(«rutas en desacuerdo»). La cotización de una casa en una fecha (/v1/cotizaciones/dolares/{casa}/{fecha}) "
        "es, como en upstream, el registro de la serie completa (cotizaciones_dolares).",
        cotizacion_fields("casa de cambio"),
        **sourced("v1/cotizaciones/dolares/{casa}", "Ámbito / BCRA", "https://www.ambito.com/contenidos/dolar.html"),
        partitions=[CASA],
        indexes=[("casa", "fecha")],
        same_records_as="cotizaciones_dolares",
        sort=("fecha",),
        routes=[
            by_path("/v1/cotizaciones/dolares/{casa}", CASA, "casa", "Cotizaciones de una casa"),
            Route(
                "/v1/cotizaciones/dolares/{casa}/{fecha}",
                [CASA, FECHA],
                where={"casa": PathValue("casa"), "fecha": PathValue("fecha")},
                shape="one",
                # Upstream publishes no per-house per-date files: its answer is the all-houses list's record,
                # which some days differs from the house's own list (oficial, 2024-05-30/31: compra 873/874
                # there, 913/914 in /v1/cotizaciones/dolares/oficial), or is only there (441 days).
                derive=Derivation("cotizaciones_dolares", {"casa": PathValue("casa"), "fecha": PathValue("fecha")}),
                summary="Cotización de una casa en una fecha",
            ),
        ],
    ),
    Dataset(
        "cotizaciones_dolares_fecha",
        "Cotizaciones del dólar: archivos por fecha",
        "Los archivos por fecha que upstream publica (/v1/cotizaciones/dolares/{fecha}): todas las casas de un "
        "día. Casi todos son el corte de ese día de cotizaciones_dolares; algunos de 2019 traen menos casas, y se "
        "guardan tal cual. La ruta responde cualquier fecha de cotizaciones_dolares: con el archivo de esa fecha "
        "si upstream lo publica, si no con las filas de ese día de la serie completa. `dia` es la fecha del archivo.",
        cotizacion_fields("casa de cambio"),
        **sourced("v1/cotizaciones/dolares/{dia}", "Ámbito / BCRA", "https://www.ambito.com/contenidos/dolar.html"),
        partitions=[DIA_DOLARES],
        sort=("fecha",),
        routes=[
            Route(
                "/v1/cotizaciones/dolares/{fecha}",
                [FECHA],
                where={"dia": PathValue("fecha")},
                derive=Derivation("cotizaciones_dolares", {"fecha": PathValue("fecha")}),
                summary="Cotizaciones de todas las casas en una fecha",
            )
        ],
    ),
    Dataset(
        "cotizaciones",
        "Cotizaciones de monedas",
        "Cotización diaria de compra y venta, en pesos, del dólar (USD), el euro (EUR), el real (BRL), el peso "
        "chileno (CLP) y el peso uruguayo (UYU), tal como la publica /v1/cotizaciones.",
        moneda_fields(),
        **sourced("v1/cotizaciones", *BCRA),
        indexes=[("fecha",), ("moneda", "fecha")],
        sort=("fecha",),
        series=Series(DAILY, by=("moneda",), values=("compra", "venta")),
        derived=POR_UNIDAD,
        links=[arrastrado("cotizaciones"), habil("cotizaciones")],
        routes=[Route("/v1/cotizaciones", summary="Cotizaciones de todas las monedas")],
    ),
    Dataset(
        "cotizaciones_moneda",
        "Cotizaciones de monedas, por moneda",
        "La serie que upstream publica por separado para cada moneda (/v1/cotizaciones/{moneda}). `divisa` es la "
        "moneda de la ruta, en minúsculas. Algunos días difiere de la lista de todas las monedas: se guarda tal cual, "
        "y la tabla calidad dice cuáles («rutas en desacuerdo»).",
        moneda_fields(),
        **sourced("v1/cotizaciones/{divisa}", *BCRA),
        partitions=[DIVISA],
        indexes=[("divisa", "fecha")],
        same_records_as="cotizaciones",
        sort=("fecha",),
        derived=POR_UNIDAD,
        routes=[by_path("/v1/cotizaciones/{moneda}", MONEDA, "divisa", "Cotizaciones de una moneda")],
    ),
    Dataset(
        "cotizaciones_moneda_fecha",
        "Cotizaciones de monedas: archivos por moneda y fecha",
        "Los archivos por moneda y fecha que upstream publica (/v1/cotizaciones/{moneda}/{fecha}), un registro "
        "cada uno; algunos días viejos no traen `casa`. La ruta responde cualquier fecha de la serie de la "
        "moneda: con el archivo si upstream lo publica, si no con el registro de ese día de cotizaciones_moneda.",
        moneda_fields(),
        **sourced("v1/cotizaciones/{divisa}/{dia}", *BCRA),
        partitions=[DIVISA, DIA_MONEDAS],
        single_record=True,
        derived=POR_UNIDAD,
        sort=("fecha",),
        routes=[
            Route(
                "/v1/cotizaciones/{moneda}/{fecha}",
                [MONEDA, FECHA],
                shape="one",
                where={"divisa": PathValue("moneda"), "dia": PathValue("fecha")},
                derive=Derivation("cotizaciones_moneda", {"divisa": PathValue("moneda"), "fecha": PathValue("fecha")}),
                summary="Cotización de una moneda en una fecha",
            )
        ],
    ),
    Dataset(
        "cotizaciones_fecha",
        "Cotizaciones de monedas: archivos por fecha",
        "Los archivos por fecha que upstream publica (/v1/cotizaciones/{fecha}): todas las monedas de un día. "
        "La ruta responde cualquier fecha de cotizaciones: con el archivo si upstream lo publica, si no con las "
        "filas de ese día de la serie completa.",
        moneda_fields(),
        **sourced("v1/cotizaciones/{dia}", *BCRA),
        partitions=[DIA_MONEDAS],
        sort=("fecha",),
        derived=POR_UNIDAD,
        routes=[
            Route(
                "/v1/cotizaciones/{fecha}",
                [FECHA],
                where={"dia": PathValue("fecha")},
                derive=Derivation("cotizaciones", {"fecha": PathValue("fecha")}),
                summary="Cotizaciones de todas las monedas en una fecha",
            )
        ],
    ),
]
