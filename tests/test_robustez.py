"""Hostile input on the Datasette side and on the HTTP server around it: never a 5xx, errors answered
quickly as Datasette's own pages (HTML, or JSON for .json), bounded work per request, request-head
limits with a clean 4xx, and /v1 unaffected by heavy SQL elsewhere.

The /v1 side has its own tests (test_api_errors.py) and the schemathesis run (test_fuzz_api.py).
"""

import asyncio
import threading
import time
import urllib.parse

import orjson
import pytest
from raw_asgi import call
from servidor_datos import ServeDatos

from argentina_datos.web.complementos.cabeza import MAX_HEAD
from argentina_datos.web.servidor import SERVERS
from argentina_datos.web.v1.api import V1

JSON_TYPE = "application/json; charset=utf-8"
HTML_TYPE = "text/html; charset=utf-8"


def is_json_page(path: str) -> bool:
    return path.split("?")[0].endswith(".json")


def assert_datasette_error(response, status: int, path: str):
    assert response.status_code == status, (path, response.status_code, response.text[:300])
    if is_json_page(path):
        assert response.headers["content-type"].startswith("application/json"), path
        body = response.json()
        assert body["ok"] is False and body["status"] == status and body["error"], body
    else:
        assert response.headers["content-type"] == HTML_TYPE, path
        assert "<html" in response.text.lower()


# ---- unknown pages: a plain 404, quickly -------------------------------------------------
UNKNOWN_PAGES = [
    "/a/b/c/d/e/f",
    "/argentina/fci_valores/1/2/3/4/5",
    *(
        page + ext
        for page in ("/nope", "/argentina/no_existe", "/argentina/senadores/999999999")
        for ext in ("", ".json")
    ),
    "/-/nada",
    "/argentina-test/feriados",
]


@pytest.mark.parametrize("path", UNKNOWN_PAGES)
async def test_unknown_pages_are_404_pages(ds, path):
    assert_datasette_error(await ds.client.get(path), 404, path)


@pytest.mark.parametrize("path", ["/argentina/feriados/2025", "/argentina/feriados/2025.json"])
async def test_a_row_url_missing_key_parts_is_400(ds, path):
    # feriados' primary key is (listado, orden): Datasette ran its query with a parameter missing.
    assert_datasette_error(await ds.client.get(path), 400, path)


async def test_dot_segments_are_a_404_not_a_500(ds):
    # httpx would resolve the dots; the raw ASGI call sends them as a client can.
    for path in ["/argentina/../../etc/passwd", "/../../../etc/passwd", "/argentina/./feriados/../.."]:
        response = await call(ds.app(), path)
        assert response.status == 404, path


async def test_404_pages_do_no_traceback_work(ds):
    # Datasette's default handler printed a rich traceback with every local for each error:
    # ~0.5 s of event loop per 404. Forty in a row must take a small fraction of that.
    await ds.client.get("/nope-calentar")
    start = time.perf_counter()
    for i in range(40):
        response = await ds.client.get(f"/nope{i}")
        assert response.status_code == 404
    assert time.perf_counter() - start < 4.0


# ---- table parameters Datasette does not check ---------------------------------------------
BAD_TABLE_ARGS = [
    {"_sort": "nonexistent"},
    {"_sort_desc": "nonexistent"},
    {"_sort": "fecha", "_sort_desc": "fecha"},
    {"_where": ")))"},
    {"_where": "1) union select 1"},
    {"_where": "nonexistent = 1"},
    {"_where": "fecha = '\x00'"},
    {"_facet": "{bad json"},
    {"_facet": "{}"},
    {"_facet": '{"simple": 1}'},
    {"_facet": "nonexistent"},
    {"_facet_array": "{"},
    {"_facet_array": "fecha"},  # a column that holds no JSON lists
    {"_facet_date": "{}"},
    {"_facet": "\x00"},
    {"_through": "{"},
    {"_through": "[]"},
    {"_through": '{"table": "senadores"}'},
    {"_through": '{"table": "no_existe", "column": "id", "value": 1}'},
    {"_timelimit": "x"},
    {"fecha__in": "[1,"},
    {"id__gt": "99999999999999999999"},
    {"_facet_size": "{"},
    {"_col": "nonexistent"},
    {"_nocol": "nonexistent"},
]


@pytest.mark.parametrize("args", BAD_TABLE_ARGS, ids=lambda a: urllib.parse.urlencode(a))
@pytest.mark.parametrize("page", ["/argentina/feriados", "/argentina/feriados.json"])
async def test_bad_table_parameters_are_400(ds, page, args):
    path = page + "?" + urllib.parse.urlencode(args)
    assert_datasette_error(await ds.client.get(path), 400, path)


@pytest.mark.parametrize(
    "facet, value",
    [("_facet", "nonexistent"), ("_facet", "\x00"), ("_facet", '{"column": "nonexistent"}'), ("_facet_array", "fecha")],
)
async def test_a_facet_on_a_missing_column_is_400_and_leaves_no_coroutine_unawaited(ds, facet, value):
    """Datasette runs a page's facets in turn: the first one failing left the others never awaited."""
    import gc
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        response = await ds.client.get("/argentina/feriados.json", params={facet: value})
        gc.collect()
    assert response.status_code == 400
    error = response.json()["error"]
    assert error.startswith(facet) and ("no tiene la columna" in error or "no guarda listas JSON" in error)
    assert not [w for w in caught if "never awaited" in str(w.message)]


@pytest.mark.parametrize("page", ["/argentina/fci_valores_vista", "/argentina/fci_valores_vista.json"])
async def test_a_view_offset_that_is_not_a_number_is_400(ds, page):
    path = page + "?_next=abc"
    assert_datasette_error(await ds.client.get(path), 400, path)
    path = page + "?_next=99999999999999999999"
    assert_datasette_error(await ds.client.get(path), 400, path)
    assert (await ds.client.get(page + "?_next=5&_size=1")).status_code == 200


@pytest.mark.parametrize(
    "page",
    [
        "/argentina/brecha_cambiaria",
        "/argentina/dolar_por_casa.json",
        "/argentina/feriados.json",
        "/argentina.json?sql=select+1",
    ],
)
async def test_a_time_limit_that_is_not_a_number_is_400(ds, page):
    path = page + ("&" if "?" in page else "?") + "_timelimit=null"
    assert_datasette_error(await ds.client.get(path), 400, path)


@pytest.mark.parametrize("shape", ["array", "arrayfirst"])
async def test_a_row_shape_of_the_database_page_is_400(ds, shape):
    path = f"/argentina.json?_shape={shape}"
    assert_datasette_error(await ds.client.get(path), 400, path)
    assert (await ds.client.get(f"/argentina.json?sql=select+1&_shape={shape}")).status_code == 200


async def test_bad_sql_is_400(ds):
    for sql in ["select", "select * from no_existe", "select '\x00'", "drop table feriados"]:
        for page in ["/argentina", "/argentina.json"]:
            path = page + "?" + urllib.parse.urlencode({"sql": sql})
            response = await ds.client.get(path)
            assert response.status_code in (400, 403), (path, response.status_code)


# ---- bounded facets --------------------------------------------------------------------------
async def test_too_many_facets_is_a_quick_400(ds):
    path = "/argentina/fci_valores.json?" + "&".join(["_facet=vcp"] * 100)
    start = time.perf_counter()
    response = await ds.client.get(path)
    assert_datasette_error(response, 400, path)
    assert "5" in response.json()["error"]
    assert time.perf_counter() - start < 2.0


def limites_plugin():
    from argentina_datos.web.complementos import limites

    return limites


async def test_facets_share_one_time_budget(ds, monkeypatch):
    path = "/argentina/feriados.json?_facet=nombre&_facet=fecha&_size=1"  # plus tipo, from metadata.yml
    facets = (await ds.client.get(path)).json()["facet_results"]
    assert {"tipo", "nombre", "fecha"} <= set(facets)
    # A spent budget: every facet of the page is cut short, as a facet that runs out of time is.
    monkeypatch.setattr(limites_plugin(), "FACET_BUDGET_MS", 0)
    response = await ds.client.get(path)
    assert response.status_code == 200 and response.json()["facet_results"] == {}


async def test_heavy_facets_stay_within_the_budget(ds):
    # Five facets on the 850,000 rows of fci_valores, each one slower than its own 400 ms limit.
    path = "/argentina/fci_valores.json?" + "&".join(["_facet=vcp"] * 5) + "&_size=1"
    start = time.perf_counter()
    response = await ds.client.get(path)
    elapsed = time.perf_counter() - start
    assert response.status_code == 200, response.text[:300]
    assert elapsed < 4.0, elapsed


# ---- anything a client may send: never a 5xx --------------------------------------------------
SWEEP_PAGES = [
    "/argentina/feriados",
    "/argentina/feriados.json",
    "/argentina/feriados.csv",
    "/argentina/fci_fondos.json",
    "/argentina/fci_serie_vista.json",
    "/argentina/brecha_cambiaria",
    "/argentina/dolar_por_casa.json",
    "/argentina/senadores/1.json",
]
# A few parameters only: each page takes 0.1 s or more (fci_valores_vista ~0.9 s: counting its 1.6 million rows
# through its joins).
SLOW_PAGES = ["/", "/argentina", "/argentina.json", "/-/dashboards/series", "/argentina/fci_valores_vista.json"]
SWEEP_ARGS = [
    "_sort",
    "_sort_desc",
    "_where",
    "_facet",
    "_facet_array",
    "_facet_date",
    "_facet_size",
    "_size",
    "_next",
    "_col",
    "_nocol",
    "_search",
    "_searchmode",
    "_through",
    "_labels",
    "_shape",
    "_json",
    "_timelimit",
    "_ttl",
    "_stream",
    "_dl",
    "_nl",
    "_trace",
    "_hash",
    "sql",
    "fecha__gt",
    "fecha__in",
    "tipo__arraycontains",
    "fecha__date",
    "_search_nombre",
    "casa",
    "desde",
    "fecha",
    "id__gt",
    "id__lte",
]
SWEEP_VALUES = [
    "",
    "x",
    "fecha",
    "{",
    "{}",
    '{"simple": 1}',
    "[",
    "-1",
    "99999999999999999999",
    "-99999999999999999999",
    "1e308",
    "max",
    ")))",
    "'",
    "%",
    "\x00",
    "é",
    "select 1",
    "null",
    "objects",
    "array",
    "<script>",
]


async def test_any_query_parameter_on_any_page_is_never_a_5xx(ds):
    # Every parameter with every value, each pair on one of the pages in turn (all pages x all pairs
    # would take minutes), and the slow pages with the parameters that reach SQL.
    pairs = [(arg, value) for arg in SWEEP_ARGS for value in SWEEP_VALUES]
    paths = [
        SWEEP_PAGES[i % len(SWEEP_PAGES)] + "?" + urllib.parse.urlencode({arg: value})
        for i, (arg, value) in enumerate(pairs)
    ]
    paths += [
        page + "?" + urllib.parse.urlencode({arg: value})
        for page in SLOW_PAGES
        for arg in ("sql", "_where", "_facet", "_sort")
        for value in ("{", "\x00", ")))", "'")
    ]
    failures = []
    for path in paths:
        response = await ds.client.get(path)
        if response.status_code >= 500:
            failures.append((path, response.status_code, response.text[:120]))
    assert not failures, failures[:10]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND"])
@pytest.mark.parametrize("path", ["/", "/argentina/feriados", "/argentina/brecha_cambiaria", "/nope"])
async def test_other_methods_are_405_on_datasette_pages(ds, method, path):
    response = await ds.client.request(method, path, content=b"x" * 1000)
    assert response.status_code == 405


@pytest.mark.parametrize(
    "headers",
    [
        {"cookie": "ds_actor=basura"},
        {"cookie": "ds_messages=basura; ds_csrftoken=x"},
        {"cookie": "=;=;;"},
        {"authorization": "Bearer basura"},
        {"accept-encoding": "q=;;,,"},
        {"if-none-match": '"x", W/'},
        {"x-forwarded-for": "no-es-una-ip"},
        {"host": "otro:99999"},
        {"accept": "*/*;q=x"},
    ],
)
@pytest.mark.parametrize("path", ["/", "/argentina/feriados.json", "/nope", "/v1/feriados/2025"])
async def test_odd_headers_are_never_a_5xx(ds, headers, path):
    response = await ds.client.get(path, headers=headers)
    assert response.status_code < 500, (path, headers, response.text[:200])


# ---- /v1 does not queue behind Datasette's SQL ---------------------------------------------
SLOW_SQL = "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"


async def test_v1_runs_on_its_own_thread(ds, monkeypatch):
    threads = []
    compute = V1.compute

    def recording(self, *args, **kwargs):
        threads.append(threading.current_thread().name)
        return compute(self, *args, **kwargs)

    monkeypatch.setattr(V1, "compute", recording)
    # A query no other test sends: computed now, not answered from the cache (the conformance test
    # asks for every mirror file on the same server)
    response = await ds.client.get("/v1/feriados-bancarios/2013?desde=2013-02-11")
    assert response.status_code == 200
    assert threads and all(name.startswith("api-v1") for name in threads), threads


async def test_uncached_v1_is_not_held_up_by_slow_datasette_sql(ds):
    slow = "/argentina.json?" + urllib.parse.urlencode({"sql": SLOW_SQL})
    heavy = [asyncio.create_task(ds.client.get(slow)) for _ in range(2)]  # one more than the SQL turns
    await asyncio.sleep(0.3)
    assert not any(t.done() for t in heavy), "the slow query should run for its full 3 s limit"
    start = time.perf_counter()
    response = await ds.client.get("/v1/feriados-bancarios/2019?hasta=2019-12-29")  # not asked before: computed now
    elapsed = time.perf_counter() - start
    results = await asyncio.gather(*heavy)
    assert response.status_code == 200
    assert all(r.status_code == 400 for r in results)  # "SQL query took too long"
    assert elapsed < 1.5, f"/v1 waited {elapsed:.2f} s behind Datasette's SQL"


async def test_users_sql_takes_its_own_turns_and_pages_and_v1_do_not_wait(ds):
    # Three slow ?sql= queries: one runs, the others wait for the SQL turn (web/complementos/turnos.py);
    # neither a page nor /v1 waits behind them.
    assert (await ds.client.get("/v1/feriados/2025")).status_code == 200  # cached from here on
    slow = "/argentina.json?" + urllib.parse.urlencode({"sql": SLOW_SQL})
    heavy = [asyncio.create_task(ds.client.get(slow)) for _ in range(3)]
    await asyncio.sleep(0.3)
    start = time.perf_counter()
    assert (await ds.client.get("/v1/feriados/2025")).status_code == 200
    v1_elapsed = time.perf_counter() - start
    start = time.perf_counter()
    assert (await ds.client.get("/argentina/feriados?_size=5")).status_code == 200
    page_elapsed = time.perf_counter() - start
    assert sum(t.done() for t in heavy) == 0, "the slow queries should still run or wait"
    results = await asyncio.gather(*heavy)
    assert [r.status_code for r in results] == [400, 400, 400]  # each ran into its time limit, in turn
    assert v1_elapsed < 0.5, v1_elapsed
    assert page_elapsed < 1.5, page_elapsed


# ---- the real HTTP server: head limits, malformed requests -------------------------------------
# Both servers serve-datos can run. What each server's own parser refuses before the app sees the
# request (a head past granian's 400 KB buffer or over 100 headers, bytes that are not HTTP) granian
# answers itself with the right status and an empty body; uvicorn's is answered by web/protocolo.py
# with /v1's JSON. Heads between the limits and granian's buffer reach web/complementos/cabeza.py.
@pytest.fixture(scope="module", params=SERVERS)
def server(request, db_path):
    with ServeDatos(db_path, server=request.param) as srv:
        yield srv


def status_of(raw: bytes) -> int:
    assert raw.startswith(b"HTTP/1.1 "), raw[:200]
    return int(raw.split(b" ", 2)[1])


def head_and_body(raw: bytes) -> tuple[dict, bytes]:
    head, _, body = raw.partition(b"\r\n\r\n")
    headers = dict(line.decode("latin1").lower().split(": ", 1) for line in head.split(b"\r\n")[1:])
    return headers, body


def assert_v1_json_error(raw: bytes, status: int):
    assert status_of(raw) == status, raw[:300]
    headers, body = head_and_body(raw)
    assert headers["content-type"] == JSON_TYPE
    error = orjson.loads(body)
    assert error["status"] == status and error["parametro"] is None and error["mensaje"]


def assert_parser_refused(server, raw: bytes, status: int):
    """What the HTTP server refuses itself: /v1's JSON with uvicorn; with granian the status, an empty
    body and the connection closed (its parser answers before any app code runs)."""
    if server.server == "uvicorn":
        return assert_v1_json_error(raw, status)
    assert status_of(raw) == status, raw[:300]
    headers, body = head_and_body(raw)
    assert body == b"" and headers["content-length"] == "0" and headers["connection"] == "close", raw[:300]


def test_a_huge_header_is_a_quick_431(server):
    for path, v1 in [(b"/v1/feriados/2025", True), (b"/argentina", False)]:
        start = time.perf_counter()
        raw = server.raw(b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nX-Grande: " + b"a" * (64 << 20) + b"\r\n\r\n")
        elapsed = time.perf_counter() - start
        if v1:
            assert_parser_refused(server, raw, 431)
        else:
            assert status_of(raw) == 431
        assert elapsed < 3.0, elapsed  # was 6.5 s of the event loop
    assert server.get("/v1/feriados/2025")[0] == 200


@pytest.mark.parametrize("size", [MAX_HEAD + 1, 40_000, 300_000])
def test_a_header_past_the_limit_is_431_in_json(server, size):
    # Past our 32 KB, within granian's buffer: answered by the app's own layer (cabeza.py) with granian.
    line = b"GET /v1/feriados/2025 HTTP/1.1\r\nHost: x\r\n"
    raw = server.raw(line + b"X-Grande: " + b"a" * (size - len(line) - 14) + b"\r\n\r\n")
    assert_v1_json_error(raw, 431)
    assert head_and_body(raw)[0]["connection"] == "close"


def test_a_header_within_the_limit_is_answered(server):
    line = b"GET /v1/feriados/2025 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    raw = server.raw(line + b"X-Grande: " + b"a" * (MAX_HEAD - len(line) - 200) + b"\r\n\r\n")
    assert status_of(raw) == 200, raw[:300]


def test_too_many_headers_is_431(server):
    many = b"".join(b"X-H%d: v\r\n" % i for i in range(150))
    assert_parser_refused(server, server.raw(b"GET /v1/feriados/2025 HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n"), 431)


def test_a_huge_request_line_is_414(server):
    assert_v1_json_error(server.raw(b"GET /v1/" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"), 414)
    assert status_of(server.raw(b"GET /argentina?" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")) == 414


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GET /v1/feriados/2025 HTTP/1.1\r\nHost: x\r\nSin dos puntos\r\n\r\n",
        b"GET /v1/feriados/2025 HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        b"GET /v1/feriados/2025 HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        b"GET /v1/feriados/2025 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: basura\r\n\r\n",
        b"GET /v1/feriados/2025 HTTP/9.9\r\nHost: x\r\n\r\n",
    ],
)
def test_malformed_v1_requests_get_a_400(server, request_bytes):
    assert_parser_refused(server, server.raw(request_bytes), 400)


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"BASURA\r\n\r\n",
        b"\x00\x01\x02\r\n\r\n",
        b"GET /argentina HTTP/1.1\r\nHost: x\r\nSin dos puntos\r\n\r\n",
        b"GET /argentina/\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET /v1/feriados/\xff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET /argentina/feriados?_sort=\xff HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        b"GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    ],
)
def test_malformed_requests_are_4xx_never_5xx(server, request_bytes):
    status = status_of(server.raw(request_bytes))
    assert 300 <= status < 500, status


def test_the_server_logged_no_error(server):
    # Runs after the others in this module: a 500 anywhere would have left a traceback.
    assert server.get("/-/versions.json")[0] == 200
    log = server.log_text()
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log[-3000:]
