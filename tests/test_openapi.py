"""/v1/openapi.json: a valid OpenAPI 3 document of exactly what is served, with the spec's bounds.

The spec (../shared/spec/interface.md) is read here, not copied: its limits table and its route
tables are what the document and the API page (docs/api.md) must agree with.
"""

import re

import orjson
import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate
from paths import REPO, SHARED

from argentina_datos.catalogo.parametros import BadParam
from argentina_datos.documentacion.openapi import (
    OPENAPI_PATH,
    ROUTE_TABLE_MARKERS,
    ROUTE_TABLE_PAGE,
    SERIES_PATHS,
    build_document,
    markdown_table,
)
from argentina_datos.respuestas import catalogo_series
from argentina_datos.respuestas.responder import Responder
from argentina_datos.respuestas.rutas import Router

SPEC_PATH = SHARED / "spec" / "interface.md"
# The specification is in ../shared beside the mirror: the tests that read it are marked mirror.
SPEC = SPEC_PATH.read_text() if SPEC_PATH.exists() else ""
API_PAGE = (REPO / ROUTE_TABLE_PAGE).read_text()
ROUTER = Router()
DOC = build_document(ROUTER)
OPERATIONS = {path: item["get"] for path, item in DOC["paths"].items()}


def example_path(path: str, operation: dict) -> str:
    for p in operation["parameters"]:
        path = path.replace("{" + p["name"] + "}", str(p["example"]))
    required = [p for p in operation["parameters"] if p["in"] == "query" and p.get("required")]
    return path + ("?" + "&".join(f"{p['name']}={p['example']}" for p in required) if required else "")


def schema_validator(schema: dict) -> OAS30Validator:
    # $refs point into #/components: validate with the document's components at the root.
    return OAS30Validator({**schema, "components": DOC["components"]})


def resolve(obj: dict) -> dict:
    while "$ref" in obj:
        node = DOC
        for part in obj["$ref"].removeprefix("#/").split("/"):
            node = node[part]
        obj = node
    return obj


async def test_served_document_is_the_generated_one(ds, conn):
    response = await ds.client.get(OPENAPI_PATH)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    # With the database's year maxima (the spec's, or the last year with data), its CPI's months and the routes
    # with stored versions (which take ?publicado=).
    responder = Responder(ROUTER)
    versioned = sorted(responder.known(conn).templates)
    ids = catalogo_series.series_ids(conn)  # the values /v1/series/datos?ids= takes
    served = build_document(ROUTER, responder.served_maxima(conn), sorted(responder.known(conn).cpi), versioned, ids)
    assert "cotizaciones_dolares.blue.venta" in ids
    assert "/v1/cotizaciones/dolares/{casa}" in versioned and "/v1/feriados/{año}" not in versioned
    fecha = [p for p in orjson.loads(response.content)["paths"]["/v1/cotizaciones/dolares/{casa}"]["get"]["parameters"]]
    assert any(p["name"] == "publicado" and p["in"] == "query" for p in fecha)
    assert any(p["name"] == "fecha" and p["in"] == "query" for p in fecha)  # the records of a day, month or year
    assert len(orjson.loads(response.content)["components"]["schemas"]["MesIPC"]["enum"]) > 100
    assert orjson.loads(response.content) == orjson.loads(orjson.dumps(served))


def test_document_validates():
    validate(DOC)


def test_paths_are_exactly_the_router_endpoints():
    assert set(DOC["paths"]) == {e.path for e in ROUTER.endpoints} | {OPENAPI_PATH, *SERIES_PATHS}


def test_operation_ids_are_unique_ascii():
    ids = [op["operationId"] for op in OPERATIONS.values()]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"[A-Za-z0-9]+", i) for i in ids)


@pytest.mark.parametrize("path", sorted(OPERATIONS))
def test_every_parameter_has_an_example_its_schema_accepts(path):
    for p in OPERATIONS[path]["parameters"]:
        assert "example" in p, (path, p["name"])
        OAS30Validator(p["schema"]).validate(p["example"])
        assert p["description"]


@pytest.mark.parametrize("path", sorted(OPERATIONS))
async def test_every_path_answers_200_with_its_examples_and_matches_its_schema(ds, path):
    operation = OPERATIONS[path]
    response = await ds.client.get(example_path(path, operation))
    assert response.status_code == 200, response.text[:300]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    schema_validator(schema).validate(orjson.loads(response.content))


@pytest.mark.parametrize("path", sorted(OPERATIONS))
def test_errors_reference_the_error_schema(path):
    responses = OPERATIONS[path]["responses"]
    query = any(p["in"] == "query" for p in OPERATIONS[path]["parameters"])
    expected = {"200", "404", "414", "431"} | ({"400"} if query else set())
    assert set(responses) == expected
    for status in expected - {"200"}:
        content = resolve(responses[status])["content"]["application/json"]
        assert content["schema"] == {"$ref": "#/components/schemas/Error"}


def test_error_schema_describes_the_error_shape():
    error = DOC["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"status", "error", "mensaje", "parametro"}
    assert error["properties"]["parametro"]["nullable"] is True
    schema_validator(error).validate(error["example"])


# ---- the spec's bounds ------------------------------------------------------------
def spec_limits() -> list[tuple[str, int, int | None]]:
    """(route, minimum, maximum) for each año row of the spec's limits table."""
    out = []
    for route, lo, hi in re.findall(r"^\| año, (/v1/\S+) \| (?:minimum )?(\d{4})(?: to (\d{4}))?", SPEC, re.M):
        out.append((route, int(lo), int(hi) if hi else None))
    return out


def param(path: str, name: str) -> dict:
    return next(p for p in OPERATIONS[path]["parameters"] if p["name"] == name)


@pytest.mark.mirror
def test_spec_limits_are_read():
    assert len(spec_limits()) == 4


@pytest.mark.parametrize("route,lo,hi", spec_limits())
def test_year_bounds_are_the_spec_bounds(route, lo, hi):
    schema = param(route, "año")["schema"]
    assert schema["type"] == "integer"
    assert schema["minimum"] == lo
    assert schema["maximum"] == (hi or 9999)  # without a spec maximum: the four digits'


@pytest.mark.mirror
def test_mes_pattern_is_the_spec_pattern_and_the_unpadded_months():
    """The spec's months, and 1 to 9 without their zero, as upstream's own folders write them."""
    spec = re.search(r"\| mes \| matches (\S+) \|", SPEC).group(1).replace("\\|", "|")
    unpadded = {str(m) for m in range(1, 10)}
    for path in ("/v1/rems/{año}/{mes}", "/v1/senado/viajes/nacionales/{año}/{mes}"):
        ours = param(path, "mes")["schema"]["pattern"]
        for text in [f"{m:02d}" for m in range(0, 100)] + ["0", "1", "9", "10", "001", "1a", ""]:
            assert bool(re.search(ours, text)) == (bool(re.search(spec, text)) or text in unpadded), (path, text)


@pytest.mark.mirror
def test_casa_enum_is_the_spec_enum_plus_tarjeta():
    spec = re.search(r"\| casa \| string, one of: ([^|]+) \|", SPEC).group(1)
    spec_enum = {c.strip() for c in spec.split(",")}
    for path in ("/v1/cotizaciones/dolares/{casa}", "/v1/cotizaciones/dolares/{casa}/{fecha}"):
        assert set(param(path, "casa")["schema"]["enum"]) == spec_enum | {"tarjeta"}


@pytest.mark.parametrize(
    "path,name,good,bad",
    [
        ("/v1/cotizaciones/dolares/{casa}/{fecha}", "fecha", ["2025/01/02"], ["2025-01-02", "ultimo", "25/01/02"]),
        (
            "/v1/finanzas/fci/{categoria}/{fecha}",
            "fecha",
            ["2025/01/02", "ultimo", "penultimo"],
            ["ayer", "2025-01-02"],
        ),
        ("/v1/finanzas/fci/fondos/{nombre}", "nombre", ["1810-ahorro", "fondo-x"], ["Fondo", "a--b", "-a", "a_b"]),
        ("/v1/senado/senadores/{id}/viajes", "id", ["580"], ["abc", ""]),
    ],
)
def test_string_parameters_carry_their_pattern(path, name, good, bad):
    validator = OAS30Validator(param(path, name)["schema"])
    assert all(validator.is_valid(v) for v in good)
    assert not any(validator.is_valid(v) for v in bad)


# ---- the spec's routes are all served -----------------------------------------------
def spec_routes() -> list[str]:
    if not SPEC:
        return []
    section = SPEC[SPEC.index("## Endpoints") : SPEC.index("## Authentication")]
    return sorted(set(re.findall(r"^\| (/v1/\S+) \|", section, re.M)))


@pytest.mark.mirror
def test_spec_routes_are_read():
    assert len(spec_routes()) > 30


def param_example(name: str):
    return next(p["example"] for op in OPERATIONS.values() for p in op["parameters"] if p["name"] == name)


def served_path(spec_route: str) -> str:
    """The router's template answering a spec route (e.g. the five FCI categories share one)."""
    filled = re.sub(r"{([^}]+)}", lambda m: str(param_example(m.group(1))), spec_route)
    return ROUTER.match(filled)[0].path


@pytest.mark.parametrize("route", spec_routes())
def test_every_spec_route_is_documented_and_routed(route):
    assert served_path(route) in DOC["paths"]


def routes_beyond_the_spec() -> list[str]:
    return sorted({e.path for e in ROUTER.endpoints} - {served_path(r) for r in spec_routes()})


# ---- the API page (docs/api.md) ---------------------------------------------------
def test_api_page_route_table_is_current():
    start, end = ROUTE_TABLE_MARKERS
    assert start in API_PAGE and end in API_PAGE, (
        f"{ROUTE_TABLE_PAGE} debe tener la tabla de rutas entre los marcadores"
    )
    table = API_PAGE[API_PAGE.index(start) + len(start) : API_PAGE.index(end)]
    assert table.strip() == markdown_table(ROUTER).strip(), (
        f"la tabla de rutas de {ROUTE_TABLE_PAGE} no está al día: "
        "regenerarla con python -m argentina_datos.documentacion.openapi --markdown"
    )


@pytest.mark.mirror
def test_api_page_names_every_route_beyond_the_spec():
    section = API_PAGE[API_PAGE.index("# API /v1") :]
    beyond = routes_beyond_the_spec()
    assert "/v1/feriados" in beyond and "/v1/rems/ultimo" in beyond
    missing = [r for r in beyond if f"`{r}`" not in section.split(ROUTE_TABLE_MARKERS[1])[1]]
    assert not missing, f"{ROUTE_TABLE_PAGE} no explica estas rutas fuera de la especificación: {missing}"
    assert OPENAPI_PATH in section


# ---- the document takes exactly what the server takes ---------------------------------
def _candidate_texts(p) -> list[str]:
    """Values near every edge of a parameter: the calendar around February and month ends in leap
    and common years (and year 0000, which has no dates), months, years, and malformed text."""
    years = ["0000", "0001", "0004", "0100", "0400", "1900", "2000", "2023", "2024", "2025", "2100", "2400", "9999"]
    dates = [f"{y}/{m:02d}/{d:02d}" for y in years for m in (0, 1, 2, 4, 12, 13) for d in (0, 1, 28, 29, 30, 31, 32)]
    numbers = [str(n) for n in (0, 1, 2010, 2011, 2012, 2015, 2016, 2026, 2027, 2030, 9999, 10000)]
    return [
        *dates,
        *numbers,
        "2025-01-02",
        "2025/1/2",
        "ultimo",
        "penultimo",
        "ayer",
        "01",
        "12",
        "13",
        "1",
        "abc",
        "a--b",
        "1810-renta-dolar-clase-a",
        "580",
        "1234567890",
        "",
        *(p.choices or ()),
    ]


def _server_takes(p, text: str) -> bool:
    try:
        p.parse(text)
    except BadParam:
        return False
    return True


@pytest.mark.parametrize("endpoint", [e for e in ROUTER.endpoints if e.params], ids=lambda e: e.path)
def test_parameter_schemas_take_exactly_what_the_parser_takes(endpoint):
    for p in endpoint.params:
        schema = param(endpoint.path, p.name)["schema"]
        validator = OAS30Validator(schema)
        for text in _candidate_texts(p):
            value = int(text) if schema["type"] == "integer" and text.isdigit() else text
            if schema["type"] == "integer" and not isinstance(value, int):
                continue  # a path can only carry digits for an integer parameter
            if p.maximum is not None and value > p.maximum:
                continue  # above the spec's year it depends on the data: checked against the server below
            assert validator.is_valid(value) == _server_takes(p, text), (endpoint.path, p.name, text)


def test_calendar_dates_follow_the_leap_years():
    fecha = OAS30Validator(param("/v1/cotizaciones/dolares/{casa}/{fecha}", "fecha")["schema"])
    assert fecha.is_valid("2024/02/29") and fecha.is_valid("2000/02/29") and fecha.is_valid("0004/02/29")
    assert not any(
        fecha.is_valid(d) for d in ("2025/02/29", "1900/02/29", "2025/02/30", "2025/04/31", "0000/01/01", "0000/02/29")
    )


async def test_year_maximum_is_the_last_year_served(ds, conn):
    maxima = Responder(ROUTER).served_maxima(conn)
    served = orjson.loads((await ds.client.get(OPENAPI_PATH)).content)
    top = served["paths"]["/v1/feriados/{año}"]["get"]["parameters"][0]["schema"]["maximum"]
    assert top == maxima[("/v1/feriados/{año}", "año")] >= 2027  # upstream already has next year's
    assert (await ds.client.get(f"/v1/feriados/{top}")).status_code == 200
    above = await ds.client.get(f"/v1/feriados/{top + 1}")
    assert above.status_code == 404 and above.json()["parametro"] == "año"
    for (path, name), value in maxima.items():
        schema = next(p for p in served["paths"][path]["get"]["parameters"] if p["name"] == name)["schema"]
        assert schema["maximum"] == value, path
