"""What the OpenAPI document cannot say, taught to schemathesis (SCHEMATHESIS_HOOKS=fuzz_hooks): a
range whose desde is after its hasta is a 400 (tests/test_api_errors.py checks it); schemathesis would
otherwise count it, valid to the schema of each parameter alone, as wrongly refused.  On
/v1/series/datos, what is valid depends on the series named in ``ids`` (a conversion only of amounts of
pesos, no sum nor ratio of a rate): there the fuzzing leaves those parameters out.  ``publicado`` is valid
where the route itself (/v1/cotizaciones/dolares/blue, not /turista, under the same template) or its list has
versions, a 400 elsewhere (tests/test_versiones.py, tests/test_por_fecha.py and tests/test_catalogo_series.py
check them): left out everywhere.  An
exploded object parameter (agrupacion, ajuste) never appears under its own name in a query string: a value
that is not an object comes out as ``ajuste=true``, an unknown parameter, which the server ignores as
upstream does; such cases are left out, and so are those where an object's members are not its declared
ones (exploded, they are unknown parameters too)."""

import schemathesis

from argentina_datos.documentacion.openapi import build_document
from argentina_datos.respuestas.consulta import PARAMETERS
from argentina_datos.respuestas.rutas import Router

SERIES_DATA = "/v1/series/datos"
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


@schemathesis.hook
def filter_query(ctx, query):
    if not query:
        return True
    if any(name in query for name in OBJECT_PARAMETERS) or not set(query) <= DECLARED:
        return False
    if "publicado" in query:
        return False
    desde, hasta = query.get("desde"), query.get("hasta")
    if isinstance(desde, str) and isinstance(hasta, str) and desde > hasta:
        return False
    operation = getattr(ctx, "operation", None)
    if operation is not None and operation.path == SERIES_DATA:
        return not ("ajustar" in query or query.get("funcion") == "suma" or query.get("variacion") == "relativa")
    return True
