"""The OpenAPI 3 document of /v1, generated from the catalogue and the router.

``python -m argentina_datos.openapi`` prints the document; ``--markdown`` prints the route
table that the README carries (tests/test_openapi.py checks that it is current).
"""
from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from functools import lru_cache

import orjson

from . import __version__
from .catalogo import BY_TABLE
from .esquema import INTEGER, JSON, OPENAPI_TYPES, Field, Obj
from .rutas import Router

OPENAPI_PATH = "/v1/openapi.json"

ERROR_SCHEMA = {
    "type": "object",
    "description": "Toda respuesta de error bajo /v1 tiene esta forma.",
    "required": ["status", "error", "mensaje", "parametro"],
    "additionalProperties": False,
    "properties": {
        "status": {"type": "integer", "description": "código HTTP", "enum": [400, 404, 405, 414, 500],
                   "example": 400},
        "error": {"type": "string", "description": "nombre del código HTTP", "example": "Bad Request"},
        "mensaje": {"type": "string", "description": "qué estuvo mal, en castellano"},
        "parametro": {"type": "string", "nullable": True,
                      "description": "el parámetro de la ruta culpable (año, mes, casa, fecha, categoria, nombre, "
                                     "id); null si la ruta no existe o el error no es de un parámetro"},
    },
    "example": {"status": 400, "error": "Bad Request", "mensaje": "«año» debe ser al menos 2016",
                "parametro": "año"},
}

# The error answers shared by every operation, referenced from each one.
ERROR_RESPONSES = {
    "MalFormado": ("400", "un parámetro mal formado o fuera de los límites de la especificación"),
    "SinDatos": ("404", "la ruta no existe, o los parámetros están bien formados pero no hay datos "
                        "(una fecha sin cotización, un año sin archivo, un fondo o senador desconocido)"),
    "RutaLarga": ("414", "la ruta es demasiado larga para ser una ruta de la API"),
}
ENVELOPE_FIELDS = {
    "fechaActualizacion": {"type": "string", "description": "cuándo upstream actualizó los datos (ISO 8601)"},
}
DESCRIPTION = """Réplica de sólo lectura de la API pública de ArgentinaDatos, servida desde SQLite. Las \
respuestas 200 son idénticas a las de upstream.

Errores: todo error es JSON con el esquema `Error` (`status`, `error`, `mensaje`, `parametro`).
400 = un parámetro mal formado o fuera de los límites de la especificación; 404 = ruta desconocida, \
o parámetros bien formados sin datos; 405 = un método distinto de GET, HEAD u OPTIONS; 414 = ruta \
demasiado larga.

Un año posterior al máximo de la especificación se acepta sólo si hay datos de ese año (p. ej. \
/v1/feriados/2027); si no, 400. `casa` acepta `turista` (el nombre de la especificación) y `tarjeta` \
(el de los datos) y ambas devuelven los mismos registros, con `casa` = `tarjeta`.

HTTP: `Access-Control-Allow-Origin: *`, `ETag` + `If-None-Match` (304), `Cache-Control`, gzip con \
`Accept-Encoding: gzip`, HEAD."""


def _member_schema(m) -> dict:
    if isinstance(m, Field):
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
    schema["title"] = ds.title
    return schema


def _ref(table: str) -> dict:
    return {"$ref": f"#/components/schemas/{table}"}


def _list_of(table: str) -> dict:
    return {"type": "array", "items": _ref(table)}


def _response_schema(endpoint) -> dict:
    tables = endpoint.datasets
    if endpoint.shape == "list":
        return _list_of(tables[0])
    if endpoint.shape in ("one", "last"):
        return _ref(tables[0])
    if endpoint.shape == "envelope":
        ds = BY_TABLE[tables[0]]
        # Some envelopes add their own fields (the fund history names the fund): allowed, not listed.
        return {"type": "object", "additionalProperties": True,
                "description": f"fechaActualizacion, los demás campos del envoltorio publicado y la lista "
                               f"«{ds.envelope_list}»",
                "properties": {**ENVELOPE_FIELDS, ds.envelope_list: _list_of(tables[0])},
                "required": [*ENVELOPE_FIELDS, ds.envelope_list]}
    if endpoint.shape == "viajes":
        props = {"fuente": {"type": "string", "description": "página del Senado de donde salen los datos"},
                 "actualizado": {"type": "string", "description": "cuándo se actualizó el índice (ISO 8601)"}}
        props.update({BY_TABLE[t].envelope_list: _list_of(t) for t in tables})
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
    if endpoint.shape == "senador":
        props = {"senadorId": {"type": "string", "description": "el id pedido"}}
        props.update({BY_TABLE[t].envelope_list: _list_of(t) for t in tables})
        return {"type": "object", "properties": props, "required": list(props), "additionalProperties": False}
    raise ValueError(f"forma de respuesta desconocida: {endpoint.shape}")


def _parameter(p) -> dict:
    integer = p.kind == INTEGER
    schema = {"type": "integer" if integer else "string"}
    if p.choices:
        schema["enum"] = list(p.choices)
    if not integer:
        schema["pattern"] = f"^(?:{p.pattern})$"
    if p.minimum is not None:
        schema["minimum"] = p.minimum
    description = p.description
    if p.maximum is not None:
        schema["maximum"] = p.maximum
        description += (f". {p.maximum} es el máximo de la especificación; un año posterior se acepta "
                        f"sólo si hay datos de ese año (si no, 400)")
    if "/" in p.pattern:
        description += ". Las barras van tal cual o codificadas como %2F"
    out = {"name": p.name, "in": "path", "required": True, "description": description, "schema": schema}
    if p.example:
        out["example"] = int(p.example) if integer else p.example
    return out


def _operation_id(path: str) -> str:
    words = re.findall(r"[A-Za-z0-9]+", unicodedata.normalize("NFKD", path).encode("ascii", "ignore").decode())
    return "get" + "".join(w[0].upper() + w[1:] for w in words[1:])


def _operation(summary: str, description: str, params, ok_schema: dict, tag: str, path: str) -> dict:
    responses = {"200": {"description": "OK", "content": {"application/json": {"schema": ok_schema}}}}
    for name, (status, _) in ERROR_RESPONSES.items():
        if status != "400" or params:
            responses[status] = {"$ref": f"#/components/responses/{name}"}
    return {"get": {
        "summary": summary, "description": description, "tags": [tag], "operationId": _operation_id(path),
        "parameters": [_parameter(p) for p in params], "responses": responses,
    }}


def build_document(router: Router) -> dict:
    paths = {}
    tables = set()
    for e in sorted(router.endpoints, key=lambda e: e.path):
        tables.update(e.datasets)
        first = BY_TABLE[e.datasets[0]]
        description = first.description + (f" Origen: {first.origin}." if first.origin else "")
        paths[e.path] = _operation(e.summary, description, e.params, _response_schema(e), first.title, e.path)
    paths[OPENAPI_PATH] = _operation(
        "Este documento", "La descripción OpenAPI 3 de todas las rutas /v1, generada del catálogo.", (),
        {"type": "object", "description": "un documento OpenAPI 3.0"}, "API", OPENAPI_PATH)
    schemas = {t: record_schema(t) for t in sorted(tables)}
    schemas["Error"] = ERROR_SCHEMA
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "argentina-datos /v1",
            "version": __version__,
            "description": DESCRIPTION,
            "license": {"name": "MIT"},
        },
        "paths": paths,
        "components": {
            "schemas": schemas,
            "responses": {name: {"description": desc, "content": error_content}
                          for name, (_, desc) in ERROR_RESPONSES.items()},
        },
    }


@lru_cache(maxsize=None)
def openapi_document(router: Router) -> bytes:
    return orjson.dumps(build_document(router))


# ---- the README's route table ----------------------------------------------------
def _bounds(p) -> str:
    if p.choices and p.kind != INTEGER:
        return f"`{p.name}`: " + " · ".join(p.choices)
    if p.minimum is not None:
        top = f"{p.maximum} (más si hay datos)" if p.maximum is not None else "sin máximo"
        return f"`{p.name}`: {p.minimum} a {top}"
    return f"`{p.name}`: {p.description}"


def markdown_table(router: Router) -> str:
    """The route table of the README: path, what it answers, parameters and their bounds."""
    doc = build_document(router)
    by_path = {e.path: e for e in router.endpoints}
    lines = ["| ruta | qué devuelve | parámetros (límites) | ejemplo |", "|---|---|---|---|"]
    for path, item in doc["paths"].items():
        e = by_path.get(path)
        params = e.params if e else ()
        example = path
        for p in params:
            example = example.replace("{" + p.name + "}", p.example)
        cells = [f"`{path}`", item["get"]["summary"], "<br>".join(_bounds(p) for p in params) or "—",
                 f"`{example}`" if params else "—"]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m argentina_datos.openapi",
                                     description="Imprime el documento OpenAPI de /v1, o la tabla de rutas.")
    parser.add_argument("--markdown", action="store_true", help="la tabla de rutas del README, en Markdown")
    args = parser.parse_args(argv)
    router = Router()
    if args.markdown:
        sys.stdout.write(markdown_table(router))
    else:
        sys.stdout.write(orjson.dumps(build_document(router), option=orjson.OPT_INDENT_2).decode() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
