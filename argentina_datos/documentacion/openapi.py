"""The OpenAPI 3 document of /v1, generated from the catalogue and the router.

``python -m argentina_datos.documentacion.openapi`` prints the document; ``--markdown`` prints the route
table that docs/api.md carries between its markers (tests/test_openapi.py checks that it is current).
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from functools import lru_cache
from typing import Any, Optional, Sequence

import orjson

from argentina_datos import __version__
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.esquema import INTEGER, JSON, KINDS, OPENAPI_TYPES, Field, Obj
from argentina_datos.catalogo.series import LAST_CURRENCY_CHANGE, NAMING_FIELDS, THEMES_WITH_SERIES
from argentina_datos.respuestas import consulta
from argentina_datos.respuestas.catalogo_series import DAYS, MAX_PAGE, PAGE
from argentina_datos.respuestas.consulta import XLSX_TYPE, Answers, QueryParam
from argentina_datos.respuestas.responder import fill_path
from argentina_datos.respuestas.rutas import OPENAPI_PATH as OPENAPI_PATH, Router

# The documentation page that carries the route table of --markdown, between these two markers.
ROUTE_TABLE_PAGE = "docs/api.md"
ROUTE_TABLE_MARKERS = ("<!-- rutas:inicio -->\n", "<!-- rutas:fin -->")
# ... and the table of query parameters of --parametros (respuestas/consulta.py's PARAMETERS).
PARAMETER_TABLE_MARKERS = ("<!-- parametros:inicio -->\n", "<!-- parametros:fin -->")

ERROR_SCHEMA = {
    "type": "object",
    "description": "Toda respuesta de error bajo /v1 tiene esta forma.",
    "required": ["status", "error", "mensaje", "parametro"],
    "additionalProperties": False,
    "properties": {
        "status": {
            "type": "integer",
            "description": "código HTTP",
            "enum": [400, 404, 405, 414, 431, 500],
            "example": 404,
        },
        "error": {"type": "string", "description": "nombre del código HTTP", "example": "Not Found"},
        "mensaje": {"type": "string", "description": "qué estuvo mal, en castellano"},
        "parametro": {
            "type": "string",
            "nullable": True,
            "description": "el parámetro culpable, de la ruta (año, mes, casa, fecha, categoria, nombre, "
            "id) o de la consulta (desde, agrupar...); null si la ruta no existe o el error no es de un parámetro",
        },
    },
    "example": {"status": 404, "error": "Not Found", "mensaje": "«año» va de 2016 a 2027", "parametro": "año"},
}

# The error answers shared by every operation, referenced from each one.
ERROR_RESPONSES = {
    "MalFormado": ("400", "un parámetro de consulta (desde, hasta, agrupar...) mal formado o que no aplica a la ruta"),
    "SinDatos": (
        "404",
        "upstream no publica un archivo en esa ruta: la ruta no existe, un valor de la ruta está mal formado "
        "o fuera de sus límites (una casa desconocida, un año fuera de rango, una fecha que no existe), "
        "o está bien formado y no hay datos (una fecha sin cotización, un año sin archivo); el mensaje dice por qué",
    ),
    "RutaLarga": ("414", "la ruta es demasiado larga para ser una ruta de la API"),
    "EncabezadosGrandes": ("431", "los encabezados del pedido pasan de 32 KB o de 100"),
}
ENVELOPE_FIELDS = {
    "fechaActualizacion": {"type": "string", "description": "cuándo upstream actualizó los datos (ISO 8601)"},
}
DESCRIPTION = """Réplica de sólo lectura de la API pública de ArgentinaDatos, servida desde SQLite. Las \
respuestas 200 son idénticas a las de upstream.

Errores: todo error es JSON con el esquema `Error` (`status`, `error`, `mensaje`, `parametro`).
404 = todo lo que upstream no publica como archivo: ruta desconocida, un valor de la ruta mal formado o \
fuera de sus límites (el mensaje dice por qué y `parametro` cuál), o bien formado sin datos; 400 = un \
parámetro de consulta propio (`desde`, `agrupar`...) mal formado o que no aplica a la ruta; 405 = un método distinto de GET, HEAD u OPTIONS; 414 = ruta \
demasiado larga; 431 = encabezados demasiado grandes; un pedido HTTP mal formado también recibe un 400 \
con esta forma.

Los límites de cada parámetro son exactamente los que acepta el servidor: las fechas son fechas del \
calendario, los años tienen cuatro cifras y el máximo de un año es el de la especificación o, si es \
posterior, el último año con datos (p. ej. /v1/feriados/2027). `casa` acepta `turista` (el nombre de la especificación) y `tarjeta` \
(el de los datos) y ambas devuelven los mismos registros, con `casa` = `tarjeta`.

HTTP: `Access-Control-Allow-Origin: *` y el preflight CORS (204, permite los encabezados pedidos), `ETag` + \
`If-None-Match` (304), `Last-Modified` + `If-Modified-Since` (304), `Cache-Control`, gzip con \
`Accept-Encoding: gzip`, HEAD; `/v1/<ruta>/index.json` es `/v1/<ruta>`."""
# What only a server (not the static tree) has, for a language model
AGENTS_NOTE = """

Para un modelo de lenguaje: `/llms.txt` resume las rutas, los parámetros y las series, y `/-/mcp` es un \
servidor MCP (Streamable HTTP) con herramientas de sólo lectura (`consultar_api`, `buscar_series`, \
`datos_series`, `execute_sql`)."""


def _member_schema(m) -> dict:
    if isinstance(m, Field):
        schema: dict[str, Any]
        if m.kind == JSON:
            schema = {"nullable": True}
        else:
            schema = {"type": OPENAPI_TYPES[m.kind]}
            if m.nullable:
                schema["nullable"] = True
        desc = m.description + (f" [{m.unit}]" if m.unit else "")
        if desc:
            schema["description"] = desc
        return schema
    if isinstance(m, Obj):
        return _object_schema(m.fields, m.description)
    return {"type": "array", "items": _object_schema(m.fields), "description": m.description}


def _object_schema(members, description: str = "") -> dict:
    schema = {
        "type": "object",
        "properties": {m.name: _member_schema(m) for m in members},
        "required": [m.name for m in members if not m.optional],
    }
    if description:
        schema["description"] = description
    return schema


def record_schema(table: str) -> dict:
    ds = BY_TABLE[table]
    if ds.scalar_records:
        return {"type": "string", "description": ds.fields[0].description}
    schema = _object_schema(ds.fields, ds.description)
    if any(m.name == "fecha" for m in ds.fields):
        # agrupar=...&funcion=promedio averages integer fields too: the record may then carry a decimal.
        for m in ds.fields:
            if isinstance(m, Field) and m.kind == INTEGER:
                schema["properties"][m.name]["type"] = "number"
                schema["properties"][m.name]["description"] = (
                    schema["properties"][m.name].get("description", "") + " (entero; promediado con agrupar, decimal)"
                ).strip()
    schema["title"] = ds.title
    return schema


def _ref(table: str) -> dict:
    return {"$ref": f"#/components/schemas/{table}"}


def _list_of(table: str) -> dict:
    return {"type": "array", "items": _ref(table)}


def _keyed_by(ds) -> dict:
    """An object of records keyed by id: each value is the record without its key field."""
    return {
        "type": "object",
        "description": f"un registro por {ds.keyed_by}, con el {ds.keyed_by} como clave",
        "additionalProperties": _object_schema([m for m in ds.fields if m.name != ds.keyed_by]),
    }


def _past_or_present(schema: dict) -> dict:
    """A route with stored versions: with ?publicado= it answers a past version exactly as upstream published it,
    whose records may lack fields added since (fci/otros/ultimo before «condiciones»): only its shape is known."""
    kind = "array" if schema.get("type") == "array" else "object"
    said = "con ?publicado=: la versión de ese día tal como la publicó upstream, con los campos de entonces"
    if kind == "array":  # a list with versions also takes primera and todas (respuestas/consulta.py)
        said += (
            "; en una lista con versiones propias, con publicado=primera, cada registro como se publicó por primera vez, "
            "con `publicado` (ese día); con todas, cada valor que tuvo, con `publicadoDesde` y `publicadoHasta` (null: "
            "sigue vigente)"
        )
    past = {"type": kind, "description": said}
    return {"anyOf": [schema, past]}


def _response_schema(endpoint) -> dict:
    tables = endpoint.datasets
    if endpoint.shape == "list":
        return _list_of(tables[0])
    if endpoint.shape in ("one", "last"):
        return _ref(tables[0])
    if endpoint.shape == "envelope":
        ds = BY_TABLE[tables[0]]
        # Some envelopes add their own fields (the fund history names the fund): allowed, not listed.
        records = _keyed_by(ds) if ds.keyed_by else _list_of(tables[0])
        if ds.envelope_fields:
            own = {m.name: _member_schema(m) for m in ds.envelope_fields}
            return {
                "type": "object",
                "additionalProperties": False,
                "description": f"los campos del envoltorio publicado y «{ds.envelope_list}»",
                "properties": {**own, ds.envelope_list: records},
                "required": [*(m.name for m in ds.envelope_fields if not m.optional), ds.envelope_list],
            }
        return {
            "type": "object",
            "additionalProperties": True,
            "description": f"fechaActualizacion, los demás campos del envoltorio publicado y la lista "
            f"«{ds.envelope_list}»",
            "properties": {**ENVELOPE_FIELDS, ds.envelope_list: records},
            "required": [*ENVELOPE_FIELDS, ds.envelope_list],
        }
    if endpoint.combination is not None:
        combination = endpoint.combination
        params = {p.name: p for p in combination.params}
        props = {m.name: _member_schema(m) for m in combination.envelope_fields}
        props.update(
            {
                key: {"type": "string", "description": f"el {param} pedido: {params[param].description}"}
                for key, param in combination.head.items()
            }
        )
        props.update({_envelope_list(t): _list_of(t) for t in tables})
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
    raise ValueError(f"forma de respuesta desconocida: {endpoint.shape}")


# A calendar date as a regex, so that the document rejects 2025/02/30 like the server does.
_YEAR = r"(?:000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})"  # 0001-9999, as datetime.date
# Divisible by 4 but not by 100 (0004 ... 9996), or by 400 (0400 ... 9600; year 0000 does not exist).
_LEAP_YEAR = r"(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][48]|[13579][26]|[2468]0)00)"
_DATE_IN_PATTERN = re.compile(r"\[0-9\]\{4\}([-/])\[0-9\]\{2\}\1\[0-9\]\{2\}")


def calendar_date_regex(sep: str) -> str:
    day = {31: "(?:0[1-9]|[12][0-9]|3[01])", 30: "(?:0[1-9]|[12][0-9]|30)", 28: "(?:0[1-9]|1[0-9]|2[0-8])"}
    return (
        f"(?:{_YEAR}{sep}(?:(?:0[13578]|1[02]){sep}{day[31]}|(?:0[469]|11){sep}{day[30]}|02{sep}{day[28]})"
        f"|{_LEAP_YEAR}{sep}02{sep}29)"
    )


def _pattern(p) -> str:
    if not p.calendar:
        return p.pattern
    pattern, n = _DATE_IN_PATTERN.subn(lambda m: calendar_date_regex(m.group(1)), p.pattern)
    if n == 0:
        raise ValueError(f"«{p.name}» es una fecha del calendario pero su patrón no tiene AAAA/MM/DD: {p.pattern}")
    return pattern


def _digits_maximum(p) -> Optional[int]:
    """The largest integer the parameter's pattern lets through (four digits: 9999)."""
    m = re.fullmatch(r"\[0-9\]\{(\d+)\}", p.pattern)
    return 10 ** int(m.group(1)) - 1 if m else None


def _envelope_list(table: str) -> str:
    name = BY_TABLE[table].envelope_list
    assert name, f"{table}: una respuesta con envoltorio necesita envelope_list"
    return name


def _parameter(p, served_maximum: Optional[int] = None) -> dict:
    integer = p.kind == INTEGER
    schema: dict[str, Any] = {"type": "integer" if integer else "string"}
    if p.choices:
        schema["enum"] = list(p.choices)
    if not integer:
        schema["pattern"] = f"^(?:{_pattern(p)})$"
    if p.minimum is not None:
        schema["minimum"] = p.minimum
    description = p.description
    if p.bounds(served_maximum):
        description += f", {p.bounds(served_maximum)}"
    if p.maximum is not None:
        schema["maximum"] = served_maximum if served_maximum is not None else p.maximum
        description += (
            f". {p.maximum} es el máximo de la especificación; un año posterior se sirve si hay "
            f"datos hasta él: el máximo declarado es el último año servido (uno mayor es un 404)"
        )
    elif integer and _digits_maximum(p) is not None:
        schema["maximum"] = _digits_maximum(p)
    if "/" in p.pattern:
        description += ". Las barras van tal cual o codificadas como %2F"
    out = {"name": p.name, "in": "path", "required": True, "description": description, "schema": schema}
    if p.example:
        out["example"] = int(p.example) if integer else p.example
    return out


def _operation_id(path: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", unicodedata.normalize("NFKD", path).encode("ascii", "ignore").decode())
    return "get" + "".join(w[0].upper() + w[1:] for w in words[1:])


def _operation(
    summary: str,
    description: str,
    params,
    ok_schema: dict,
    tag: str,
    path: str,
    maxima: Optional[dict] = None,
    query: Sequence[dict] = (),
) -> dict:
    content = {"application/json": {"schema": ok_schema}}
    if query:
        content["text/csv"] = {"schema": {"type": "string", "description": "con formato=csv"}}
        content[XLSX_TYPE] = {"schema": {"type": "string", "format": "binary", "description": "con formato=xlsx"}}
    if any(q["name"] == "formato" and "ics" in q["schema"]["enum"] for q in query):
        content["text/calendar"] = {"schema": {"type": "string", "description": "con formato=ics"}}
    responses = {"200": {"description": "OK", "content": content}}
    for name, (status, _) in ERROR_RESPONSES.items():
        if status != "400" or query:
            responses[status] = {"$ref": f"#/components/responses/{name}"}
    return {
        "get": {
            "summary": summary,
            "description": description,
            "tags": [tag],
            "operationId": _operation_id(path),
            "parameters": [_parameter(p, (maxima or {}).get((path, p.name))) for p in params] + list(query),
            "responses": responses,
        }
    }


def _query(name: str, description: str, schema: dict, example: Any) -> dict:
    return {
        "name": name,
        "in": "query",
        "required": False,
        "description": description,
        "schema": schema,
        "example": example,
    }


# ---- the query parameters, from respuestas/consulta.py's table ------------------------------
def _value_schema(p: QueryParam, answers: Answers) -> dict:
    if p.form == "fecha":
        words = "".join(f"|{c}" for c in p.choices if p.offers(answers, c))  # publicado=primera|todas, beside a day
        return {"type": "string", "pattern": f"^(?:{calendar_date_regex('-')}{words})$"}
    if p.form == "periodo":  # a day, a month or a year
        return {"type": "string", "pattern": f"^(?:{calendar_date_regex('-')}|{_YEAR}(?:-(?:0[1-9]|1[0-2]))?)$"}
    if p.form == "mes":
        return {"$ref": "#/components/schemas/MesIPC"}
    if p.form == "prefijo":  # a day (also as in the paths, AAAA/MM/DD), a month or a year
        day, slashed = calendar_date_regex("-"), calendar_date_regex("/")
        return {"type": "string", "pattern": f"^(?:{day}|{slashed}|[0-9]{{4}}-(?:0[1-9]|1[0-2])|[0-9]{{4}})$"}
    return {"type": "string", "enum": [v for v in p.choices if p.offers(answers, v)]}


def _object_parameter(name: str, members: list[QueryParam], answers: Answers) -> dict:
    """Parameters that go together (agrupar with funcion) as one object parameter, exploded into the query
    string (agrupar=mes&funcion=maximo): the only way OpenAPI 3.0 says that funcion goes with agrupar."""
    first = members[0]
    properties = {m.name: _value_schema(m, answers) for m in members}
    schema: dict[str, Any] = {"type": "object", "required": [first.name], "properties": properties}
    conditional = next((m for m in members if m.needs is not None and m.needs[1] is not None), None)
    if conditional is not None and conditional.needs is not None:  # base only with ajustar=ipc: two shapes
        other, value, _ = conditional.needs
        rest = [v for v in properties[other]["enum"] if v != value]
        without = {k: s for k, s in properties.items() if k != conditional.name}
        schema = {
            "oneOf": [
                {**schema, "properties": {**properties, other: {"type": "string", "enum": [value]}}},
                {**schema, "properties": {**without, other: {"type": "string", "enum": rest}}},
            ]
        }
        for shape in schema["oneOf"]:
            shape["additionalProperties"] = False
    return {
        **_query(
            name,
            " ".join(f"{m.name}: {m.description}." for m in members),
            schema,
            {m.name: m.example for m in members if m.needs is None or m.needs[1] is None},
        ),
        "style": "form",
        "explode": True,
    }


def query_parameters(answers: Answers) -> list[dict]:
    """The query parameters of a route that answers ``answers``: those of the table that it takes."""
    taken = [p for p in consulta.PARAMETERS if p.takes(answers)]
    out = []
    for p in taken:
        if not p.group:
            out.append(_query(p.name, p.description, _value_schema(p, answers), p.example))
        elif p is next(m for m in taken if m.group == p.group):
            out.append(_object_parameter(p.group, [m for m in taken if m.group == p.group], answers))
    return out


SERIES_PATHS = ("/v1/series", "/v1/series/datos", "/v1/series/publicaciones", "/v1/series/calendario")
# Several series aligned by date: amounts of pesos, rates and the rest, with versions (respuestas/catalogo_series.py).
SERIES_DATA = Answers(listing=True, dated=True, measured=True, pesos=frozenset({"valor"}), versioned=True, series=True)
SERIE = {
    "type": "object",
    "description": "una serie del catálogo (la tabla series)",
    "properties": {
        "id": {"type": "string", "description": "identificador estable: tabla[.valores][.medida]"},
        "titulo": {"type": "string"},
        "descripcion": {"type": "string"},
        "tema": {"type": "string", "enum": list(THEMES_WITH_SERIES)},
        "unidad": {"type": "string", "nullable": True},
        "frecuencia": {"type": "string"},
        "tipo": {"type": "string", "enum": list(KINDS)},
        "desde": {"type": "string", "nullable": True},
        "hasta": {"type": "string", "nullable": True},
        "observaciones": {"type": "integer"},
        "fuente": {"type": "string"},
        "ruta": {"type": "string", "description": "la ruta /v1 que la publica"},
        "tabla": {"type": "string"},
        "columna": {"type": "string"},
        "filtro": {"type": "object", "description": "las columnas de su tabla que la nombran"},
        "entidad": {"type": "string", "nullable": True, "description": "quién: la casa, el fondo, el banco..."},
        "atributos": {"type": "object", "description": "lo que la nombra y la describe, por nombre"},
        "ultimaActualizacion": {"type": "string", "nullable": True},
        "cadencia": {
            "type": "integer",
            "nullable": True,
            "description": "días sin dato antes de estar atrasada; null: nunca atrasada (un fondo, un banco)",
        },
        "parciales": {
            "type": "array",
            "items": {"type": "string"},
            "description": "con agrupar, en /v1/series/datos: los períodos (su primer día) que la serie no cubre enteros",
        },
        "atrasada": {"type": "boolean", "description": "su último dato tiene más días que su cadencia, hoy"},
        "calidad": {
            "type": "integer",
            "description": "cuántos hallazgos de la tabla calidad son sobre esta serie (sus tramos dudosos: "
            "/v1/series/datos?marcar=calidad)",
        },
        "publicacion": {
            "type": "object",
            "nullable": True,
            "description": "su ritmo de publicación, medido en las versiones guardadas de su ruta (null si no "
            "tiene): rezagoDias (mediana de días del fin del período a su primera publicación), rezagoMinimo, "
            "rezagoMaximo, intervaloDias, publicacionesMedidas, ultimaPublicacion, ultimoPeriodo, proximoPeriodo, "
            "proximaEstimada (una estimación, no un calendario oficial) y estimacion (cómo se estima)",
        },
    },
}


# Up to this many ids, the document lists them in the pattern of ``ids``; a catalogue of thousands (funds, banks,
# the REM) would make a pattern of megabytes: then it says the form of an id (catalogo/series.py's rule), and an
# id the catalogue does not have is the 400 that names it.
IDS_IN_PATTERN = 200
ID_FORM = "[A-Za-z0-9_.~-]+"


def _ids_schema(series_ids: Sequence[str]) -> dict:
    if not series_ids:
        return {"type": "string"}
    one = "(" + "|".join(re.escape(i) for i in series_ids) + ")" if len(series_ids) <= IDS_IN_PATTERN else ID_FORM
    return {"type": "string", "pattern": f"^{one}(,{one}){{0,19}}$"}


NAMING_EXAMPLES = {"casa": "blue", "moneda": "USD", "categoria": "mercadoDinero", "muestra": "todos"}


def _series_paths(series_ids: Sequence[str] = ()) -> dict:
    """``/v1/series`` and ``/v1/series/datos`` (respuestas/catalogo_series.py); ``series_ids``: the ids the
    database's catalogue has, the values ``ids`` takes (without them, any text)."""
    catalogue_query = [
        _query(
            "q",
            "palabras, cada una como comienzo de palabra, en el id, el título, la entidad, los atributos, la unidad, el "
            "tema o la descripción (sin importar acentos ni mayúsculas); las mejores primero",
            {"type": "string"},
            "blue",
        ),
        _query("tema", "sólo las series de un tema", {"type": "string", "enum": list(THEMES_WITH_SERIES)}, "indices"),
        _query("frecuencia", "diaria o mensual", {"type": "string", "enum": ["diaria", "mensual"]}, "mensual"),
        _query("tipo", "nivel, tasa, tasa_anual o conteo", {"type": "string", "enum": list(KINDS)}, "tasa"),
        *(
            _query(
                name,
                f"sólo las series cuyo campo «{name}» es este valor (sin importar mayúsculas)",
                {"type": "string"},
                example,
            )
            for name, example in ((n, NAMING_EXAMPLES.get(n, "x")) for n in NAMING_FIELDS)
        ),
        _query("limite", "series por página", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}, PAGE),
        _query(
            "pagina",
            'la página, desde 1 (si hay otra después, la respuesta la da en su encabezado Link: rel="next")',
            {"type": "integer", "minimum": 1, "maximum": 10**6},
            1,
        ),
        *query_parameters(Answers(listing=True)),  # formato
    ]
    ids = dict(
        _query(
            "ids",
            "los ids de las series (de /v1/series), separados por comas; hasta 20. Uno desconocido es un 400. "
            "id:variacion (inflacion,cotizaciones_dolares.blue.venta:relativa) da esa columna como su variación",
            _ids_schema(series_ids),
            "cotizaciones_dolares.blue.venta,uva",
        ),
        required=True,
    )
    marcar = _query(
        "marcar",
        "calidad: junto a cada serie, una columna «id:calidad» con los controles de la tabla calidad que ponen en "
        "duda ese valor (un valor congelado, una diferencia compra-venta imposible, una cifra publicada distinta...; "
        "con agrupar, los que tocan el período), null si ninguno; también en CSV. Los valores no cambian",
        {"type": "string", "enum": ["calidad"]},
        "calidad",
    )
    dias = _query(
        "dias",
        "habiles: de cada serie diaria, sólo los días hábiles (lunes a viernes que no son feriados de la base), antes "
        "de agrupar; el título lo dice («mensual (promedio de días hábiles)»). todos (por omisión): todos los días "
        "publicados (las cotizaciones repiten el viernes el sábado y el domingo). Una serie mensual no cambia",
        {"type": "string", "enum": list(DAYS)},
        "habiles",
    )
    data_query = [ids, marcar, dias, *query_parameters(SERIES_DATA)]
    data_schema = {
        "type": "object",
        "properties": {
            "series": {"type": "array", "items": SERIE},
            "datos": {
                "type": "array",
                "description": "una fila por fecha: fecha y el valor de cada serie (null si no tiene esa fecha). "
                "Con agrupar, una fila por período y fecha es su primer día; con funcion=maximo, minimo, primero o "
                "ultimo, «id:fecha» junto a cada serie es el día del que viene su valor",
                "items": {"type": "object", "properties": {"fecha": {"type": "string"}}},
            },
            "aviso": {
                "type": "string",
                "description": "sólo si la consulta trae parámetros que la ruta no toma: cuáles se ignoraron (también "
                "en el encabezado X-Parametros-Ignorados, en cualquier formato)",
            },
        },
    }
    ranged = [q for q in query_parameters(Answers(listing=True, dated=True)) if q["name"] != "fecha"]
    calendar = [q for q in query_parameters(Answers(listing=True, dated=True, calendar=True)) if q["name"] != "fecha"]
    publications_schema = {
        "type": "object",
        "properties": {
            "series": {"type": "array", "items": SERIE},
            "publicaciones": {
                "type": "array",
                "description": "un día por publicación: serie, publicado (AAAA-MM-DD), agregados, revisados, "
                "quitados, ultimaFecha (su observación más nueva) e inicial (la primera versión guardada: lo que "
                "agregó se publicó ese día o antes)",
                "items": {"type": "object"},
            },
        },
    }
    calendar_schema = {
        "type": "array",
        "description": "un evento por ruta y día: fecha, tipo (publicada o estimada), nombre, ruta, series, periodo "
        "(su observación más nueva, o la esperada), agregados, revisados, quitados, inicial",
        "items": {"type": "object"},
    }
    return {
        SERIES_PATHS[0]: _operation(
            "Catálogo de series",
            "Cada serie numérica de la base (una medida de una tabla para una casa, una moneda...), con su unidad, "
            "frecuencia, tipo, período y si está atrasada; buscable.",
            (),
            {"type": "array", "items": SERIE},
            "Series",
            SERIES_PATHS[0],
            query=catalogue_query,
        ),
        SERIES_PATHS[1]: _operation(
            "Varias series alineadas por fecha",
            "Los valores de varias series, una fila por fecha. Agrupar una tasa (la inflación mensual) la compone; "
            "variacion=acumulada de una tasa compone desde enero; ajustar convierte montos en pesos antes de agrupar; "
            "publicado= da los valores como upstream los había publicado ese día.",
            (),
            data_schema,
            "Series",
            SERIES_PATHS[1],
            query=data_query,
        ),
        SERIES_PATHS[2]: _operation(
            "Publicaciones de series",
            "Cada día en que upstream publicó o revisó cada serie (entre desde y hasta, días de publicación), con "
            "cuántos valores agregó, revisó y quitó; cada serie con su ritmo de publicación. La historia de una "
            "observación es /v1/series/datos?ids=<id>&desde=<fecha>&hasta=<fecha>&publicado=todas.",
            (),
            publications_schema,
            "Series",
            SERIES_PATHS[2],
            query=[ids, *ranged],
        ),
        SERIES_PATHS[3]: _operation(
            "Calendario de publicaciones",
            "Las publicaciones pasadas (entre desde y hasta) de las series con versiones guardadas y la próxima que "
            "estima el ritmo de cada una (una estimación, no un calendario oficial); también como iCalendar.",
            (),
            calendar_schema,
            "Series",
            SERIES_PATHS[3],
            query=[
                {**ids, "required": False},
                _query("frecuencia", "diaria o mensual", {"type": "string", "enum": ["diaria", "mensual"]}, "mensual"),
                *calendar,
            ],
        ),
    }


def _query_parameters(endpoint, versioned: Sequence[str] = ()) -> list[dict]:
    stored = endpoint.path in versioned
    # a list with versions of its own (not computed from another one) also takes publicado=primera and todas
    return query_parameters(Answers.of(endpoint, stored, stored and not endpoint.computed))


def build_document(
    router: Router,
    maxima: Optional[dict] = None,
    months: Sequence[str] = (),
    versioned: Sequence[str] = (),
    series_ids: Sequence[str] = (),
) -> dict:
    """The document; ``maxima`` are the largest values the server takes, per (route, parameter)
    (respuestas.responder.Responder.served_maxima); without them, the spec's.  ``months``: those of the
    database's CPI, the values ``base`` takes (without them, any month AAAA-MM).  ``versioned``: the routes
    with stored versions (respuestas.consulta.Known.templates), which take ``publicado``."""
    paths = {}
    tables: set[str] = set()
    for e in sorted(router.endpoints, key=lambda e: e.path):
        tables.update(e.datasets)
        first = BY_TABLE[e.datasets[0]]
        description = first.description + (f" Origen: {first.origin}." if first.origin else "")
        paths[e.path] = _operation(
            e.summary,
            description,
            e.params,
            _past_or_present(_response_schema(e)) if e.path in versioned else _response_schema(e),
            first.title,
            e.path,
            maxima,
            _query_parameters(e, versioned),
        )
    paths.update(_series_paths(series_ids))
    paths[OPENAPI_PATH] = _operation(
        "Este documento",
        "La descripción OpenAPI 3 de todas las rutas /v1, generada del catálogo.",
        (),
        {"type": "object", "description": "un documento OpenAPI 3.0"},
        "API",
        OPENAPI_PATH,
    )
    schemas = {t: record_schema(t) for t in sorted(tables)}
    schemas["Error"] = ERROR_SCHEMA
    # A base month before the peso of 1992 would multiply across the change of currency (a 400).
    months = [m for m in months if m >= LAST_CURRENCY_CHANGE[:7]]
    schemas["MesIPC"] = (
        {"type": "string", "enum": list(months), "description": "un mes que el IPC de la base tiene, desde 1992-01"}
        if months
        else {"type": "string", "pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$"}
    )
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "argentina-datos /v1",
            "version": __version__,
            "description": DESCRIPTION + AGENTS_NOTE,
            "license": {"name": "MIT"},
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": {
                name: {"description": desc, "content": error_content} for name, (_, desc) in ERROR_RESPONSES.items()
            },
        },
    }


STATIC_NOTE = """

Este documento describe el árbol estático que escribe `exportar-v1`: las mismas rutas y las mismas \
respuestas 200, byte por byte, servidas como archivos (`v1/<ruta>/index.json`). Un servidor de archivos \
no lee parámetros de consulta (`desde`, `agrupar`, `formato`, `fecha`...: los responde `serve-datos`) y \
responde 404 a todo lo que no es un archivo, también a un valor mal formado."""


def static_document(router: Router, maxima: Optional[dict] = None) -> dict:
    """The document of the static tree (publicacion/exportar_v1.py): the same routes and answers, without
    the query parameters and the answers a static host has no way to give (400, 414, 431, CSV)."""
    doc = build_document(router, maxima)
    kept = {"200", "404"}
    for item in doc["paths"].values():
        op = item["get"]
        op["parameters"] = [p for p in op["parameters"] if p.get("in") != "query"]
        op["responses"]["200"]["content"].pop("text/csv", None)
        op["responses"]["200"]["content"].pop("text/calendar", None)
        op["responses"] = {status: r for status, r in op["responses"].items() if status in kept}
    doc["components"]["responses"] = {
        name: r for name, r in doc["components"]["responses"].items() if ERROR_RESPONSES[name][0] in kept
    }
    del doc["components"]["schemas"]["MesIPC"]  # only ajuste (a query parameter) names it
    for path in SERIES_PATHS:  # computed for each query, never a file
        del doc["paths"][path]
    doc["info"]["description"] = DESCRIPTION + STATIC_NOTE
    return doc


@lru_cache(maxsize=None)
def openapi_document(
    router: Router, maxima: tuple = (), months: tuple = (), versioned: tuple = (), series_ids: tuple = ()
) -> bytes:
    return orjson.dumps(build_document(router, dict(maxima), months, versioned, series_ids))


# ---- the route table of docs/api.md ----------------------------------------------------
def _bounds(p) -> str:
    if p.choices and p.kind != INTEGER:
        return f"`{p.name}`: " + " · ".join(p.choices)
    if p.minimum is not None:
        top = f"{p.maximum} (más si hay datos)" if p.maximum is not None else "sin máximo"
        return f"`{p.name}`: {p.minimum} a {top}"
    return f"`{p.name}`: {p.description}"


def markdown_table(router: Router) -> str:
    """The route table of docs/api.md: path, what it answers, parameters and their bounds."""
    doc = build_document(router)
    by_path = {e.path: e for e in router.endpoints}
    lines = ["| ruta | qué devuelve | parámetros (límites) | ejemplo |", "|---|---|---|---|"]
    for path, item in doc["paths"].items():
        e = by_path.get(path)
        params = e.params if e else ()
        example = fill_path(path, {p.name: p.example for p in params})
        cells = [
            f"`{path}`",
            item["get"]["summary"],
            "<br>".join(_bounds(p) for p in params) or "—",
            f"`{example}`" if params else "—",
        ]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def parameters_table() -> str:
    """The table of query parameters of docs/api.md, one row per entry of respuestas/consulta.py's PARAMETERS."""
    lines = ["| parámetro | valores | qué hace | en qué rutas | ejemplo |", "|---|---|---|---|---|"]
    for p in consulta.PARAMETERS:
        values = f"`{p.form_text()}`" if p.form else ""
        values += (" · " if values and p.choices else "") + " · ".join(f"`{c}`" for c in p.choices)
        if p.needs is not None:
            other, value, _ = p.needs
            values += f" (con `{other}={value}`)" if value else f" (con `{other}`)"
        cells = [f"`{p.name}`", values, p.description, p.where[0].upper() + p.where[1:], f"`{p.url}`"]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m argentina_datos.documentacion.openapi",
        description="Imprime el documento OpenAPI de /v1, o la tabla de rutas.",
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help=f"la tabla de rutas de {ROUTE_TABLE_PAGE}, en Markdown (va entre sus marcadores)",
    )
    parser.add_argument(
        "--parametros",
        action="store_true",
        help=f"la tabla de parámetros de consulta de {ROUTE_TABLE_PAGE}, en Markdown (va entre sus marcadores)",
    )
    args = parser.parse_args(argv)
    router = Router()
    if args.parametros:
        sys.stdout.write(parameters_table())
    elif args.markdown:
        sys.stdout.write(markdown_table(router))
    else:
        sys.stdout.write(orjson.dumps(build_document(router), option=orjson.OPT_INDENT_2).decode() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
