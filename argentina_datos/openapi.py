"""The OpenAPI 3 document of /v1, generated from the catalogue and the router."""
from __future__ import annotations

from functools import lru_cache

import orjson

from . import __version__
from .catalogo import BY_TABLE
from .esquema import JSON, OPENAPI_TYPES, Children, Field, Obj
from .rutas import Router

ERROR_SCHEMA = {
    "type": "object",
    "description": "Toda respuesta de error bajo /v1 tiene esta forma.",
    "required": ["status", "error", "mensaje", "parametro"],
    "properties": {
        "status": {"type": "integer", "description": "código HTTP", "example": 400},
        "error": {"type": "string", "description": "nombre del código HTTP", "example": "Bad Request"},
        "mensaje": {"type": "string", "description": "qué estuvo mal, en castellano"},
        "parametro": {"type": "string", "nullable": True, "description": "el parámetro de la ruta culpable, si lo hay"},
    },
}


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


def _response_schema(endpoint) -> dict:
    tables = endpoint.datasets
    if endpoint.shape == "list":
        return {"type": "array", "items": _ref(tables[0])}
    if endpoint.shape in ("one", "last"):
        return _ref(tables[0])
    if endpoint.shape == "envelope":
        ds = BY_TABLE[tables[0]]
        return {"type": "object", "additionalProperties": True,
                "description": "campos del envoltorio publicado (p. ej. fechaActualizacion) y la lista",
                "properties": {ds.envelope_list: {"type": "array", "items": _ref(tables[0])}},
                "required": [ds.envelope_list]}
    if endpoint.shape == "viajes":
        props = {"fuente": {"type": "string"}, "actualizado": {"type": "string"}}
        props.update({BY_TABLE[t].envelope_list: {"type": "array", "items": _ref(t)} for t in tables})
        return {"type": "object", "properties": props, "required": list(props)}
    if endpoint.shape == "senador":
        props = {"senadorId": {"type": "string"}}
        props.update({BY_TABLE[t].envelope_list: {"type": "array", "items": _ref(t)} for t in tables})
        return {"type": "object", "properties": props, "required": list(props)}
    raise ValueError(endpoint.shape)


def _parameter(p) -> dict:
    schema = {"type": "integer" if p.kind == "integer" else "string"}
    if p.choices:
        schema["enum"] = list(p.choices)
    elif p.kind != "integer":
        schema["pattern"] = f"^(?:{p.pattern})$"
    if p.minimum is not None:
        schema["minimum"] = p.minimum
    description = p.description
    if p.maximum is not None:
        description += (f". Máximo de la especificación: {p.maximum}; un año posterior se acepta "
                        f"sólo si hay datos (si no, 400)")
    out = {"name": p.name, "in": "path", "required": True, "description": description, "schema": schema}
    if p.example:
        out["example"] = int(p.example) if p.kind == "integer" else p.example
    return out


def _error(description: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def build_document(router: Router) -> dict:
    paths = {}
    tables = set()
    for e in sorted(router.endpoints, key=lambda e: e.path):
        tables.update(e.datasets)
        responses = {
            "200": {"description": "OK", "content": {"application/json": {"schema": _response_schema(e)}}},
            "404": _error("ruta desconocida, o parámetros bien formados sin datos"),
        }
        if e.params:
            responses["400"] = _error("parámetro mal formado o fuera de rango")
        paths[e.path] = {"get": {
            "summary": e.summary,
            "operationId": "get" + "".join(part.strip("{}").title().replace("-", "") for part in e.path.split("/")),
            "parameters": [_parameter(p) for p in e.params],
            "responses": responses,
        }}
    schemas = {t: record_schema(t) for t in sorted(tables)}
    schemas["Error"] = ERROR_SCHEMA
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "argentina-datos /v1",
            "version": __version__,
            "description": "Réplica de sólo lectura de la API pública de ArgentinaDatos, servida desde SQLite. "
                           "Las respuestas son idénticas a las de upstream; los errores son JSON con el esquema Error.",
            "license": {"name": "MIT"},
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }


@lru_cache(maxsize=None)
def openapi_document(router: Router) -> bytes:
    return orjson.dumps(build_document(router))
