"""Errors under /v1: the right 4xx, always JSON in the one documented shape, never a 500 or HTML.

404 = no file upstream would publish: an unknown path, a path value malformed or out of its bounds
(the message says why), or well-formed without data; 400 = our own query parameters only; 405 = a method other than GET/HEAD/OPTIONS; 414 = a path too long to route.
"""

import re
from http import HTTPStatus

import orjson
import pytest
from openapi_schema_validator import OAS30Validator
from raw_asgi import call

from argentina_datos.documentacion.openapi import ERROR_SCHEMA
from argentina_datos.respuestas.rutas import Router

JSON_TYPE = "application/json; charset=utf-8"
SQL_INJECTION = "'%20OR%201=1"


def assert_error(response, status: int, parametro):
    """The documented shape: {status, error, mensaje, parametro}, as JSON, with the status sent."""
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == JSON_TYPE
    body = orjson.loads(response.content)
    assert set(body) == {"status", "error", "mensaje", "parametro"}
    assert body["status"] == status
    # RFC 9110 renamed 414; Python's table keeps the older "Request-URI Too Long".
    assert body["error"] == {414: "URI Too Long"}.get(status, HTTPStatus(status).phrase)
    assert isinstance(body["mensaje"], str) and body["mensaje"].strip()
    assert body["parametro"] == parametro, body
    OAS30Validator(ERROR_SCHEMA).validate(body)
    return body


# ---- 404 naming the value: malformed or out of bounds ---------------------------------
BAD_REQUEST = [
    # año: below the spec's minimum, above its maximum without data, not four digits
    ("/v1/feriados/2015", "año"),
    ("/v1/feriados/2030", "año"),
    ("/v1/feriados/abcd", "año"),
    ("/v1/feriados/02025", "año"),
    ("/v1/feriados/-1", "año"),
    ("/v1/feriados/2025.0", "año"),
    ("/v1/feriados-bancarios/2010", "año"),
    ("/v1/feriados-bancarios/2031", "año"),
    ("/v1/senado/viajes/internacionales/2011", "año"),
    ("/v1/senado/viajes/internacionales/2099", "año"),
    ("/v1/senado/viajes/nacionales/2011/10", "año"),
    ("/v1/rems/2015/10", "año"),
    # mes: two digits, 01 to 12
    ("/v1/rems/2025/13", "mes"),
    ("/v1/rems/2025/00", "mes"),
    ("/v1/rems/2025/13", "mes"),
    ("/v1/senado/viajes/nacionales/2025/13", "mes"),
    # casa: the spec's enum plus tarjeta, case-sensitive
    ("/v1/cotizaciones/dolares/euro", "casa"),
    ("/v1/cotizaciones/dolares/Blue", "casa"),
    ("/v1/cotizaciones/dolares/euro/2025/01/02", "casa"),
    # fecha: a real calendar date written AAAA/MM/DD
    ("/v1/cotizaciones/dolares/blue/2025/02/30", "fecha"),
    ("/v1/cotizaciones/dolares/blue/2025/13/01", "fecha"),
    ("/v1/cotizaciones/dolares/blue/2025/1/2", "fecha"),
    ("/v1/cotizaciones/dolares/blue/2025-01-02", "fecha"),
    ("/v1/cotizaciones/dolares/blue/2025/01", "fecha"),
    ("/v1/cotizaciones/dolares/blue/ultimo", "fecha"),
    # FCI: the category, and a date or ultimo / penultimo
    ("/v1/finanzas/fci/acciones/ultimo", "categoria"),
    ("/v1/finanzas/fci/rentaFija/ayer", "fecha"),
    ("/v1/finanzas/fci/rentaFija/Ultimo", "fecha"),
    ("/v1/finanzas/fci/rentaFija/2025/02/29", "fecha"),
    # fund nombre: a lower-case hyphen slug
    ("/v1/finanzas/fci/fondos/1810-Ahorro", "nombre"),
    ("/v1/finanzas/fci/fondos/1810_ahorro", "nombre"),
    ("/v1/finanzas/fci/fondos/-1810", "nombre"),
    ("/v1/finanzas/fci/fondos/a--b", "nombre"),
    ("/v1/finanzas/fci/fondos/1810-Ahorro/historico", "nombre"),
    # senator id
    ("/v1/senado/senadores/abc/viajes", "id"),
    ("/v1/senado/senadores/1234567890/viajes", "id"),
    # SQL injection attempts are just malformed values
    ("/v1/feriados/2025" + SQL_INJECTION, "año"),
    ("/v1/cotizaciones/dolares/blue" + SQL_INJECTION, "casa"),
    ("/v1/finanzas/fci/fondos/x'%3B%20DROP%20TABLE%20fci_fondos%3B--", "nombre"),
    ("/v1/senado/senadores/1%20OR%201=1/viajes", "id"),
    ("/v1/rems/2025/01%22%20OR%20%221%22=%221", "mes"),
]


@pytest.mark.parametrize("path,parametro", BAD_REQUEST)
async def test_malformed_or_out_of_bounds_is_404_saying_why(ds, path, parametro):
    body = assert_error(await ds.client.get(path), 404, parametro)
    assert parametro in body["mensaje"] or "fecha" in body["mensaje"]


# The paths of issue 34 that upstream answers 404 (it has no file for them) and we once answered 400.
NO_UPSTREAM_FILE = [
    ("/v1/cotizaciones/dolares/mep", "casa", "oficial, blue"),
    ("/v1/cotizaciones/dolares/BLUE", "casa", "oficial, blue"),
    ("/v1/cotizaciones/dolares/blue/2024-01-01", "fecha", "AAAA/MM/DD"),
    ("/v1/cotizaciones/dolares/blue/2024/1/5", "fecha", "AAAA/MM/DD"),
    ("/v1/cotizaciones/dolares/blue/2024/02/30", "fecha", "no es una fecha del calendario"),
    ("/v1/feriados/2015", "año", "de 2016 a"),
    ("/v1/senado/actas/1982", "año", "«año» va de"),
    ("/v1/finanzas/rendimientos/Belo", "entidad", "«Belo»"),
    ("/v1/cotizaciones/euro", "moneda", "usd, eur"),
]


@pytest.mark.parametrize("path,parametro,why", NO_UPSTREAM_FILE)
async def test_no_upstream_file_is_a_404_that_says_why(ds, path, parametro, why):
    body = assert_error(await ds.client.get(path), 404, parametro)
    assert why in body["mensaje"], body["mensaje"]


# ---- 404: well-formed, no data -----------------------------------------------------
NO_DATA = [
    ("/v1/feriados/2018", "año"),  # in bounds, no file
    ("/v1/feriados/2016", "año"),
    ("/v1/feriados-bancarios/2026", "año"),
    ("/v1/cotizaciones/dolares/blue/1990/01/01", "fecha"),  # a date with no quote
    ("/v1/cotizaciones/dolares/turista/2000/02/29", "fecha"),
    ("/v1/finanzas/fci/rentaFija/1990/01/02", "fecha"),
    ("/v1/finanzas/fci/fondos/no-existe", "nombre"),
    ("/v1/finanzas/fci/fondos/no-existe/historico", "nombre"),
    ("/v1/senado/senadores/999999/viajes", "id"),
    ("/v1/rems/2040/01", "mes"),  # no maximum for the REM year: a future report is just missing
    ("/v1/senado/viajes/nacionales/2012/01", "mes"),
]


@pytest.mark.parametrize("path,parametro", NO_DATA)
async def test_well_formed_without_data_is_404(ds, path, parametro):
    body = assert_error(await ds.client.get(path), 404, parametro)
    assert "no hay" in body["mensaje"]


async def test_no_data_message_names_the_values_as_typed(ds):
    body = assert_error(await ds.client.get("/v1/cotizaciones/dolares/turista/2000/02/29"), 404, "fecha")
    assert "casa = turista" in body["mensaje"] and "fecha = 2000/02/29" in body["mensaje"]


async def test_a_404_without_data_says_what_there_is(ds, conn):
    """A year without holidays names the years there are; a day without a quote, the series' first and last day."""
    years = [y for (y,) in conn.execute("SELECT DISTINCT listado FROM feriados ORDER BY 1")]
    missing = next(str(y) for y in range(2016, 2030) if str(y) not in years)
    body = assert_error(await ds.client.get(f"/v1/feriados/{missing}"), 404, "año")
    assert f"(hay {', '.join(years)})" in body["mensaje"]
    first, last = conn.execute("SELECT min(fecha), max(fecha) FROM cotizaciones_dolares WHERE casa = 'blue'").fetchone()
    body = assert_error(await ds.client.get("/v1/cotizaciones/dolares/blue/1999/01/04"), 404, "fecha")
    assert body["mensaje"].endswith(f"(hay del {first} al {last})")


async def test_publicado_after_today_is_a_400(ds):
    body = assert_error(
        await ds.client.get("/v1/finanzas/indices/riesgo-pais/ultimo?publicado=2099-01-01"), 400, "publicado"
    )
    assert "posterior a hoy" in body["mensaje"]
    ok = await ds.client.get("/v1/finanzas/indices/riesgo-pais/ultimo?publicado=2025-01-02")
    assert ok.status_code == 200


async def test_every_bound_message_of_a_route_gives_the_same_range(ds):
    """One source of bounds: below the minimum, above the last year served, malformed, and the OpenAPI
    document all say the same range (the last year served, not the spec's maximum)."""
    document = (await ds.client.get("/v1/openapi.json")).json()
    parameter = next(p for p in document["paths"]["/v1/feriados/{año}"]["get"]["parameters"] if p["name"] == "año")
    served = parameter["schema"]["maximum"]
    expected = f"de 2016 a {served}"
    assert expected in parameter["description"]
    for path in ("/v1/feriados/2015", f"/v1/feriados/{served + 1}", "/v1/feriados/-1", "/v1/feriados/20x5"):
        body = assert_error(await ds.client.get(path), 404, "año")
        assert expected in body["mensaje"], (path, body["mensaje"])


async def test_desde_after_hasta_is_a_400_naming_both(ds):
    body = assert_error(await ds.client.get("/v1/finanzas/indices/uva?desde=2025-01-01&hasta=2024-01-01"), 400, "desde")
    assert "«desde» (2025-01-01)" in body["mensaje"] and "«hasta» (2024-01-01)" in body["mensaje"]


# ---- above the spec's maximum: accepted only when the data has it -------------------
async def test_year_above_spec_maximum_with_data_is_served(ds):
    response = await ds.client.get("/v1/feriados/2027")
    assert response.status_code == 200
    assert all(f["fecha"].startswith("2027-") for f in response.json())


# ---- 404: unknown paths -------------------------------------------------------------
UNKNOWN = [
    "/v1",
    "/v1/",
    "/v1/nada",
    "/v1/FERIADOS/2025",
    "/v1/feriados.json",
    "/v1/feriados/2025/extra",
    "/v1//feriados/2025",
    "/v1/feriados//2025",
    "/v1/cotizaciones/dolares/blue/2025/01/02/03",
    "/v1/finanzas/fci/fondos/x/y",
    "/v1/%E2%82%AC",
    "/v1/%00",
    "/v1/..%2F..%2Fetc%2Fpasswd",
    "/v1/senado/senadores/580",
]


@pytest.mark.parametrize("path", UNKNOWN)
async def test_unknown_path_is_404(ds, path):
    response = await ds.client.get(path)
    body = assert_error(response, 404, None)
    assert "/v1/openapi.json" in body["mensaje"]
    assert response.headers["link"] == '</v1/openapi.json>; rel="service-desc"'


# ---- a path in another case, or a guessed name: the JSON 404 names the route it meant ------------
@pytest.mark.parametrize(
    "path, meant",
    [
        ("/V1/feriados/2025", "/v1/feriados/2025"),
        ("/V1", None),
        ("/v1/Feriados/2025", "/v1/feriados/2025"),
        ("/V1/cotizaciones/dolares/blue?desde=2025-01", "/v1/cotizaciones/dolares/blue"),
        ("/v1/finanzas/indices/riesgoPais", "/v1/finanzas/indices/riesgo-pais"),
        ("/v1/indices/reservas", None),
    ],
)
async def test_a_path_in_another_case_or_a_guessed_name_is_a_json_404_naming_the_route(ds, path, meant):
    response = await ds.client.get(path)
    body = assert_error(response, 404, None)
    assert response.headers["link"] == '</v1/openapi.json>; rel="service-desc"'
    if meant:
        assert f"¿quiso decir {meant}?" in body["mensaje"]
    else:
        assert "quiso decir" not in body["mensaje"]


# ---- 405: only GET, HEAD and OPTIONS ------------------------------------------------
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("path", ["/v1/feriados/2025", "/v1/nada"])
async def test_other_methods_are_405(ds, method, path):
    response = await ds.client.request(method, path)
    assert_error(response, 405, None)
    assert "GET" in response.headers["allow"]


# ---- long paths -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        "/v1/" + "a" * 3000,
        "/v1/finanzas/fci/fondos/" + "a" * 3000,
        "/v1/feriados/" + "2025" * 750,
    ],
)
async def test_a_3000_character_path_is_a_4xx(ds, path):
    response = await ds.client.get(path)
    assert 400 <= response.status_code < 500
    assert_error(response, response.status_code, None)


# ---- trailing slashes mean the same route ------------------------------------------
async def test_trailing_slash_is_the_same_route(ds):
    plain = await ds.client.get("/v1/feriados/2025")
    slashed = await ds.client.get("/v1/feriados/2025/")
    assert plain.status_code == slashed.status_code == 200
    assert plain.content == slashed.content
    assert_error(await ds.client.get("/v1/feriados/2015/"), 404, "año")


# ---- the whole router against hostile values: never a 500, never HTML ----------------
# ".." is missing on purpose: httpx resolves dot segments before sending (the raw test below sends it).
HOSTILE = [
    "",
    " ",
    "%20",
    "'",
    "%27",
    '"',
    ";",
    "--",
    "%",
    "%25",
    "0",
    "-0",
    "9" * 12,
    "x" * 300,
    "1e3",
    "año",
    "%C3%B1",
    "%F0%9F%92%B8",
    "%00",
    "%0A",
    "<script>",
    "2025/01/02",
    "ultimo",
    "null",
    "[]",
    "{}",
    "*",
    "%2F",
    "\\",
]


def _hostile_paths():
    for endpoint in Router().endpoints:
        for value in HOSTILE:
            path = endpoint.path
            for p in endpoint.params:
                path = path.replace("{" + p.name + "}", value)
            yield path


async def test_hostile_values_on_every_route_never_500_nor_html(ds):
    seen = []
    for path in _hostile_paths():
        response = await ds.client.get(path)
        seen.append(response.status_code)
        assert response.status_code < 500, (path, response.text[:200])
        assert response.headers["content-type"] == JSON_TYPE, path
        if response.status_code >= 400:
            assert_error(response, response.status_code, orjson.loads(response.content)["parametro"])
    assert 200 in seen and 404 in seen


async def test_undecodable_path_bytes_still_answer_json(ds):
    # A lone surrogate is what an ASGI server leaves for bytes that are not UTF-8.
    response = await call(ds.app(), "/v1/feriados/\udcff")
    assert response.status == 404
    assert response.headers["content-type"] == JSON_TYPE
    assert orjson.loads(response.body)["parametro"] == "año"
    response = await call(ds.app(), "/v1/\udcff")
    assert response.status == 404
    assert orjson.loads(response.body)["status"] == 404


async def test_dot_segments_are_not_resolved_into_another_route(ds):
    response = await call(ds.app(), "/v1/feriados/..")
    assert response.status == 404 and orjson.loads(response.body)["parametro"] == "año"
    response = await call(ds.app(), "/v1/../v1/feriados/2025")
    assert response.status == 404 and response.headers["content-type"] == JSON_TYPE


async def test_outside_v1_is_left_to_datasette(ds):
    # The JSON-only rule is for /v1; /v10 and /v1x are not the API.
    response = await ds.client.get("/v1x")
    assert response.status_code == 404
    assert "json" not in response.headers["content-type"]


@pytest.mark.parametrize(
    "padded, unpadded",
    [("/v1/rems/2026/01", "/v1/rems/2026/1"), ("/v1/finanzas/rem/2026/09", "/v1/finanzas/rem/2026/9")],
)
async def test_a_month_with_or_without_its_zero_answers_the_same(ds, padded, unpadded):
    """Upstream's month folders are not always zero-padded (…/nacionales/2019/1, …/rem/2026/09)."""
    a, b = await ds.client.get(padded), await ds.client.get(unpadded)
    assert a.status_code == b.status_code == 200
    assert a.content == b.content
    document = (await ds.client.get("/v1/openapi.json")).json()
    mes = next(p for p in document["paths"]["/v1/rems/{año}/{mes}"]["get"]["parameters"] if p["name"] == "mes")
    assert re.fullmatch(mes["schema"]["pattern"], "9") and re.fullmatch(mes["schema"]["pattern"], "09")
    assert not re.fullmatch(mes["schema"]["pattern"], "13") and not re.fullmatch(mes["schema"]["pattern"], "009")
