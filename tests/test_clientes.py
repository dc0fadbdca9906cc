"""What real clients of the public API do, replayed against both ways of serving it: ``serve-datos`` (a
real server process) and the tree that ``exportar-v1`` writes, behind a real nginx with deploy/nginx.conf.

Each pattern is a call a client written against upstream makes (an SDK's GET with its own headers, a
browser's CORS preflight, a cache's revalidation, a bot asking for a house or a year that does not exist),
on a small database of our own, and each must behave as upstream's host does: 200 with the same body,
204 for a preflight that allows what it asks for, 304 for a fresh validator, a JSON 404 for anything
upstream publishes no file for. A real Chromium on another origin reads both with an SDK's content-type.
"""

from __future__ import annotations

import http.client
import os
import socket
from pathlib import Path
from urllib.parse import urlsplit

import orjson
import pytest
from ayudas import build_tables, write_file
from servidor_datos import ServeDatos
from servidor_nginx import Nginx, deploy_server, find_nginx

from argentina_datos.publicacion import exportar_v1

pytestmark = pytest.mark.lento

JSON_TYPE = "application/json; charset=utf-8"
# The all-houses list disagrees with the official house's own list on 2025-01-03 (compra 873 / 913), as
# upstream's lists do on 2024-05-30: a house on a date is the all-houses list's record, as upstream cuts it.
DOLARES = [
    {"casa": "oficial", "compra": 1000, "venta": 1050, "fecha": "2025-01-02"},
    {"casa": "blue", "compra": 1200, "venta": 1230, "fecha": "2025-01-02"},
    {"casa": "oficial", "compra": 873, "venta": 913, "fecha": "2025-01-03"},
    {"casa": "blue", "compra": 1210, "venta": 1240, "fecha": "2025-01-03"},
]
OFICIAL = [DOLARES[0], {**DOLARES[2], "compra": 913}]
BLUE = [DOLARES[1], DOLARES[3]]
FERIADOS = {
    "2024": [{"fecha": "2024-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}],
    "2025": [
        {"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"},
        {"fecha": "2025-03-03", "tipo": "inamovible", "nombre": "Carnaval"},
        {"fecha": "2025-03-04", "tipo": "inamovible", "nombre": "Carnaval"},
    ],
}
# An SDK's own headers on every GET (a TypeScript client sends content-type even without a body).
SDK = {"Accept": "application/json", "Content-Type": "application/json", "User-Agent": "ejemplo-sdk/1.0"}


@pytest.fixture(scope="module")
def small_db(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("clientes")
    src = root / "src"
    write_file(src, "v1/cotizaciones/dolares", DOLARES)
    write_file(src, "v1/cotizaciones/dolares/oficial", OFICIAL)
    write_file(src, "v1/cotizaciones/dolares/blue", BLUE)
    write_file(src, "v1/cotizaciones/dolares/2025/01/02", DOLARES[:2])  # 2025/01/03 has no file: the list's day
    write_file(src, "v1/feriados", FERIADOS["2025"])
    for year, records in FERIADOS.items():
        write_file(src, f"v1/feriados/{year}", records)
    db = root / "clientes.db"
    tables = ["cotizaciones_dolares", "cotizaciones_dolares_casa", "cotizaciones_dolares_fecha", "feriados"]
    build_tables(src, db, tables).close()
    return db


@pytest.fixture(scope="module")
def serve_datos(small_db):
    with ServeDatos(small_db) as server:
        yield server


@pytest.fixture(scope="module")
def nginx(small_db, tmp_path_factory):
    binary = find_nginx()
    if binary is None:
        pytest.skip("nginx no está instalado: apt-get install nginx-light (scripts/paquetes.sh lo instala como root)")
    out = tmp_path_factory.mktemp("publicado")
    exportar_v1.export(small_db, out)
    with Nginx(binary, lambda port: deploy_server(port, out)) as url:
        yield url


@pytest.fixture(params=["serve-datos", "nginx"])
def base(request) -> str:
    """The URL of each way of serving /v1."""
    return (
        request.getfixturevalue("serve_datos").url
        if request.param == "serve-datos"
        else request.getfixturevalue("nginx")
    )


def call(base: str, path: str, method: str = "GET", headers: dict | None = None) -> tuple[int, dict, bytes]:
    """One request as a plain HTTP client makes it: (status, lower-case headers, body)."""
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        conn.request(method, path, headers={"Accept-Encoding": "identity", **(headers or {})})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def ok(base: str, path: str, headers: dict | None = None) -> tuple[dict, object]:
    status, h, body = call(base, path, headers=headers)
    assert status == 200, (path, status, body[:200])
    assert h["content-type"] == JSON_TYPE and h["access-control-allow-origin"] == "*"
    return h, orjson.loads(body)


def not_found(base: str, path: str) -> dict:
    status, h, body = call(base, path, headers=SDK)
    assert status == 404, (path, status, body[:200])
    assert h["content-type"] == JSON_TYPE and h["access-control-allow-origin"] == "*"
    error = orjson.loads(body)
    assert error["status"] == 404 and error["error"] == "Not Found" and error["mensaje"]
    return error


# ---- the patterns ------------------------------------------------------------------------------
def test_an_sdk_get_with_its_own_headers(base):
    _, data = ok(base, "/v1/cotizaciones/dolares", SDK)
    assert data == DOLARES


@pytest.mark.parametrize(
    "path", ["/v1/feriados/2025/", "/v1/feriados/2025/index.json", "/v1/feriados/2025/index.json/"]
)
def test_a_trailing_slash_or_the_files_own_name_is_the_route(base, path):
    assert ok(base, path)[1] == ok(base, "/v1/feriados/2025")[1] == FERIADOS["2025"]


def test_upstreams_literal_paths(base):
    assert ok(base, "/v1/cotizaciones/dolares/index.json")[1] == DOLARES
    assert ok(base, "/v1/cotizaciones/dolares/2025/01/02/index.json")[1] == DOLARES[:2]


def test_per_date_paths_with_slashes(base):
    assert ok(base, "/v1/cotizaciones/dolares/2025/01/02", SDK)[1] == DOLARES[:2]  # its own file
    assert ok(base, "/v1/cotizaciones/dolares/2025/01/03", SDK)[1] == DOLARES[2:]  # the list's day
    assert ok(base, "/v1/cotizaciones/dolares/blue/2025/01/02")[1] == DOLARES[1]


def test_a_house_on_a_date_where_the_lists_disagree_is_the_all_houses_record(base):
    assert ok(base, "/v1/cotizaciones/dolares/oficial")[1] == OFICIAL  # the house's own list, as published
    assert ok(base, "/v1/cotizaciones/dolares/oficial/2025/01/03")[1] == DOLARES[2]  # compra 873, not 913


def test_a_browser_preflight_for_a_get_with_content_type(base):
    status, h, body = call(
        base,
        "/v1/cotizaciones/dolares/blue",
        "OPTIONS",
        {
            "Origin": "https://app.ejemplo.org",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert status == 204 and body == b""
    assert h["access-control-allow-origin"] == "*"
    allowed = h["access-control-allow-headers"].lower()
    assert allowed == "*" or "content-type" in [a.strip() for a in allowed.split(",")]
    assert {m.strip() for m in h["access-control-allow-methods"].split(",")} >= {"GET", "HEAD", "OPTIONS"}
    assert int(h["access-control-max-age"]) > 0
    assert "html" not in h.get("content-type", "")


def test_head_is_get_without_the_body(base):
    g_status, got, body = call(base, "/v1/feriados/2025")
    h_status, head, nothing = call(base, "/v1/feriados/2025", "HEAD")
    assert g_status == h_status == 200 and body and nothing == b""
    for name in ("content-type", "content-length", "etag", "last-modified", "cache-control"):
        assert head[name] == got[name], name


def test_revalidation_with_if_none_match(base):
    h, _ = ok(base, "/v1/cotizaciones/dolares")
    status, again, body = call(base, "/v1/cotizaciones/dolares", headers={"If-None-Match": h["etag"]})
    assert status == 304 and body == b"" and again["etag"] == h["etag"]
    status, _, body = call(base, "/v1/cotizaciones/dolares", headers={"If-None-Match": '"otra-version"'})
    assert status == 200 and orjson.loads(body) == DOLARES


def test_revalidation_with_if_modified_since(base):
    h, _ = ok(base, "/v1/feriados/2025")
    status, again, body = call(base, "/v1/feriados/2025", headers={"If-Modified-Since": h["last-modified"]})
    assert status == 304 and body == b"" and again["last-modified"] == h["last-modified"]
    status, _, _ = call(base, "/v1/feriados/2025", headers={"If-Modified-Since": "Sat, 01 Jan 1994 00:00:00 GMT"})
    assert status == 200


def test_a_cache_may_keep_an_answer_ten_minutes_at_most(base):
    h, _ = ok(base, "/v1/feriados/2025")
    max_age = int(h["cache-control"].split("max-age=")[1].split(",")[0])
    assert 60 <= max_age <= 600


@pytest.mark.parametrize(
    "path",
    [
        "/v1/cotizaciones/dolares/mep",  # a house upstream does not have
        "/v1/cotizaciones/dolares/BLUE",
        "/v1/cotizaciones/dolares/blue/2025-01-02",  # a date not written AAAA/MM/DD
        "/v1/cotizaciones/dolares/blue/2025/1/2",
        "/v1/cotizaciones/dolares/blue/2025/02/30",  # a date that does not exist
        "/v1/feriados/2015",  # a year out of range
        "/v1/feriados/1990/index.json",
        "/v1/feriados/2018",  # in range, no file
        "/v1/nada",
    ],
)
def test_what_upstream_has_no_file_for_is_a_json_404(base, path):
    not_found(base, path)


def test_the_api_says_why_it_has_no_file(serve_datos):
    """The static tier can only say «no file»; serve-datos says which value is wrong and what it takes."""
    house = not_found(serve_datos.url, "/v1/cotizaciones/dolares/mep")
    assert house["parametro"] == "casa" and "oficial" in house["mensaje"] and "blue" in house["mensaje"]
    year = not_found(serve_datos.url, "/v1/feriados/2015")
    assert year["parametro"] == "año" and "va de 2016 a" in year["mensaje"]
    date = not_found(serve_datos.url, "/v1/cotizaciones/dolares/blue/2025/02/30")
    assert date["parametro"] == "fecha" and "no es una fecha del calendario" in date["mensaje"]


def test_a_raw_utf8_query_string_comes_back_readable(serve_datos):
    """Some clients send non-ASCII query values unencoded: the message must show them as sent."""
    request = "GET /v1/feriados/2025?desde=mañana HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", serve_datos.port), timeout=30) as s:
        s.sendall(request.encode("utf-8"))
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400"), head[:200]
    error = orjson.loads(body)
    assert error["parametro"] == "desde" and "«mañana»" in error["mensaje"], error


def test_grouping_what_has_no_measure_is_refused(serve_datos):
    status, _, body = call(serve_datos.url, "/v1/feriados/2025?agrupar=mes")
    error = orjson.loads(body)
    assert status == 400 and error["parametro"] == "agrupar" and "/v1/feriados/2025" in error["mensaje"]


# ---- a real browser ------------------------------------------------------------------------------
CHROMIUM = Path(os.environ.get("ARGENTINA_DATOS_CHROMIUM", "/usr/bin/chromium"))


@pytest.mark.parametrize("target", ["serve-datos", "nginx"])
def test_a_browser_app_on_another_origin_reads_the_api_with_content_type(serve_datos, nginx, target):
    """A web app's SDK sends content-type: application/json on its GETs: Chromium asks first (OPTIONS), and
    reads the answer only if the preflight allows that header. The page is on the other server's origin."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.skip(f"no hay Chromium en {CHROMIUM}: apt-get install chromium (scripts/paquetes.sh)")
    api, page_origin = (serve_datos.url, nginx) if target == "serve-datos" else (nginx, serve_datos.url)
    script = """async (url) => {
        const r = await fetch(url, {headers: {"content-type": "application/json"}});
        return [r.status, await r.json()];
    }"""
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.goto(page_origin + "/v1/feriados/2025", timeout=15_000)
            status, data = page.evaluate(script, api + "/v1/cotizaciones/dolares/oficial/2025/01/03")
        finally:
            browser.close()
    assert (status, data) == (200, DOLARES[2])
