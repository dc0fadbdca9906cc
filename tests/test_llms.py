"""/llms.txt: written from the catalogue, it names every /v1 route, every query parameter, the series layer
and the MCP endpoint; served as text by the plugin."""

from datasette.app import Datasette

from argentina_datos.documentacion.llms import MCP_TOOLS, llms_txt
from argentina_datos.respuestas.consulta import PARAMETERS
from argentina_datos.respuestas.rutas import Router


def test_it_names_every_route_parameter_and_the_series_layer():
    text = llms_txt()
    lines = text.splitlines()
    assert lines[0].startswith("# ") and lines[2].startswith("> ")  # llmstxt.org: a title, then a summary
    for endpoint in Router().endpoints:
        assert f"[{endpoint.path}](" in text, endpoint.path
    for p in PARAMETERS:
        assert f"- `{p.name}` ({p.values_text()})" in text, p.name
    assert "## Series" in text and "[/v1/series](" in text and "[/v1/series/datos](" in text
    assert "[/-/mcp](/-/mcp)" in text and all(f"`{name}`" in text for name, _ in MCP_TOOLS)


async def test_it_is_served_as_text():
    ds = Datasette(memory=True)
    response = await ds.client.get("/llms.txt")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.text == llms_txt()
