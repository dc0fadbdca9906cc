"""What every theme of the catalogue writes with: units, origins, field constructors and the
templates of recurring dataset shapes (a date/value series, a yearly listing, a dated history)."""
from __future__ import annotations

from ..esquema import BOOLEAN, DATE_UNIT, INTEGER, JSON, NUMBER, TEXT, Dataset, Field, Route, Source
from ..parametros import FECHA_ARCHIVO, LISTADO_AÑO

LICENCIA = "MIT (ArgentinaDatos)"

UPSTREAM = "https://api.argentinadatos.com"

FRACCION = "fracción (0.25 = 25 %)"

PORCENTAJE = "porcentaje (2.1 = 2,1 %)"

FECHA_ISO = DATE_UNIT

BCRA = ("BCRA", "https://www.bcra.gob.ar/")

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

def json(name, description="", **kw):
    return Field(name, JSON, description, **kw)

def fecha(name="fecha", description="fecha", **kw):
    return Field(name, TEXT, f"{description} ({FECHA_ISO})", unit=FECHA_ISO, **kw)

def entidad(description="entidad financiera", **kw):
    return text("entidad", description, facet=True, **kw)


# ---- templates of recurring dataset shapes ----------------------------------
def serie(table, title, description, route, unit, origin, origin_url, valor_desc, first="fecha"):
    """A date/value series: one file, one route."""
    valor = number("valor", valor_desc, unit=unit)
    day = fecha(description="fecha del dato", nullable=False)
    fields = [day, valor] if first == "fecha" else [valor, day]
    return Dataset(
        table, title, description, fields, [Source(route)], origin=origin, origin_url=origin_url,
        unique=("fecha",), routes=[Route("/" + route, summary=title)], sort=("fecha",),
    )

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
