"""What every theme of the catalogue writes with: units, origins, field constructors and the
templates of recurring dataset shapes (a date/value series, a yearly listing, a dated history)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional, Sequence

from argentina_datos.catalogo.esquema import (
    BOOLEAN,
    DATE_UNIT,
    INTEGER,
    JSON,
    LEVEL,
    NUMBER,
    TEXT,
    Children,
    Computed,
    Dataset,
    Field,
    Member,
    Obj,
    PathValue,
    Route,
    Series,
    Source,
    sourced,
)
from argentina_datos.catalogo.parametros import FECHA_ARCHIVO, LISTADO_AÑO, Param

LICENCIA = "MIT (ArgentinaDatos)"

UPSTREAM = "https://api.argentinadatos.com"

FRACCION = "fracción (0.25 = 25 %)"

PORCENTAJE = "porcentaje (2.1 = 2,1 %)"

FECHA_ISO = DATE_UNIT

BCRA = ("BCRA", "https://www.bcra.gob.ar/")

INDEC = ("INDEC", "https://www.indec.gob.ar/")

CAFCI = ("CAFCI", "https://www.cafci.org.ar/")


# ---- small constructors: the catalogue reads like a table of fields ----------
def text(name, description="", **kw):
    return Field(name, TEXT, description, **kw)


def integer(name, description="", unit=None, **kw):
    return Field(name, INTEGER, description, unit=unit, **kw)


def number(name, description="", unit=None, **kw):
    return Field(name, NUMBER, description, unit=unit, **kw)


def boolean(name, description="", **kw):
    return Field(name, BOOLEAN, description, **kw)


def json_value(name, description="", **kw):
    """A field holding any JSON (an object or a list kept whole), stored as JSON text."""
    return Field(name, JSON, description, **kw)


def fecha(name="fecha", description="fecha", **kw):
    return Field(name, TEXT, f"{description} ({FECHA_ISO})", unit=FECHA_ISO, **kw)


def twelve_month_window() -> list:
    """The envelope of upstream's counts over the last 12 months (``conteo-12m`` of each chamber)."""

    def month() -> list:
        return [integer("anio", "año"), integer("mes", "mes (1-12)")]

    return [
        integer("ventanaMeses", "meses contados (12)", unit="meses"),
        Obj("desde", month(), "primer mes contado"),
        Obj("hasta", month(), "último mes contado"),
        text("actualizado", "día en que upstream contó (AAAA-MM-DD)"),
    ]


def trip_counts(
    table: str, chamber: str, who: str, fields: list, route: str, origin: tuple, description: str
) -> list[Dataset]:
    """The two counts of trips upstream publishes per chamber as an object {id: count} under ``por<Who>``:
    of every trip (``route``, described by ``description``) and of the last 12 months (``route``-12m)."""
    key = f"{who}Id"
    counts: dict[str, Any] = dict(envelope_list="por" + who.capitalize(), keyed_by=key, unique=(key,))
    return [
        Dataset(
            table,
            f"{chamber}: viajes por {who} (total)",
            description,
            fields,
            **sourced(route, *origin),
            **counts,
            envelope_fields=[text("actualizado", "día en que upstream contó (AAAA-MM-DD)")],
            routes=[Route(f"/{route}", shape="envelope", summary=f"Viajes por {who}")],
        ),
        Dataset(
            f"{table}_12m",
            f"{chamber}: viajes por {who} (últimos 12 meses)",
            f"Como {table}, contando sólo los viajes de los 12 meses entre `desde` y `hasta` del envoltorio (año y mes).",
            fields,
            **sourced(f"{route}-12m", *origin),
            **counts,
            envelope_fields=twelve_month_window(),
            routes=[Route(f"/{route}-12m", shape="envelope", summary=f"Viajes por {who} en los últimos 12 meses")],
        ),
    ]


def entidad(description="entidad financiera", **kw):
    return text("entidad", description, facet=True, **kw)


# ---- templates of recurring dataset shapes ----------------------------------
def serie(
    table: str,
    title: str,
    description: str,
    *,
    route: str,
    valor: str,
    unit: str,
    origin: tuple[str, str],
    first: str = "fecha",
    frequency: Optional[str] = None,
    kind: str = LEVEL,
    late_after: Optional[int] = None,
    derived: Optional[dict[str, Computed]] = None,
    compounds: str = "",
) -> Dataset:
    """A date/value series: one file, one route.

    :param valor: the description of its `valor` field, in ``unit``
    :param origin: (publisher, URL) of the data
    :param first: the key upstream writes first (`fecha`, or `valor` for the series that do so)
    :param frequency: DAILY or MONTHLY: audited as a Series, and listed in the catalogue of series
    :param kind: what ``valor`` is (LEVEL, RATE, ANNUAL_RATE...)
    :param late_after: days after its last value before the series is late (default: by frequency)
    :param derived: columns computed from each record
    :param compounds: the table of the monthly rate whose 12 months this year-on-year rate compounds (Series)
    """
    valor_field = number("valor", valor, unit=unit)
    day = fecha(description="fecha del dato", nullable=False)
    fields = [day, valor_field] if first == "fecha" else [valor_field, day]
    return Dataset(
        table,
        title,
        description,
        fields,
        [Source(route)],
        origin=origin[0],
        origin_url=origin[1],
        unique=("fecha",),
        routes=[Route("/" + route, summary=title)],
        sort=("fecha",),
        series=Series(frequency, values=("valor",), kinds={"valor": kind}, late_after=late_after, compounds=compounds)
        if frequency
        else None,
        derived=derived or {},
    )


def _children_renamed(members, old: str, new: str) -> list:
    """The same fields with each child table of ``old`` named after ``new`` (their own tables)."""
    out = []
    for m in members:
        if isinstance(m, Children):
            m = replace(m, table=new + m.table.removeprefix(old), fields=_children_renamed(m.fields, old, new))
        elif isinstance(m, Obj):
            m = replace(m, fields=_children_renamed(m.fields, old, new))
        out.append(m)
    return out


def history(base: Dataset, *, title: str, fields=None, table: str = "", series: Optional[Series] = None) -> Dataset:
    """The dated versions of ``base``, a dataset upstream only publishes as "latest": one per day
    (the last of the day), derived from the versions store (construccion/historia.py); ``series``: the series
    its versions make (a bank's rate on each day we hold), for the catalogue of series."""
    route = base.sources[0].route
    table = table or base.table + "_historico"
    fields = fields if fields is not None else _children_renamed(base.fields, base.table, table)
    return Dataset(
        table,
        title,
        f"Versiones de /{route}, una por fecha (la última de cada día), tomadas de la tabla versiones: las del "
        f"archivo de versiones pasadas y del paquete de versiones, las que guardaron las construcciones anteriores de "
        f"esta base y la que publica hoy upstream, fechada por su propia fecha de actualización, si no por el "
        f"Last-Modified HTTP y si no por el día de la construcción. `fecha` es la fecha de la versión; "
        f"/{route}?publicado=AAAA-MM-DD responde la versión vigente ese día.",
        fields,
        [Source(route + "/{fecha}", history=True)],
        origin=base.origin,
        origin_url=base.origin_url,
        partitions=[FECHA_ARCHIVO],
        envelope_list=base.envelope_list,
        sort=("fecha",),
        versions_of=base.table,
        derived=base.derived,
        series=series,
    )


def por_año(
    table: str,
    title: str,
    description: str,
    *,
    route: str,
    fields: Sequence[Member],
    año: Param,
    what: str,
    origin: tuple[str, str],
) -> Dataset:
    """A dataset published once per year (``route/{año}``) plus the current year at ``route``.

    :param año: the year parameter of ``route/{año}``, with its bounds
    :param what: what a file holds, for the routes' summaries ("Feriados")
    :param origin: (publisher, URL) of the data
    """
    return Dataset(
        table,
        title,
        description,
        fields,
        [Source(route + "/{listado}"), Source(route, fixed={"listado": "actual"})],
        origin=origin[0],
        origin_url=origin[1],
        partitions=[LISTADO_AÑO],
        routes=[
            Route("/" + route, where={"listado": "actual"}, summary=f"{what} del año en curso"),
            Route(f"/{route}/{{año}}", [año], where={"listado": PathValue(text="{año}")}, summary=f"{what} de un año"),
        ],
    )


# ---- one unit where a source mixes scales ----------------------------------------------------------
def as_fraction(name: str, percent_above: float) -> Computed:
    """The column ``name`` always as a fraction, for a source that publishes it as a fraction some days and
    as a percentage others.  The one rule, for every such column: a value greater than ``percent_above``
    (chosen per column, above every fraction the source has published) is a percentage, divided by 100."""

    def compute(record: dict):
        value = record[name]
        if type(value) not in (int, float):
            return None
        return value / 100 if value > percent_above else float(value)

    return Computed(
        f"«{name}» siempre como fracción (0.25 = 25 %): la fuente lo publica a veces como fracción y a veces como "
        f"porcentaje; un valor mayor que {percent_above:g} se toma como porcentaje y se divide por 100",
        compute,
        kind=NUMBER,
    )


def per_unit(name: str, per: dict[str, tuple[str, float]]) -> Computed:
    """The price ``name`` always for one unit of the currency, for a source that quoted some currency per
    ``n`` units until a date: ``per`` maps the currency (``moneda``) to (the first day quoted per unit,
    ``n``); before that day the value is divided by ``n``."""

    def compute(record: dict):
        value = record[name]
        if type(value) not in (int, float):
            return None
        since, units = per.get(str(record.get("moneda")), ("", 1.0))
        fecha = record.get("fecha")
        return value / units if isinstance(fecha, str) and fecha < since else float(value)

    rules = "; ".join(
        f"{m} hasta el día anterior al {since} se publicaba por {units:g} unidades" for m, (since, units) in per.items()
    )
    return Computed(
        f"«{name}» siempre en pesos por una unidad de la moneda ({rules}: acá ya dividido)",
        compute,
        kind=NUMBER,
    )
