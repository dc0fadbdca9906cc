"""/llms.txt: written from the catalogue, it names every /v1 route, every query parameter, the series layer
and the MCP endpoint; served as text by the plugin."""

import pytest
from datasette.app import Datasette

from argentina_datos.documentacion.llms import EXAMPLES, MCP_TOOLS, llms_txt
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


@pytest.mark.mirror
@pytest.mark.parametrize("question, call, url", EXAMPLES, ids=[q[:40] for q, _, _ in EXAMPLES])
async def test_each_worked_example_answers(ds, question, call, url):
    response = await ds.client.get(url)
    assert response.status_code == 200, (question, response.text[:300])
    body = response.json()
    # a list, the rows of /v1/series/datos or of Datasette's SQL, or one record: never empty
    assert body.get("datos", body.get("rows", body)) if isinstance(body, dict) else body, question


@pytest.mark.mirror
async def test_it_says_how_fresh_the_served_data_is_and_its_limits(ds, conn):
    text = (await ds.client.get("/llms.txt")).text
    freshness = text[text.index("## Frescura") : text.index("## Para agentes")]
    (last,) = conn.execute("SELECT max(hasta) FROM series WHERE tabla = 'inflacion'").fetchone()
    assert f"inflacion: último dato del {last[:10]}" in freshness
    (built,) = conn.execute("SELECT valor FROM _construccion WHERE clave = 'construido'").fetchone()
    assert built in freshness
    for words in ("80.000 bytes", "RESPUESTA RECORTADA", "marcar=calidad", "primer día del período", "id:fecha"):
        assert words in text, words
