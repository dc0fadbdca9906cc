"""Wallets and crypto platforms: yields, wallet funds (other and variable-rate), fund comparison."""

from __future__ import annotations

import re

from argentina_datos.catalogo.campos import CAFCI, FRACCION, PORCENTAJE, UPSTREAM, entidad, fecha, number, text
from argentina_datos.catalogo.esquema import (
    ANNUAL_RATE,
    DAILY,
    Children,
    Dataset,
    Derivation,
    PathValue,
    Route,
    Series,
    sourced,
)
from argentina_datos.catalogo.fci import fund_card_fields
from argentina_datos.catalogo.parametros import Param
from argentina_datos.catalogo.slug import slugify

COMPARATASAS = "https://comparatasas.ar/"
NOMBRE = r"[a-z0-9]+(?:-[a-z0-9]+)*"
# The wallet funds' «ultimo» and «penultimo» are listings of their own, published where the entities are.
NOMBRE_SIN_LISTADOS = r"(?!(?:pen)?ultimo$)" + NOMBRE
LISTADOS = ("ultimo", "penultimo")


# ---- how an HTTP source lists the files -------------------------------------------
def _yield_entities(source) -> list[str]:
    """The platforms of /v1/finanzas/rendimientos: upstream publishes a file for each."""
    lista = source.get_json("v1/finanzas/rendimientos") or []
    nombres = [e.get("entidad") for e in lista if isinstance(e, dict)]
    return list(dict.fromkeys(n for n in nombres if isinstance(n, str) and re.fullmatch(NOMBRE, n)))


def _funds_in_listings(ruta: str, clave: str, conocidos: tuple[str, ...] = ()):
    """The funds named (``clave``) in the listings ultimo and penultimo of ``ruta``, as the slugs of their
    files, plus ``conocidos``: funds upstream still publishes a file of but no longer lists."""

    def values(source) -> list[str]:
        nombres = list(conocidos)
        for listado in LISTADOS:
            registros = source.get_json(f"{ruta}/{listado}") or []
            nombres += [slugify(r[clave]) for r in registros if isinstance(r, dict) and isinstance(r.get(clave), str)]
        return list(dict.fromkeys(n for n in nombres if re.fullmatch(NOMBRE_SIN_LISTADOS, n)))

    return values


ENTIDAD_RENDIMIENTOS = Param(
    "entidad",
    NOMBRE,
    description="plataforma, en minúsculas, como en /v1/finanzas/rendimientos (belo, nexo, ...)",
    example="belo",
    http_values=_yield_entities,
)
ENTIDAD_OTROS = Param(
    "entidad",
    NOMBRE_SIN_LISTADOS,
    description="cuenta o billetera: su nombre en /v1/finanzas/fci/otros/ultimo, en minúsculas y con guiones "
    "(naranja-x, uala-plus-1, ...)",
    example="belo",
    http_values=_funds_in_listings("v1/finanzas/fci/otros", "fondo", ("uala-plus",)),
)
ENTIDAD_VARIABLES = Param(
    "entidad",
    NOMBRE_SIN_LISTADOS,
    description="billetera: su nombre en /v1/finanzas/fci/variables/ultimo, en minúsculas (global66)",
    example="global66",
    http_values=_funds_in_listings("v1/finanzas/fci/variables", "nombre"),
)
LISTADO = Param(
    "listado",
    "|".join(LISTADOS),
    description="listado: ultimo o penultimo",
    choices=LISTADOS,
    http_values=lambda source: list(LISTADOS),
)


# ---- fields ------------------------------------------------------------------------
def rendimiento_fields() -> list:
    return [
        text("moneda", "moneda o token (ARS, USD, BTC, USDT, ...)", facet=True),
        number(
            "apy", "rendimiento anual (APY) que paga la plataforma por tener la moneda; 0 = no paga", unit=PORCENTAJE
        ),
        fecha(description="fecha del dato (una moneda que la plataforma dejó de actualizar conserva una fecha vieja)"),
        number(
            "bonusValue",
            "tasa anual bonificada para saldos de hasta bonusThreshold; 0 = sin bonificación "
            "(sólo algunas plataformas la publican)",
            unit=PORCENTAJE,
            optional=True,
        ),
        number(
            "bonusThreshold",
            "saldo máximo que recibe la tasa bonificada; null = sin bonificación",
            unit="unidades de la moneda",
            optional=True,
        ),
    ]


def tasa_fields() -> list:
    """The rate of a remunerated account or wallet fund, as its wallet publishes it."""
    return [
        number("tna", "tasa nominal anual", unit=FRACCION),
        number("tea", "tasa efectiva anual", unit=FRACCION),
        number("tope", "saldo máximo que remunera a esa tasa; null = sin tope", unit="pesos"),
        fecha(description="fecha desde la que rige la tasa"),
        text("condiciones", "condiciones de la oferta; null = ninguna"),
        text("condicionesCorto", "condiciones, versión corta; null = ninguna"),
    ]


FONDO_OTROS = text("fondo", "cuenta o billetera, en mayúsculas (BELO, NARANJA X, ...)", facet=True)
TASA_VARIABLE = {f.name: f for f in tasa_fields()}
NOMBRE_VARIABLE = text("nombre", "billetera, en mayúsculas (GLOBAL66)", facet=True)
FONDO_VARIABLE = text("fondo", "fondo común de inversión en que invierte la billetera, con su clase", facet=True)
TIPO_VARIABLE = text("tipo", "tipo de producto (billetera); null = sin dato", facet=True)


def variable_fields(order: tuple[str, ...]) -> list:
    """A variable-rate wallet fund: its wallet, the fund behind it and its rate.  The listings ultimo and
    penultimo publish the same keys as the wallet's history in another order, kept as published."""
    own = {"nombre": NOMBRE_VARIABLE, "fondo": FONDO_VARIABLE, "tipo": TIPO_VARIABLE}
    return [own.get(name) or TASA_VARIABLE[name] for name in order]


HISTORIA_VARIABLE = ("nombre", "fondo", "tna", "tipo", "tea", "tope", "fecha", "condiciones", "condicionesCorto")
LISTADO_VARIABLE = ("nombre", "fondo", "tipo", "tna", "tea", "tope", "fecha", "condiciones", "condicionesCorto")


DE_LA_ENTIDAD = {"entidad": PathValue("entidad")}


def _wallet_rates(route: str, title: str) -> Series:
    """The yearly rates of each account or wallet, over the dates it published them, for the catalogue of series
    (not audited as a daily series: a wallet publishes a rate when it changes it)."""
    return Series(
        DAILY,
        by=("entidad",),
        values=("tna", "tea"),
        kinds={"tna": ANNUAL_RATE, "tea": ANNUAL_RATE},
        route=route,
        title=title,
        report_late=False,
        audited=False,
    )


FECHA_ACTUALIZACION = text("fechaActualizacion", "cuándo upstream leyó los datos (ISO 8601, UTC)")

DATASETS: list[Dataset] = [
    Dataset(
        "rendimientos",
        "Rendimientos de plataformas cripto y billeteras",
        "Rendimiento anual (APY) que paga cada plataforma (exchange o billetera) por mantener cada moneda, tal "
        "como lo publica /v1/finanzas/rendimientos; las monedas de cada plataforma están en rendimientos_monedas. "
        "Las rutas /v1/finanzas/rendimientos/{entidad} son la lista de monedas de una plataforma.",
        [
            entidad("plataforma, en minúsculas (el {entidad} de /v1/finanzas/rendimientos/{entidad})"),
            Children("rendimientos", "rendimientos_monedas", rendimiento_fields(), "rendimiento de cada moneda"),
        ],
        **sourced("v1/finanzas/rendimientos", "Plataformas cripto y billeteras (páginas propias)", UPSTREAM),
        unique=("entidad",),
        routes=[Route("/v1/finanzas/rendimientos", summary="Rendimientos de todas las plataformas")],
    ),
    Dataset(
        "rendimientos_entidad",
        "Rendimientos: archivos por plataforma",
        "Los archivos por plataforma que upstream publica (/v1/finanzas/rendimientos/{entidad}). Son la lista de "
        "monedas de esa plataforma en /v1/finanzas/rendimientos, salvo que algunos no traen `bonusValue` ni "
        "`bonusThreshold` (fiwind): se guardan tal cual. La ruta responde cualquier plataforma de la lista: con su "
        "archivo si upstream lo publica, si no con sus monedas de rendimientos_monedas. `entidad` es la del archivo.",
        rendimiento_fields(),
        **sourced("v1/finanzas/rendimientos/{entidad}", "Plataformas cripto y billeteras (páginas propias)", UPSTREAM),
        partitions=[ENTIDAD_RENDIMIENTOS],
        routes=[
            Route(
                "/v1/finanzas/rendimientos/{entidad}",
                [ENTIDAD_RENDIMIENTOS],
                where=DE_LA_ENTIDAD,
                derive=Derivation("rendimientos", DE_LA_ENTIDAD, member="rendimientos"),
                summary="Rendimientos de una plataforma",
            )
        ],
    ),
    Dataset(
        "fci_otros",
        "Cuentas remuneradas y billeteras: historia de la tasa",
        "Tasa de cada cuenta remunerada o fondo de billetera (Belo, BNA, Naranja X, Ualá, ...), una fila por "
        "tasa publicada, en el orden de /v1/finanzas/fci/otros/{entidad} (por fecha). `entidad` es el nombre del "
        "archivo. El último y el penúltimo dato de cada una están en fci_otros_listados.",
        tasa_fields(),
        **sourced("v1/finanzas/fci/otros/{entidad}", "Bancos y billeteras (páginas propias)", COMPARATASAS),
        partitions=[ENTIDAD_OTROS],
        indexes=[("entidad", "fecha")],
        sort=("fecha",),
        series=_wallet_rates("/v1/finanzas/fci/otros/{entidad}", "Cuenta remunerada o billetera"),
        routes=[
            Route(
                "/v1/finanzas/fci/otros/{entidad}",
                [ENTIDAD_OTROS],
                where=DE_LA_ENTIDAD,
                summary="Historia de la tasa de una cuenta o billetera",
            )
        ],
    ),
    Dataset(
        "fci_otros_listados",
        "Cuentas remuneradas y billeteras: último y penúltimo dato",
        "Los listados /v1/finanzas/fci/otros/ultimo y /penultimo (`listado`): la última y la penúltima tasa de "
        "cada cuenta o billetera (las de su archivo en fci_otros), nombrada en `fondo`. Una billetera que upstream "
        "ya no lista conserva su archivo (uala-plus) pero no figura aquí.",
        [FONDO_OTROS, *tasa_fields()],
        **sourced("v1/finanzas/fci/otros/{listado}", "Bancos y billeteras (páginas propias)", COMPARATASAS),
        partitions=[LISTADO],
        routes=[
            Route(
                f"/v1/finanzas/fci/otros/{listado}",
                where={"listado": listado},
                summary=f"{titulo} tasa de cada cuenta o billetera",
            )
            for listado, titulo in (("ultimo", "Última"), ("penultimo", "Penúltima"))
        ],
    ),
    Dataset(
        "fci_variables",
        "Billeteras con rendimiento variable: historia",
        "Rendimiento de las billeteras que invierten el saldo en un fondo común de inversión (Global66), una fila "
        "por dato publicado, en el orden de /v1/finanzas/fci/variables/{entidad}. `entidad` es el nombre del "
        "archivo. El último y el penúltimo dato están en fci_variables_listados.",
        variable_fields(HISTORIA_VARIABLE),
        **sourced("v1/finanzas/fci/variables/{entidad}", "Billeteras (páginas propias)", COMPARATASAS),
        partitions=[ENTIDAD_VARIABLES],
        indexes=[("entidad", "fecha")],
        sort=("fecha",),
        series=_wallet_rates("/v1/finanzas/fci/variables/{entidad}", "Billetera con rendimiento variable"),
        routes=[
            Route(
                "/v1/finanzas/fci/variables/{entidad}",
                [ENTIDAD_VARIABLES],
                where=DE_LA_ENTIDAD,
                summary="Historia del rendimiento de una billetera",
            )
        ],
    ),
    Dataset(
        "fci_variables_listados",
        "Billeteras con rendimiento variable: último y penúltimo dato",
        "Los listados /v1/finanzas/fci/variables/ultimo y /penultimo (`listado`): el último y el penúltimo dato "
        "de cada billetera. Son los dos últimos registros de su archivo (fci_variables) con las claves en otro "
        "orden (`tipo` antes de `tna`), que se conserva.",
        variable_fields(LISTADO_VARIABLE),
        **sourced("v1/finanzas/fci/variables/{listado}", "Billeteras (páginas propias)", COMPARATASAS),
        partitions=[LISTADO],
        routes=[
            Route(
                f"/v1/finanzas/fci/variables/{listado}",
                where={"listado": listado},
                summary=f"{titulo} rendimiento de cada billetera",
            )
            for listado, titulo in (("ultimo", "Último"), ("penultimo", "Penúltimo"))
        ],
    ),
    Dataset(
        "fci_comparatasas",
        "Fondos comunes de inversión: comparador de tasas",
        "Las fichas de los fondos que compara /v1/finanzas/fci/comparatasas (de CAFCI): administradora, "
        "patrimonio, cuotapartes, rendimientos y honorarios; cartera, calificaciones y sociedades en "
        "fci_comparatasas_composicion_cartera, fci_comparatasas_calificaciones y fci_comparatasas_sociedades. "
        "El espejo trae un subconjunto (8 fondos) del archivo de upstream.",
        fund_card_fields("fci_comparatasas", sociedad_tipos="Administradora o Depositaria", cantidad_cuotapartes=True),
        **sourced("v1/finanzas/fci/comparatasas", *CAFCI),
        envelope_list="fondos",
        envelope_fields=[FECHA_ACTUALIZACION],
        fts=("nombre", "administradora"),
        routes=[Route("/v1/finanzas/fci/comparatasas", shape="envelope", summary="Comparador de fondos")],
    ),
]
