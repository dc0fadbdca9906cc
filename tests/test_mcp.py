"""/-/mcp driven by the MCP Python SDK's own client over HTTP, against serve-datos on the test database:
the handshake, the tools listed, each tool called and compared with what /v1 answers over HTTP, and bad
calls that are tool errors carrying the API's Spanish message while the session goes on."""

import ast
import re

import orjson
import pytest
from mcp import Client
from paths import TEST_DB
from servidor_datos import ServeDatos

from argentina_datos import __version__
from argentina_datos.web.complementos.agentes import CUT, MAX_ANSWER_BYTES, fitted_v1

pytestmark = [pytest.mark.lento, pytest.mark.mirror]

OURS = {"buscar_series", "datos_series", "consultar_api", "calidad_de_serie", "historia_de_dato"}
BLUE_SELL = "cotizaciones_dolares.blue.venta"
COUNT_FOREVER = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"


@pytest.fixture(scope="module")
def server():
    with ServeDatos(TEST_DB) as s:
        yield s


def v1(server, path: str) -> tuple[int, bytes]:
    status, _, body = server.get(path)
    return status, body


def text(result) -> str:
    assert len(result.content) == 1
    return result.content[0].text


async def test_the_tools_are_listed_read_only_and_described_in_spanish(server):
    async with Client(server.url + "/-/mcp") as client:
        assert client.server_capabilities.tools is not None
        info, instructions = client.server_info, client.instructions
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert (info.name, info.version) == ("argentina-datos", __version__)
    # the series and /v1 tools come first in the instructions; SQL after them
    assert instructions.index("buscar_series") < instructions.index("consultar_api") < instructions.index("execute_sql")
    assert {"execute_sql", "list_canned_queries", "execute_canned_query"} | OURS <= set(tools)
    assert not any("writ" in name for name in tools)  # a read-only service offers no tool that writes
    for name in tools:
        assert tools[name].annotations.read_only_hint is True, name
        assert f"{MAX_ANSWER_BYTES:,}".replace(",", ".") in tools[name].description or name == "list_databases", name
    for name in OURS | {"execute_sql", "execute_canned_query"}:
        tool = tools[name]
        assert tool.annotations.open_world_hint is False
        assert "Ejemplo" in tool.description, name
        # every argument says what it takes, in Spanish
        assert all(p.get("description") for p in tool.input_schema["properties"].values()), name
    assert "publicado" in tools["datos_series"].input_schema["properties"]
    # /llms.txt names every tool the endpoint lists
    status, llms = v1(server, "/llms.txt")
    assert status == 200 and all(f"`{name}`" in llms.decode() for name in tools)


async def test_each_tool_answers_what_the_api_answers(server):
    async with Client(server.url + "/-/mcp") as client:
        day = await client.call_tool("consultar_api", {"ruta": "/v1/cotizaciones/dolares/blue/2024/01/02"})
        assert not day.is_error
        assert text(day).encode() == v1(server, "/v1/cotizaciones/dolares/blue/2024/01/02")[1]
        assert orjson.loads(text(day))["venta"] == 1005
        # a route as a caller may write it: without /v1, with its query
        cut = await client.call_tool(
            "consultar_api", {"ruta": "finanzas/indices/inflacion?desde=2025-01&hasta=2025-06"}
        )
        assert text(cut).encode() == v1(server, "/v1/finanzas/indices/inflacion?desde=2025-01-01&hasta=2025-06-30")[1]
        assert len(orjson.loads(text(cut))) == 6

        found = await client.call_tool("buscar_series", {"q": "riesgo país"})
        assert text(found).encode() == v1(server, "/v1/series?q=riesgo+pa%C3%ADs&limite=20")[1]
        assert "riesgo_pais" in [s["id"] for s in orjson.loads(text(found))]

        values = await client.call_tool(
            "datos_series", {"ids": [BLUE_SELL], "desde": "2024-01-02", "hasta": "2024-01-02"}
        )
        assert orjson.loads(text(values))["datos"] == [{"fecha": "2024-01-02", BLUE_SELL: 1005}]
        same = v1(server, f"/v1/series/datos?ids={BLUE_SELL}&desde=2024-01-02&hasta=2024-01-02")[1]
        assert text(values).encode() == same
        # a month of business days, as the dashboard averages it (the tool passes dias on)
        month = {"ids": BLUE_SELL, "desde": "2025-01", "hasta": "2025-01", "agrupar": "mes", "dias": "habiles"}
        business = await client.call_tool("datos_series", month)
        query = "&".join(f"{k}={v}" for k, v in month.items())
        assert text(business).encode() == v1(server, f"/v1/series/datos?{query}")[1]
        assert "días hábiles" in orjson.loads(text(business))["series"][0]["titulo"]

        last = orjson.loads(v1(server, "/v1/finanzas/indices/riesgo-pais/ultimo")[1])
        risk = await client.call_tool("consultar_api", {"ruta": "/v1/finanzas/indices/riesgo-pais/ultimo"})
        assert orjson.loads(text(risk)) == last
        databases = (await client.call_tool("list_databases", {})).structured_content["databases"]
        sql = "SELECT valor, fecha FROM riesgo_pais ORDER BY fecha DESC LIMIT 1"
        rows = (await client.call_tool("execute_sql", {"database": databases[0], "sql": sql})).structured_content
        assert rows["rows"] == [{"valor": last["valor"], "fecha": last["fecha"]}]

        queries = (await client.call_tool("list_canned_queries", {})).structured_content["queries"]
        assert queries and not any(q["write"] for q in queries)
        ran = await client.call_tool(
            "execute_canned_query", {"database": queries[0]["database"], "query": queries[0]["name"]}
        )
        assert not ran.is_error and ran.structured_content["rows"]


async def test_calidad_de_serie_is_what_marcar_calidad_marks(server):
    # 2012-2014: the blue's buying price above its selling price, days a check marks
    url = f"/v1/series/datos?ids={BLUE_SELL}&desde=2012&hasta=2014&marcar=calidad"
    data = orjson.loads(v1(server, url)[1])
    marked = [r for r in data["datos"] if r[f"{BLUE_SELL}:calidad"]]
    async with Client(server.url + "/-/mcp") as client:
        result = await client.call_tool("calidad_de_serie", {"id": BLUE_SELL, "desde": "2012", "hasta": "2014"})
        got = orjson.loads(text(result))
        assert got["serie"] == data["series"][0] and got["puntos"] == len(data["datos"])
        assert marked and got["puntos_dudosos"] == [
            {"fecha": r["fecha"], "valor": r[BLUE_SELL], "controles": r[f"{BLUE_SELL}:calidad"]} for r in marked
        ]
        databases = (await client.call_tool("list_databases", {})).structured_content["databases"]
        sql = got["sql_hallazgos"]
        findings = await client.call_tool("execute_sql", {"database": databases[0], "sql": sql})
    assert not findings.is_error
    found = findings.structured_content["rows"]
    # every check that marks a point is among the series' findings
    assert {c for p in got["puntos_dudosos"] for c in p["controles"].split("; ")} <= {f["control"] for f in found}


async def test_historia_de_dato_is_every_value_the_api_says_it_had(server):
    url = "/v1/series/datos?ids=riesgo_pais&desde=2003-06-02&hasta=2003-06-02&publicado=todas"
    data = orjson.loads(v1(server, url)[1])
    async with Client(server.url + "/-/mcp") as client:
        result = await client.call_tool("historia_de_dato", {"id": "riesgo_pais", "fecha": "2003-06-02"})
        got = orjson.loads(text(result))
        assert got["serie"] == data["series"][0] and got["serie"]["publicacion"]["rezagoDias"] is not None
        assert [dict(v, serie="riesgo_pais") for v in got["valores"]] == data["datos"]
        assert len(got["valores"]) >= 2 and got["valores"][-1]["publicadoHasta"] is None
        unknown = await client.call_tool("historia_de_dato", {"id": "riesgo_pais", "fecha": "ayer"})
        assert unknown.is_error and "desde" in text(unknown)


async def test_publicado_is_the_apis_vintage_parameter(server):
    async with Client(server.url + "/-/mcp") as client:
        then = await client.call_tool(
            "datos_series", {"ids": "riesgo_pais", "publicado": "2025-06-30", "desde": "2025"}
        )
    status, body = v1(server, "/v1/series/datos?ids=riesgo_pais&publicado=2025-06-30&desde=2025")
    if status == 200:
        assert not then.is_error and text(then).encode() == body
    else:  # no version that old in this mirror: the same 404, as a tool error
        assert then.is_error and orjson.loads(body)["mensaje"] in text(then)


@pytest.mark.parametrize(
    "tool, arguments, api",
    [
        ("datos_series", {"ids": BLUE_SELL, "desde": "ayer"}, f"/v1/series/datos?ids={BLUE_SELL}&desde=ayer"),
        ("datos_series", {"ids": "no-existe"}, "/v1/series/datos?ids=no-existe"),
        ("consultar_api", {"ruta": "/v1/feriados/1800"}, "/v1/feriados/1800"),
        ("consultar_api", {"ruta": "/V1/feriados/2025"}, "/V1/feriados/2025"),
        ("consultar_api", {"ruta": "/v1/finanzas/indices/riesgoPais"}, "/v1/finanzas/indices/riesgoPais"),
        ("buscar_series", {"q": "dólar", "tema": "astrologia"}, "/v1/series?q=d%C3%B3lar&tema=astrologia"),
        ("calidad_de_serie", {"id": "no-existe"}, "/v1/series/datos?ids=no-existe&marcar=calidad"),
    ],
)
async def test_a_bad_call_is_a_tool_error_with_the_apis_message(server, tool, arguments, api):
    status, body = v1(server, api)
    assert 400 <= status < 500
    async with Client(server.url + "/-/mcp") as client:
        result = await client.call_tool(tool, arguments)
        assert result.is_error
        assert orjson.loads(body)["mensaje"] in text(result)
        # the session goes on
        assert not (await client.call_tool("consultar_api", {"ruta": "/v1/feriados/2025"})).is_error


@pytest.mark.parametrize(
    "tool, arguments, says",
    [
        ("consultar_api", {"ruta": "/v1/../-/versions.json"}, "no es una ruta de /v1"),
        ("execute_sql", {"database": "argentina", "sql": "DELETE FROM riesgo_pais"}, "SELECT"),
        # Datasette's limits on anyone's SQL hold here too: time, and memory (web/complementos/memoria.py)
        ("execute_sql", {"database": "argentina", "sql": COUNT_FOREVER}, "time limit"),
        ("execute_sql", {"database": "argentina", "sql": "SELECT randomblob(1000000000)"}, "too big"),
        ("datos_series", {"desde": "2024"}, "ids"),  # a required argument missing
    ],
)
async def test_what_a_tool_refuses_it_says_why(server, tool, arguments, says):
    async with Client(server.url + "/-/mcp") as client:
        result = await client.call_tool(tool, arguments)
    assert result.is_error and says in text(result)


# The largest answer an agent may plausibly ask each tool for: a whole table, a whole daily series, every route's
# list, the broadest search, the schema.
LARGEST = [
    ("execute_sql", {"database": "argentina", "sql": "SELECT * FROM series"}),
    (
        "execute_canned_query",
        {"database": "argentina", "query": "dolar_por_casa", "parameters": {"desde": "1900-01-01"}},
    ),
    ("datos_series", {"ids": [BLUE_SELL, "cotizaciones_dolares.oficial.venta"]}),
    ("consultar_api", {"ruta": "/v1/cotizaciones/dolares"}),
    ("consultar_api", {"ruta": "/v1/finanzas/indices/uva?formato=csv"}),
    ("consultar_api", {"ruta": "/v1/openapi.json"}),
    ("buscar_series", {"q": "fondo", "limite": 100}),
    ("calidad_de_serie", {"id": BLUE_SELL}),
    ("get_database_schema", {"database": "argentina"}),
    ("list_canned_queries", {}),
]


@pytest.mark.parametrize("tool, arguments", LARGEST, ids=[f"{t}-{i}" for i, (t, _) in enumerate(LARGEST)])
async def test_no_answer_passes_the_limit_and_a_cut_one_says_so_first(server, tool, arguments):
    async with Client(server.url + "/-/mcp") as client:
        result = await client.call_tool(tool, arguments)
    assert not result.is_error, text(result)[:300]
    answer = text(result)
    assert len(answer.encode()) <= MAX_ANSWER_BYTES
    if result.structured_content is not None:  # what a client may hand the model instead
        assert len(orjson.dumps(result.structured_content)) <= MAX_ANSWER_BYTES
    first, _, rest = answer.partition("\n")
    if CUT in answer:
        assert first.startswith(CUT) and "faltan" in first or "Datasette" in first
        orjson.loads(rest)  # what comes after the first line is whole JSON
    if tool == "get_database_schema":
        schema = result.structured_content["schema"]
        assert "CREATE TABLE" in schema and "_fts" not in schema and "TRIGGER" not in schema


async def test_a_cut_series_says_where_to_go_on_and_that_is_the_rest(server):
    async with Client(server.url + "/-/mcp") as client:
        whole = await client.call_tool("datos_series", {"ids": BLUE_SELL})
        first, _, body = text(whole).partition("\n")
        assert first.startswith(CUT)
        kept = orjson.loads(body)["datos"]
        day = first.split('desde="')[1].split('"')[0]  # the day of the first row left out
        following = await client.call_tool("datos_series", {"ids": BLUE_SELL, "desde": day})
    after = text(following).partition("\n")[2] if text(following).startswith(CUT) else text(following)
    next_rows = orjson.loads(after)["datos"]
    api = orjson.loads(v1(server, f"/v1/series/datos?ids={BLUE_SELL}")[1])["datos"]
    assert kept == api[: len(kept)] and next_rows[0] == api[len(kept)]


async def test_the_route_list_is_what_consultar_api_points_to(server):
    async with Client(server.url + "/-/mcp") as client:
        routes = text(await client.call_tool("consultar_api", {"ruta": "/v1"}))
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert len(routes.encode()) < 20_000 and "/v1/cotizaciones/dolares/{casa}" in routes
    described = tools["consultar_api"].description
    for parameter in ("fecha", "publicado", "desde", "hasta", "agrupar", "marcar", 'ruta="/v1"'):
        assert parameter in described, parameter
    assert {"base", "marcar"} <= set(tools["datos_series"].input_schema["properties"])


class Answer:
    """What fitted_v1 reads of /v1's answer (an httpx response): a JSON list."""

    def __init__(self, rows: list):
        self.content = orjson.dumps(rows)
        self.text = self.content.decode()
        self.headers = {"content-type": "application/json"}


def test_a_cut_list_says_where_to_go_on_only_when_its_rows_are_in_date_order():
    rows = [{"fecha": f"2024-01-{d:02d}", "texto": "x" * 4000} for d in range(1, 31)]  # 120 KB
    first, _, body = fitted_v1(Answer(rows), lambda day: f"desde={day}").partition("\n")
    kept = orjson.loads(body)
    assert first.startswith(CUT) and kept == rows[: len(kept)] and f"desde={rows[len(kept)]['fecha']}" in first
    assert "desde=None" in fitted_v1(Answer(rows[::-1]), lambda day: f"desde={day}")  # no day to go on from
    assert fitted_v1(Answer(rows[:3]), lambda day: "") == Answer(rows[:3]).text  # one that fits: as it came


def examples(description: str) -> list[tuple[str, dict]]:
    """Each «Ejemplo: tool(argument=value, ...)» of a tool's description, as (tool, arguments)."""
    out = []
    for part in re.split(r"Ejemplo:\s+", description)[1:]:
        depth = 0
        for end, c in enumerate(part):
            depth += {"(": 1, ")": -1}.get(c, 0)
            if c == ")" and depth == 0:
                break
        call = ast.parse(part[: end + 1], mode="eval").body  # a line break inside a string literal: a SyntaxError
        assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
        out.append((call.func.id, {k.arg: ast.literal_eval(k.value) for k in call.keywords}))
    return out


async def test_every_example_in_a_description_works(server):
    async with Client(server.url + "/-/mcp") as client:
        tools = (await client.list_tools()).tools
        calls = [call for t in tools for call in examples(t.description)]
        assert {name for name, _ in calls} >= OURS | {"execute_sql", "execute_canned_query"}
        for name, arguments in calls:
            result = await client.call_tool(name, arguments)
            assert not result.is_error, (name, arguments, text(result)[:300])
