"""HTTP behaviour of /v1: content type, CORS, ETag/Cache-Control, 304, gzip, HEAD, OPTIONS."""

import gzip
import re

import orjson
import pytest
from raw_asgi import call

JSON_TYPE = "application/json; charset=utf-8"
ROUTES = ["/v1/feriados/2025", "/v1/cotizaciones/dolares/blue", "/v1/finanzas/fci/fondos", "/v1/openapi.json"]
ANSWERS = ROUTES + ["/v1/feriados/2015", "/v1/feriados/2018", "/v1/nada"]  # 200s and 404s (2015: out of bounds)
ETAG = re.compile(r'^(W/)?"[^"]+"$')


@pytest.fixture(scope="module")
def app(ds):
    return ds.app()


@pytest.mark.parametrize("path", ANSWERS)
async def test_json_utf8_and_cors_on_every_answer(ds, path):
    response = await ds.client.get(path)
    assert response.headers["content-type"] == JSON_TYPE
    assert response.headers["access-control-allow-origin"] == "*"
    orjson.loads(response.content)


async def test_405_is_json_with_cors_too(ds):
    response = await ds.client.post("/v1/feriados/2025")
    assert response.status_code == 405
    assert response.headers["content-type"] == JSON_TYPE
    assert response.headers["access-control-allow-origin"] == "*"


@pytest.mark.parametrize("path", ROUTES)
async def test_etag_and_cache_control(ds, path):
    first = await ds.client.get(path)
    second = await ds.client.get(path)
    assert first.status_code == 200
    assert ETAG.match(first.headers["etag"])
    assert first.headers["etag"] == second.headers["etag"]
    assert re.search(r"max-age=\d+", first.headers["cache-control"])


async def test_different_content_has_a_different_etag(ds):
    a = await ds.client.get("/v1/feriados/2025")
    b = await ds.client.get("/v1/feriados/2026")
    assert a.content != b.content and a.headers["etag"] != b.headers["etag"]


async def test_errors_are_cached_for_less_time_than_data(ds):
    ok = await ds.client.get("/v1/feriados/2025")
    missing = await ds.client.get("/v1/feriados/2018")

    def max_age(r):
        return int(re.search(r"max-age=(\d+)", r.headers["cache-control"]).group(1))

    assert max_age(missing) < max_age(ok)


@pytest.mark.parametrize("path", ROUTES)
async def test_if_none_match_gives_304(ds, path):
    etag = (await ds.client.get(path)).headers["etag"]
    for header in [etag, f'"otro", {etag}', "*"]:
        response = await ds.client.get(path, headers={"If-None-Match": header})
        assert response.status_code == 304, header
        assert response.content == b""
        assert response.headers["etag"] == etag
        assert response.headers["access-control-allow-origin"] == "*"


async def test_if_none_match_uses_weak_comparison(ds):
    # RFC 9110 §13.1.2: If-None-Match compares weakly, so W/"x" matches "x" (as proxies rewrite it).
    etag = (await ds.client.get("/v1/feriados/2025")).headers["etag"]
    weak = etag if etag.startswith("W/") else "W/" + etag
    response = await ds.client.get("/v1/feriados/2025", headers={"If-None-Match": weak})
    assert response.status_code == 304


async def test_stale_etag_gives_the_full_answer(ds):
    response = await ds.client.get("/v1/feriados/2025", headers={"If-None-Match": '"viejo"'})
    assert response.status_code == 200 and response.json()


async def test_errors_never_answer_304(ds):
    etag = (await ds.client.get("/v1/feriados/2018")).headers["etag"]
    response = await ds.client.get("/v1/feriados/2018", headers={"If-None-Match": etag})
    assert response.status_code == 404


@pytest.mark.parametrize("path", ROUTES)
async def test_gzip_when_accepted_and_the_same_json(app, path):
    plain = await call(app, path)
    zipped = await call(app, path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert plain.status == zipped.status == 200
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in zipped.headers["vary"].lower()
    assert int(zipped.headers["content-length"]) == len(zipped.body) < len(plain.body)
    assert int(plain.headers["content-length"]) == len(plain.body)
    assert gzip.decompress(zipped.body) == plain.body
    assert zipped.headers["content-type"] == JSON_TYPE


async def test_no_gzip_without_accept_encoding(app):
    response = await call(app, "/v1/cotizaciones/dolares/blue", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in response.headers
    assert orjson.loads(response.body)


@pytest.mark.parametrize("accept", ["gzip;q=0", "identity, gzip;q=0", "br", "*;q=0", "gzip;q=abc"])
async def test_no_gzip_when_the_client_refuses_it(app, accept):
    response = await call(app, "/v1/cotizaciones/dolares/blue", headers={"Accept-Encoding": accept})
    assert "content-encoding" not in response.headers
    assert orjson.loads(response.body)


@pytest.mark.parametrize("accept", ["gzip;q=0.5", "*", "deflate, GZIP"])
async def test_gzip_with_quality_or_wildcard(app, accept):
    response = await call(app, "/v1/cotizaciones/dolares/blue", headers={"Accept-Encoding": accept})
    assert response.headers["content-encoding"] == "gzip"


async def test_each_encoding_has_its_own_etag_and_either_revalidates(app):
    path = "/v1/cotizaciones/dolares/blue"
    plain = await call(app, path)
    zipped = await call(app, path, headers={"Accept-Encoding": "gzip"})
    assert plain.headers["etag"] != zipped.headers["etag"]
    for tag in (plain.headers["etag"], zipped.headers["etag"]):
        again = await call(app, path, headers={"Accept-Encoding": "gzip", "If-None-Match": tag})
        assert again.status == 304
        assert again.headers["etag"] == zipped.headers["etag"]


@pytest.mark.parametrize("path", ROUTES + ["/v1/feriados/2015"])
async def test_head_has_get_headers_and_no_body(app, path):
    for encoding in ({}, {"Accept-Encoding": "gzip"}):
        get = await call(app, path, headers=encoding)
        head = await call(app, path, method="HEAD", headers=encoding)
        assert head.status == get.status
        assert head.body == b""
        for name in ("content-type", "content-length", "etag", "cache-control", "access-control-allow-origin"):
            assert head.headers.get(name) == get.headers.get(name), name


async def test_options_preflight_allows_any_origin(app):
    response = await call(
        app,
        "/v1/feriados/2025",
        method="OPTIONS",
        headers={"Origin": "https://ejemplo.org", "Access-Control-Request-Method": "GET"},
    )
    assert response.status == 204
    assert response.headers["access-control-allow-origin"] == "*"
    assert "GET" in response.headers["access-control-allow-methods"]
    assert response.headers["access-control-allow-headers"] == "*"
    assert int(response.headers["access-control-max-age"]) > 0


@pytest.mark.parametrize(
    "asked, allowed",
    [
        ("content-type", "content-type"),  # an SDK that sends content-type: application/json on its GETs
        ("Content-Type, If-None-Match, X-Api-Key", "Content-Type, If-None-Match, X-Api-Key"),
        ("content-type\r\nx-evil: 1", "*"),  # not a header list: not echoed
    ],
)
async def test_a_preflight_allows_the_headers_it_asks_for(app, asked, allowed):
    response = await call(
        app,
        "/v1/cotizaciones/dolares/blue",
        method="OPTIONS",
        headers={
            "Origin": "https://ejemplo.org",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": asked,
        },
    )
    assert response.status == 204 and response.body == b""
    assert response.headers["access-control-allow-headers"] == allowed
    assert response.headers["access-control-allow-methods"] == "GET, HEAD, OPTIONS"


async def test_slashes_of_a_date_may_come_encoded(ds):
    # OpenAPI clients encode a path parameter's "/" as %2F; the document says both forms work.
    plain = await ds.client.get("/v1/cotizaciones/dolares/blue/2025/01/02")
    encoded = await ds.client.get("/v1/cotizaciones/dolares/blue/2025%2F01%2F02")
    assert plain.status_code == encoded.status_code == 200
    assert plain.content == encoded.content


@pytest.mark.parametrize("path", ROUTES)
async def test_last_modified_is_the_build_time_and_if_modified_since_gives_304(ds, conn, path):
    from email.utils import format_datetime, parsedate_to_datetime

    [(built,)] = conn.execute("SELECT valor FROM _construccion WHERE clave = 'construido'")
    first = await ds.client.get(path)
    when = parsedate_to_datetime(first.headers["last-modified"])
    assert when.isoformat().replace("+00:00", "Z") == built
    same = await ds.client.get(path, headers={"If-Modified-Since": first.headers["last-modified"]})
    assert same.status_code == 304 and same.content == b""
    assert (
        same.headers["etag"] == first.headers["etag"]
        and same.headers["last-modified"] == first.headers["last-modified"]
    )
    earlier = format_datetime(when.replace(year=when.year - 1), usegmt=True)
    assert (await ds.client.get(path, headers={"If-Modified-Since": earlier})).status_code == 200
    # If-None-Match decides alone: a tag that does not match is a 200 whatever the date says.
    both = {"If-Modified-Since": first.headers["last-modified"], "If-None-Match": '"otra"'}
    assert (await ds.client.get(path, headers=both)).status_code == 200
    assert (await ds.client.get(path, headers={"If-Modified-Since": "ayer"})).status_code == 200


async def test_cache_control_is_at_most_ten_minutes(ds):
    ok, missing = await ds.client.get("/v1/feriados/2025"), await ds.client.get("/v1/feriados/2018")
    assert ok.headers["cache-control"] == "public, max-age=300"
    assert missing.headers["cache-control"] == "public, max-age=60"
    assert "last-modified" not in missing.headers


def test_max_age_comes_from_the_environment(monkeypatch):
    from argentina_datos.web.v1 import api

    monkeypatch.setenv(api.MAX_AGE_ENV, "90")
    api.cache_control.cache_clear()
    try:
        assert api.make_response(200, b"[]").cache_control == b"public, max-age=90"
        assert api.make_response(404, b"{}").cache_control == b"public, max-age=60"
        monkeypatch.setenv(api.MAX_AGE_ENV, "diez")
        api.cache_control.cache_clear()
        # serve-datos refuses it at startup; under another server it is the default (tests/test_api_cache.py)
        with pytest.raises(ValueError, match="ARGENTINA_DATOS_MAX_AGE.*'diez'"):
            api.max_age_setting()
    finally:
        monkeypatch.delenv(api.MAX_AGE_ENV)
        api.cache_control.cache_clear()


@pytest.mark.parametrize("suffix", ["/index.json", "/index.json/", "/"])
@pytest.mark.parametrize(
    "path", ["/v1/feriados/2025", "/v1/cotizaciones/dolares/blue/2025/01/02", "/v1/finanzas/fci/fondos"]
)
async def test_the_file_name_of_upstreams_tree_is_the_route(ds, path, suffix):
    plain, named = await ds.client.get(path), await ds.client.get(path + suffix)
    assert plain.status_code == named.status_code == 200
    assert plain.content == named.content and plain.headers["etag"] == named.headers["etag"]
    assert (await ds.client.get("/v1/feriados/1800/index.json")).status_code == 404
