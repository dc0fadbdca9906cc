"""/-/mcp driven by the MCP Python SDK's own client over HTTP, against serve-datos on the test database:
the handshake, the tools listed, each tool called and compared with what /v1 answers over HTTP, and bad
calls that are tool errors carrying the API's Spanish message while the session goes on."""

import orjson
import pytest
from mcp import Client
from paths import TEST_DB
from servidor_datos import ServeDatos

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
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert {"execute_sql", "list_canned_queries", "execute_canned_query"} | OURS <= set(tools)
    for name in OURS:
        tool = tools[name]
        assert tool.annotations.read_only_hint is True and tool.annotations.open_world_hint is False
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
        assert text(found).encode() == v1(server, "/v1/series?q=riesgo+pa%C3%ADs")[1]
        assert "riesgo_pais" in [s["id"] for s in orjson.loads(text(found))]

        values = await client.call_tool(
            "datos_series", {"ids": [BLUE_SELL], "desde": "2024-01-02", "hasta": "2024-01-02"}
        )
        assert orjson.loads(text(values))["datos"] == [{"fecha": "2024-01-02", BLUE_SELL: 1005}]
        same = v1(server, f"/v1/series/datos?ids={BLUE_SELL}&desde=2024-01-02&hasta=2024-01-02")[1]
        assert text(values).encode() == same

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
        ("consultar_api", {"ruta": "/v1/cotizaciones/dolares"}, "desde/hasta"),  # megabytes: how to ask for less
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
