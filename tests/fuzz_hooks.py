"""What the OpenAPI document cannot say, taught to schemathesis (SCHEMATHESIS_HOOKS=fuzz_hooks): a
range whose desde is after its hasta is a 400 (tests/test_api_errors.py checks it); schemathesis would
otherwise count it, valid to the schema of each parameter alone, as wrongly refused.  On
/v1/series/datos, what is valid depends on the series named in ``ids`` (a conversion only of amounts of
pesos, no sum nor ratio of a rate): there the fuzzing leaves those parameters out; /v1/series/publicaciones answers
the series whose route has versions of its own (and so does /v1/series/calendario with ids), and their ids are
chosen among them.  ``publicado`` is valid
where the route itself (/v1/cotizaciones/dolares/blue, not /turista, under the same template) or its list has
versions, a 400 elsewhere (tests/test_versiones.py, tests/test_por_fecha.py and tests/test_catalogo_series.py
check them): left out everywhere.  An
exploded object parameter (agrupacion, ajuste) never appears under its own name in a query string: a value
that is not an object comes out as ``ajuste=true``, an unknown parameter, which the server ignores as
upstream does; such cases are left out, and so are those where an object's members are not its declared
ones (exploded, they are unknown parameters too)."""

import os
import re
import sqlite3
import zlib

import schemathesis

from argentina_datos.documentacion.openapi import build_document
from argentina_datos.respuestas.consulta import BY_NAME, PARAMETERS, BadQuery
from argentina_datos.respuestas.rutas import Router

SERIES_DATA = "/v1/series/datos"
SERIES_RELEASES, SERIES_CALENDAR = "/v1/series/publicaciones", "/v1/series/calendario"
OBJECT_PARAMETERS = {p.group for p in PARAMETERS if p.group}  # agrupacion, ajuste


def declared_names(document: dict) -> set[str]:
    """Every query parameter's name in the document, and the members of the object parameters."""
    names = set()
    for item in document["paths"].values():
        for operation in item.values():
            for p in operation.get("parameters", []):
                if p["in"] == "query":
                    names.add(p["name"])
                    for shape in [p["schema"], *p["schema"].get("oneOf", [])]:
                        names.update(shape.get("properties", {}))
    return names


DECLARED = declared_names(build_document(Router()))
# The database the server answers from ($ARGENTINA_DATOS_FUZZ_DB): its catalogue's ids.  With thousands, the
# document gives only the form of an id (documentacion/openapi.py, IDS_IN_PATTERN); an id of that form is then
# replaced by one the catalogue has, so a valid request is one the server must answer.
ID_FORM = re.compile(r"[A-Za-z0-9_.~-]+")


def known_ids() -> list[str]:
    path = os.environ.get("ARGENTINA_DATOS_FUZZ_DB")
    if not path:
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return [i for (i,) in conn.execute("SELECT id FROM series ORDER BY rowid")]


KNOWN_IDS = known_ids()


def versioned_ids() -> list[str]:
    """The ids whose route has stored versions of its own (not a *_historico table's): what
    /v1/series/publicaciones answers; any other is a 400 or a 404 that says why."""
    path = os.environ.get("ARGENTINA_DATOS_FUZZ_DB")
    if not path:
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        sql = (
            "SELECT id FROM series WHERE ruta IN (SELECT ruta FROM versiones) AND tabla NOT LIKE '%historico%' "
            "ORDER BY rowid"
        )
        return [i for (i,) in conn.execute(sql)]


VERSIONED_IDS = versioned_ids()


@schemathesis.hook
def map_query(ctx, query):
    operation = getattr(ctx, "operation", None)
    ids = query.get("ids") if isinstance(query, dict) else None
    known = {SERIES_DATA: KNOWN_IDS, SERIES_RELEASES: VERSIONED_IDS, SERIES_CALENDAR: VERSIONED_IDS}
    pool = known.get(operation.path) if operation is not None else None
    if not pool or not isinstance(ids, str):
        return query
    tokens = ids.split(",")
    if not 1 <= len(tokens) <= 20 or not all(ID_FORM.fullmatch(t) for t in tokens):
        return query  # a value outside the form: the server's 400 is what is checked
    chosen = [pool[zlib.crc32(t.encode()) % len(pool)] for t in tokens]
    return {**query, "ids": ",".join(chosen)}


@schemathesis.hook
def filter_query(ctx, query):
    if not query:
        return True
    if any(name in query for name in OBJECT_PARAMETERS) or not set(query) <= DECLARED:
        return False
    if "publicado" in query:
        return False
    desde, hasta = query.get("desde"), query.get("hasta")
    if isinstance(desde, str) and isinstance(hasta, str):
        try:  # as the days they stand for: desde=2025-03-15&hasta=2025-03 is a range, 2025-03-15 to 03-31
            if BY_NAME["desde"].day(desde) > BY_NAME["hasta"].day(hasta):
                return False
        except BadQuery:
            pass  # a value its schema allows and the server refuses would be a failure to report: kept
    operation = getattr(ctx, "operation", None)
    if operation is not None and operation.path == SERIES_DATA:
        return not ("ajustar" in query or query.get("funcion") == "suma" or query.get("variacion") == "relativa")
    return True
