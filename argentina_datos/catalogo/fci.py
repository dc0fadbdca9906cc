"""Investment funds (FCI): daily values by category, fund details and per-fund history."""

from __future__ import annotations

from typing import Optional

from argentina_datos.catalogo.campos import CAFCI, PORCENTAJE, fecha, integer, number, text
from argentina_datos.catalogo.esquema import (
    DAILY,
    Children,
    Computed,
    Dataset,
    DerivedTable,
    Member,
    Obj,
    PathValue,
    Route,
    Series,
    by_path,
    sourced,
)
from argentina_datos.catalogo.parametros import CATEGORIA_FCI, FECHA_FCI, LISTADO_FCI, NOMBRE_FONDO, SLUG
from argentina_datos.catalogo.slug import slugify


def fund_card_fields(
    table: str, *, sociedad_tipos: str, duracion_optional: bool = False, cantidad_cuotapartes: bool = False
) -> list[Member]:
    """A fund's card as CAFCI publishes it, in its key order: the fund files (fci_fondos) and the fund
    comparison (fci_comparatasas) publish the same card, each with its own child tables (``table``_...).

    :param sociedad_tipos: how the source names the kinds of company in ``sociedades.tipo``
    :param duracion_optional: some cards leave `duracion` out
    :param cantidad_cuotapartes: the card has `cantidadCuotapartes` (after `patrimonio`)
    """
    return [
        text("fondoId", "id del fondo en CAFCI"),
        text("claseId", "id de la clase en CAFCI"),
        text("nombre", "nombre del fondo y clase"),
        fecha(description="fecha de los datos"),
        text("administradora", "sociedad gerente", facet=True),
        text("depositaria", "sociedad depositaria", facet=True),
        text("tipoRenta", "tipo de renta (Mercado de Dinero, Renta Fija, ...)", facet=True),
        text("tipoDD", "tipo de fondo"),
        text("region", "región", facet=True),
        text("benchmark", "índice de referencia"),
        text("horizonte", "horizonte de inversión", facet=True),
        text("duracion", "duración", optional=duracion_optional),
        text("moneda", "moneda del fondo", facet=True),
        text("codigoCNV", "código CNV"),
        number("patrimonio", "patrimonio", unit="moneda del fondo"),
        *(
            [number("cantidadCuotapartes", "cuotapartes en circulación", unit="cuotapartes")]
            if cantidad_cuotapartes
            else []
        ),
        number("inversionMinima", "inversión mínima", unit="moneda de inversión"),
        text("monedaInversion", "moneda de suscripción"),
        integer("plazoLiquidacionDias", "plazo de rescate", unit="días"),
        Obj(
            "rendimientos",
            [
                number("valorCuotaparte", "valor de la cuotaparte", unit="moneda del fondo"),
                number("variacionDiariaPct", "variación diaria", unit=PORCENTAJE, optional=True),
                number("ultimos7Dias", "rendimiento de los últimos 7 días, anualizado", unit=PORCENTAJE),
                number("unMes", "rendimiento de 30 días, anualizado", unit=PORCENTAJE),
                number("noventaDias", "rendimiento de 90 días, anualizado", unit=PORCENTAJE),
                number("cientoOchentaDias", "rendimiento de 180 días, anualizado", unit=PORCENTAJE),
                number("enElAnio", "rendimiento en el año, anualizado", unit=PORCENTAJE),
                number("doceMeses", "rendimiento de 12 meses", unit=PORCENTAJE),
            ],
            "rendimientos (null = sin dato)",
        ),
        Children(
            "composicionCartera",
            f"{table}_composicion_cartera",
            [text("nombre", "activo o tipo de activo"), number("porcentaje", "peso en la cartera", unit=PORCENTAJE)],
            "composición de la cartera",
        ),
        Children(
            "calificaciones",
            f"{table}_calificaciones",
            [
                text("calificadora", "agencia"),
                text("calificacion", "calificación"),
                fecha(description="fecha de la calificación"),
            ],
            "calificaciones de riesgo",
        ),
        Obj(
            "honorarios",
            [
                number(n, d + "; null = sin dato", unit=PORCENTAJE)
                for n, d in [
                    ("honorarioGerente", "honorario anual de la gerente"),
                    ("honorarioDepositaria", "honorario anual de la depositaria"),
                    ("comisionIngreso", "comisión de suscripción"),
                    ("comisionEgreso", "comisión de rescate"),
                    ("comisionTransferencia", "comisión de transferencia"),
                    ("gastosOrdinariosGestion", "gastos ordinarios de gestión"),
                    ("comisionExito", "comisión de éxito"),
                    ("otros", "otros gastos"),
                ]
            ],
            "honorarios y comisiones anuales",
        ),
        Children(
            "sociedades",
            f"{table}_sociedades",
            [text("tipo", sociedad_tipos), text("nombre", "sociedad"), text("logo", "URL del logo")],
            "sociedades del fondo",
        ),
    ]


DATASETS: list[Dataset] = [
    Dataset(
        "fci_valores",
        "Fondos comunes de inversión: valores diarios",
        "Valor de cuotaparte, cuotapartes y patrimonio de cada fondo, por categoría y listado. "
        "`listado` es la fecha del archivo publicado, o `ultimo` / `penultimo` (listados propios de upstream). "
        "Un listado puede traer registros con `fecha` anterior a la suya. Las filas como «Region: Argentina» "
        "son agregados (sin horizonte). La vista fci_valores_vista muestra los nombres en lugar de los ids.",
        [
            text("fondo", "nombre del fondo y clase"),
            text(
                "horizonte",
                "horizonte de inversión (corto, medio, largo, flex); los agregados no lo traen",
                optional=True,
                facet=True,
            ),
            fecha(description="fecha del valor; null en filas agregadas"),
            number("vcp", "valor de la cuotaparte; null = sin dato", unit="moneda del fondo por cuotaparte"),
            number("ccp", "cantidad de cuotapartes; null = sin dato", unit="cuotapartes"),
            number("patrimonio", "patrimonio del fondo; null = sin dato", unit="moneda del fondo"),
        ],
        **sourced("v1/finanzas/fci/{categoria}/{listado}", *CAFCI),
        partitions=[CATEGORIA_FCI, LISTADO_FCI],
        lookups=("categoria", "listado", "fondo", "horizonte"),
        # The listings as a whole: a fund that closes is no stopped series, and each fund's own dates
        # would cost a pass over 1.4 million rows.
        series=Series(DAILY, date="listado"),
        fts=("fondo",),
        routes=[
            Route(
                "/v1/finanzas/fci/{categoria}/{fecha}",
                [CATEGORIA_FCI, FECHA_FCI],
                where={"categoria": PathValue("categoria"), "listado": PathValue("fecha")},
                summary="Valores de los fondos de una categoría en una fecha",
            )
        ],
    ),
    Dataset(
        "fci_fondos",
        "Fondos comunes de inversión: ficha",
        "Ficha de cada fondo: administradora, rendimientos, honorarios; cartera, calificaciones y "
        "sociedades en tablas hijas. `slug` es el nombre normalizado de /v1/finanzas/fci/fondos/{nombre}.",
        [
            *fund_card_fields("fci_fondos", sociedad_tipos="gerente o depositaria", duracion_optional=True),
            text("duration", "duración (un fondo la publica con esta grafía en lugar de «duracion»)", optional=True),
        ],
        **sourced("v1/finanzas/fci/fondos", *CAFCI),
        envelope_list="fondos",
        derived={
            "slug": Computed(
                "nombre normalizado (minúsculas, sin tildes, con guiones); es el {nombre} de la ruta "
                "/v1/finanzas/fci/fondos/{nombre}",
                lambda r: slugify(r["nombre"]),
            )
        },
        fts=("nombre", "administradora"),
        routes=[
            Route("/v1/finanzas/fci/fondos", shape="envelope", summary="Fichas de todos los fondos"),
            by_path("/v1/finanzas/fci/fondos/{nombre}", NOMBRE_FONDO, "slug", "Ficha de un fondo", shape="one"),
        ],
    ),
    Dataset(
        "fci_fondos_historico",
        "Fondos comunes de inversión: histórico por fondo",
        "Serie diaria de un fondo: cuotaparte, patrimonio, retornos y flujo estimado.",
        [
            text("slug", "nombre normalizado del fondo"),
            text("fondoId", "id del fondo; null en datos heredados"),
            text("claseId", "id de la clase; null en datos heredados"),
            text("nombre", "nombre del fondo"),
            fecha(description="día"),
            text("categoria", "categoría", facet=True),
            text("categoriaKey", "categoría, como en las rutas /v1/finanzas/fci/{categoria}"),
            text("horizonte", "horizonte", facet=True),
            number("valorCuotaparte", "valor de la cuotaparte", unit="moneda del fondo"),
            number("patrimonio", "patrimonio", unit="moneda del fondo"),
            number("retornoDiario", "variación diaria de la cuotaparte; null = primer día", unit=PORCENTAJE),
            number("retornoAcumulado", "variación acumulada de la cuotaparte desde el primer día", unit=PORCENTAJE),
            number("flujoEstimado", "suscripciones menos rescates estimados; null = sin dato", unit="moneda del fondo"),
            text("origen", "origen del dato", facet=True),
        ],
        **sourced("v1/finanzas/fci/fondos/{slug}/historico", *CAFCI),
        partitions=[SLUG],
        envelope_list="historico",
        routes=[
            by_path(
                "/v1/finanzas/fci/fondos/{nombre}/historico",
                NOMBRE_FONDO,
                "slug",
                "Histórico de un fondo",
                shape="envelope",
            )
        ],
    ),
]

# A fund's currency, as units say it: a share of a peso fund is worth pesos (what ajustar converts).
_CURRENCY_UNITS = {"ARS": "pesos", "USD": "dólares", "USB": "dólares billete"}


def _in_currency(unit: Optional[str], moneda: Optional[str]) -> Optional[str]:
    """``unit`` («moneda del fondo por cuotaparte») in the fund's currency, when its listings say it."""
    if unit is None or moneda not in _CURRENCY_UNITS:
        return unit
    return unit.replace("moneda del fondo", _CURRENCY_UNITS[moneda])


# A fund's value on a day, once: the same fund and date appear in several listings (the day's own file,
# later files that repeat it, `ultimo` / `penultimo`, and a fund listed under two categories).
_SERIE_RULE = (
    "De los listados que traen el fondo en esa fecha gana el archivo de esa misma fecha; si ninguno, el archivo "
    "fechado más reciente; si tampoco, `ultimo` y después `penultimo`; entre categorías, la de menor id."
)
DERIVED_TABLES = [
    DerivedTable(
        "fci_serie",
        "Fondos comunes de inversión: serie diaria de cada fondo",
        "Una fila por fondo y fecha: el valor de la cuotaparte, las cuotapartes y el patrimonio del fondo ese día, "
        "tomados de fci_valores sin las repeticiones de sus listados. " + _SERIE_RULE + " "
        "Las filas agregadas (sin fecha) quedan fuera. Para la historia de un fondo: `WHERE fondo_id = ...`; "
        "para el ranking de un día: `WHERE fecha = ...`; ambas usan la clave primaria (fecha, fondo_id). "
        "La vista fci_serie_vista trae además el nombre del fondo y de la categoría. Los listados traen a veces "
        "valores muy viejos de un fondo (de 2010 a 2018 en un listado de 2024): la tabla calidad los señala "
        "(«valor viejo en un listado»). Cada categoría termina en su propia fecha: la última de retornoTotal viene "
        "de sus listados `ultimo` y `penultimo` y puede no ser la de las demás; para «el último día», tomar el "
        "último común a las categorías (la página de fci_serie_vista lo dice arriba).",
        [
            fecha(description="fecha del valor", nullable=False),
            integer("fondo_id", "el fondo (id en fci_valores_fondo, con su nombre)", nullable=False),
            integer("categoria_id", "categoría del fondo (id en fci_valores_categoria)", nullable=False),
            number("vcp", "valor de la cuotaparte; null = sin dato", unit="moneda del fondo por cuotaparte"),
            number("ccp", "cantidad de cuotapartes; null = sin dato", unit="cuotapartes"),
            number("patrimonio", "patrimonio del fondo; null = sin dato", unit="moneda del fondo"),
            text(
                "moneda",
                "moneda del fondo: ARS, USD (dólar) o USB (dólar billete), la de la fila «Moneda: ...» que encabeza "
                "al fondo en sus listados (la que más veces lo encabeza; coincide con la de su ficha en fci_fondos); "
                "null = ningún listado lo dice: los de retornoTotal no traen esas filas, y sus fondos quedan en null "
                "(su moneda hay que leerla en el nombre del fondo o en fci_fondos). vcp y patrimonio están en esta "
                "moneda: para sumar o comparar fondos, agrupar por ella",
                facet=True,
            ),
        ],
        key=("fecha", "fondo_id"),
        reads=("fci_valores", "fci_valores_listado"),
        series=Series(
            DAILY,
            by=("fondo_id",),
            values=("vcp", "ccp", "patrimonio"),
            attributes=("categoria_id", "moneda"),
            unit=lambda field, named: _in_currency(field.unit, named.get("moneda")),
            title="Fondo",
            route="/v1/finanzas/fci/{categoria}/{fecha}",
            report_late=False,
        ),
        # The last day of each category, its rows without moneda and the moneda facet read this index, not the
        # 1.3 million rows (the facet: 0.18 s instead of 2.8 s).  One index, not also (categoria_id, fecha): its
        # key ends in the table's (fecha, ...), so it finds a category's last day per moneda too (its CREATE INDEX
        # took 0.7 s CPU, timed alone on a loaded machine, and 27 MB; the pages as fast: web/paginas/__init__.py).
        indexes=[("moneda", "categoria_id")],
        references=(("fondo_id", "fci_valores_fondo"), ("categoria_id", "fci_valores_categoria")),
        origin=CAFCI[0],
        origin_url=CAFCI[1],
        sort=("fecha", "fondo_id"),
    ),
]
