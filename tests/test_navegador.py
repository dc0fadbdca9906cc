"""The Datasette UI as a user sees it, in a real headless Chromium.

Starts `serve-datos` (python -m argentina_datos.web.servidor) on a free port
against the test database and visits the home page, a faceted table, a canned query, a
full-text search and the charts page.  Each page must answer without an error banner, show
what the database holds (counts are taken from SQLite, not written here) and fetch nothing
from outside 127.0.0.1: tests have no internet, and neither may a user's offline copy.

Uses Debian's chromium (`apt-get install chromium`; scripts/test.sh does it when missing)
through the playwright package, which downloads no browser when given `executable_path`.
Screenshots go to screenshots/ (git-ignored).  Alone:
`.venv/bin/pytest tests/test_navegador.py`.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
import yaml
from paths import TEST_DB

from argentina_datos.documentacion.metadatos import METADATA, REPO
from argentina_datos.web.paginas.castellano import number, rows, thousands

CHROMIUM = Path(os.environ.get("ARGENTINA_DATOS_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = REPO / "screenshots"
DASHBOARD = "series"
# Flags that let Chromium run as root in a container without reaching the network by itself.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000
# The pages show the database built from the mirror.
pytestmark = [pytest.mark.mirror, pytest.mark.lento]

playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="instale las dependencias de prueba: pip install -e '.[test]'"
)


def _db_path() -> Path:
    return TEST_DB  # the notebooks' $ARGENTINA_DATOS_DB may be one's own argentina.db (conftest.py)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _metadata() -> dict:
    meta = yaml.safe_load(METADATA.read_text()) if METADATA.exists() else None
    if "datasette-dashboards" not in ((meta or {}).get("plugins") or {}):
        pytest.fail(
            "metadata.yml no tiene los gráficos de argentina_datos/documentacion/partes/tableros.yml: "
            "regenérelo con `python -m argentina_datos.documentacion.metadatos`"
        )
    return meta


def _get_json(url: str):
    with urllib.request.urlopen(url, timeout=2) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def servidor():
    db = _db_path()
    assert db.exists(), f"falta la base de prueba {db}"
    meta = _metadata()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    # Exactly what a user runs: `serve-datos DB --host --port`.
    cmd = [sys.executable, "-m", "argentina_datos.web.servidor", str(db), "--host", "127.0.0.1", "--port", str(port)]
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=REPO)
        try:
            deadline = time.monotonic() + 30
            while True:
                if proc.poll() is not None:
                    log.seek(0)
                    pytest.fail(f"serve-datos terminó con código {proc.returncode}:\n{log.read()[-3000:]}")
                try:
                    databases = _get_json(f"{base}/-/databases.json")
                    break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    pytest.fail(f"serve-datos no respondió en 30 s en {base}")
                time.sleep(0.2)
            # The name Datasette gives the database (the file's stem, unless the server renames it).
            names = [d["name"] for d in databases if not d["name"].startswith("_")]
            assert len(names) == 1, names
            yield {"base": base, "db": db, "name": names[0], "meta": meta}
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


@pytest.fixture(scope="module")
def navegador():
    if not CHROMIUM.exists():
        pytest.fail(f"no está {CHROMIUM}: instálelo con `apt-get install chromium` (scripts/test.sh lo hace)")
    with playwright_api.sync_playwright() as p:
        # launch() gives every run a fresh temporary profile (the --user-data-dir).
        browser = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class Visita:
    """One page of one browser context, recording what a user would not see but should know:
    script errors, failed or outside requests, and the JSON the page fetched."""

    def __init__(self, browser, base: str):
        self.base = base
        self.context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="es-AR")
        self.page = self.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.errors: list[str] = []
        self.outside: list[tuple[str, str]] = []
        self.json_responses: list = []
        self.context.route("**/*", self._route)
        self.page.on("pageerror", lambda exc: self.errors.append(f"error de script: {exc}"))
        # A failed load is reported below with its URL; the console only repeats it without one.
        self.page.on(
            "console",
            lambda m: (
                m.type == "error"
                and not m.text.startswith("Failed to load resource")
                and self.errors.append(f"consola: {m.text}")
            ),
        )
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)

    def _route(self, route):
        url = route.request.url
        if url.startswith((self.base, "data:", "blob:", "about:")):
            return route.continue_()
        # Blocked rather than left to time out on DNS: there is no internet in tests.
        self.outside.append((route.request.resource_type, url))
        route.abort()

    def _failed(self, request):
        if not any(url == request.url for _, url in self.outside):
            self.errors.append(f"pedido fallido: {request.url} {request.failure}")

    def _response(self, response):
        if response.status >= 400:
            self.errors.append(f"HTTP {response.status}: {response.url}")
        elif ".json?" in response.url:
            self.json_responses.append(response)

    def go(self, path: str):
        response = self.page.goto(self.base + path, wait_until="networkidle")
        assert response is not None and response.ok, f"{path}: HTTP {response and response.status}"
        return self.page

    def check(self, shot: str):
        page = self.page
        SCREENSHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), full_page=True)
        banners = page.locator(".message-error").all_inner_texts()
        assert not banners, f"{shot}: mensajes de error en la página: {banners}"
        assert not page.title().lower().startswith("error"), f"{shot}: página de error: {page.title()}"
        assert not self.errors, f"{shot}: " + "; ".join(self.errors)
        # Images may be data (the senators' photos are URLs upstream); the page itself
        # (scripts, styles, fonts, the charts' data) must come from this server.
        assets = [(kind, url) for kind, url in self.outside if kind != "image"]
        assert not assets, f"{shot}: la página pide recursos fuera de 127.0.0.1: {assets}"

    def close(self):
        self.context.close()


@pytest.fixture
def visita(navegador, servidor):
    v = Visita(navegador, servidor["base"])
    try:
        yield v
    finally:
        v.close()


def _sql(db: Path, query: str, *params):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return conn.execute(query, params).fetchall()


def _rows(page):
    return page.locator("table.rows-and-columns tbody tr")


def test_inicio(visita, servidor):
    page = visita.go("/")
    title = servidor["meta"].get("title")
    if title:
        assert page.locator("h1").first.inner_text().strip() == title
    tables = {name for (name,) in _sql(servidor["db"], "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"cotizaciones_dolares", "inflacion", "riesgo_pais", "uva"} <= tables
    db_link = page.locator(f'a[href="/{servidor["name"]}"]')
    assert db_link.count() >= 1, "la página de inicio no enlaza la base"
    body = page.locator("body").inner_text()
    assert "cotizaciones_dolares" in body
    assert page.locator(f'a[href="/-/dashboards/{DASHBOARD}"]').count() >= 1, "la portada no enlaza los gráficos"
    visita.check("01_inicio")


def _table_metadata(servidor, table: str) -> dict:
    databases = servidor["meta"].get("databases") or {}
    db = databases.get(servidor["name"]) or (next(iter(databases.values())) if len(databases) == 1 else {})
    return (db.get("tables") or {}).get(table) or {}


def test_tabla_con_faceta(visita, servidor):
    table = "cotizaciones_dolares"
    # The facet metadata.yml configures; asking for it again in the URL would draw it twice.
    configured = "casa" in (_table_metadata(servidor, table).get("facets") or [])
    page = visita.go(f"/{servidor['name']}/{table}" + ("" if configured else "?_facet=casa"))
    ((total,),) = _sql(servidor["db"], f"SELECT count(*) FROM {table}")
    assert rows(total) in page.locator("h3").first.inner_text()
    assert _rows(page).count() > 0
    facets = page.locator('.facet-info[data-column="casa"]')
    assert facets.count() == 1, f"la faceta casa aparece {facets.count()} veces"
    shown = [(" ".join(t.split()[:-1]), t.split()[-1]) for t in facets.locator("li").all_inner_texts()]
    expected = _sql(servidor["db"], f"SELECT casa, count(*) FROM {table} GROUP BY casa")
    assert sorted(shown) == sorted((casa, thousands(n)) for casa, n in expected), shown
    visita.check("02_tabla_faceta_casa")

    # Choosing a value filters the table, as a user clicking it would.
    with page.expect_navigation(wait_until="networkidle"):
        facets.get_by_role("link", name="blue", exact=True).click()
    ((blue,),) = _sql(servidor["db"], f"SELECT count(*) FROM {table} WHERE casa = 'blue'")
    assert rows(blue) in page.locator("h3").first.inner_text()
    assert set(page.locator("table.rows-and-columns td.col-casa").all_inner_texts()) == {"blue"}
    visita.check("02b_tabla_casa_blue")


def _canned_queries(servidor) -> dict:
    databases = servidor["meta"].get("databases") or {}
    queries = (databases.get(servidor["name"]) or {}).get("queries")
    if not queries and len(databases) == 1:
        queries = next(iter(databases.values())).get("queries")
    return queries or {}


def test_consulta_guardada(visita, servidor):
    queries = _canned_queries(servidor)
    if not queries:
        pytest.skip("metadata.yml todavía no define consultas guardadas")
    name, spec = next(iter(queries.items()))
    page = visita.go(f"/{servidor['name']}/{name}")
    expected_title = spec.get("title") or name
    assert expected_title in page.locator("h1").first.inner_text()
    assert page.title() == expected_title  # the tab says what the query is, not its SQL
    assert _rows(page).count() > 0, f"la consulta guardada {name} no devolvió filas"
    visita.check("03_consulta_guardada")


def test_busqueda_de_texto(visita, servidor):
    term = "rodriguez"
    ((expected,),) = _sql(servidor["db"], "SELECT count(*) FROM senadores_fts WHERE senadores_fts MATCH ?", term)
    assert expected > 1
    page = visita.go(f"/{servidor['name']}/senadores?_search={term}")
    assert page.locator("input#_search").input_value() == term
    assert rows(expected) in page.locator("h3").first.inner_text()
    names = page.locator("table.rows-and-columns tbody td.col-nombre").all_inner_texts()
    assert len(names) == min(expected, 100)
    # FTS ignores accents (remove_diacritics): "Rodríguez" matches too.
    assert all("rodriguez" in n.lower().replace("í", "i") for n in names), names
    visita.check("04_busqueda_senadores")


def test_graficos(visita, servidor):
    dashboards = (servidor["meta"].get("plugins") or {}).get("datasette-dashboards") or {}
    assert DASHBOARD in dashboards, "argentina_datos/documentacion/partes/tableros.yml no define el tablero de series"
    dashboard = dashboards[DASHBOARD]
    page = visita.go(f"/-/dashboards/{DASHBOARD}")
    assert page.locator("h1").first.inner_text().strip() == dashboard["title"]
    charts = dashboard["charts"]
    for slug, chart in charts.items():
        card = page.locator(f"#card-{slug}")
        assert chart["title"] in card.locator(".dashboard-card-title").inner_text()
        target = page.locator(f"#chart-{slug}")
        drawn = target.locator("svg.marks") if chart["library"] == "vega-lite" else target.locator("p").first
        try:
            drawn.wait_for(state="visible")
        except playwright_api.TimeoutError:
            pytest.fail(f"{slug}: el gráfico no se dibujó en {TIMEOUT_MS} ms; {visita.errors}")
        # The warning the plugin shows when a query hit max_returned_rows.
        assert not page.locator(f"#chart-tooltip-{slug}").is_visible(), f"{slug}: datos truncados"
    page.wait_for_load_state("networkidle")

    data = [r for r in visita.json_responses if "sql=" in r.url]
    assert len(data) == len(charts), [r.url for r in data]
    for response in data:
        assert response.json()["rows"], f"sin filas: {response.url}"

    # What was drawn: one line per series, one bar per month since the default "desde".
    desde = dashboard["filters"]["desde"]["default"]
    lines = {slug: page.locator(f"#chart-{slug} g.mark-line path") for slug in ("dolar", "riesgo-pais", "uva")}
    assert lines["dolar"].count() == 2, "dólar: se esperaban las líneas oficial y blue"
    assert lines["riesgo-pais"].count() == 1 and lines["uva"].count() == 1
    for slug, paths in lines.items():
        for d in [paths.nth(i).get_attribute("d") for i in range(paths.count())]:
            assert d and d.count("L") > 50, f"{slug}: línea vacía o casi vacía: {d!r:.80}"
    legend = page.locator("#chart-dolar g.role-legend").text_content()
    assert "Oficial" in legend and "Blue" in legend
    ((months,),) = _sql(servidor["db"], "SELECT count(*) FROM inflacion WHERE fecha >= ?", desde)
    assert page.locator("#chart-inflacion g.mark-rect path").count() == months

    ((blue, fecha),) = _sql(
        servidor["db"],
        "SELECT venta, strftime('%d/%m/%Y', fecha) FROM cotizaciones_dolares "
        "WHERE casa = 'blue' ORDER BY fecha DESC LIMIT 1",
    )
    metric = page.locator("#chart-blue-ultimo").inner_text()
    # As Argentines read it: "$ 1.430,00".
    assert f"$ {thousands(int(round(blue, 2)))},{f'{blue:.2f}'[-2:]}" in metric and fecha in metric, metric
    # The axes too (config.locale of tableros.yml): "1.600", not "1,600"; the plugin's words in Spanish.
    labels = page.locator("#chart-dolar g.role-axis-label text").all_text_contents()
    assert any(re.fullmatch(r"\d{1,3}\.\d{3}", t) for t in labels) and not any("," in t for t in labels), labels
    assert page.locator(".crumbs").inner_text().split() == ["Inicio", "/", "Gráficos"]
    assert page.get_by_role("button", name="Aplicar").is_visible()
    visita.check("05_graficos")


def test_pagina_de_la_base(visita, servidor):
    page = visita.go(f"/{servidor['name']}")
    themes = [t.strip() for t in page.locator("section.tema h2").all_inner_texts()]
    assert themes[0] == "Feriados" and themes[-1] == "Tablas de la construcción", themes
    internal = page.locator("section.tema").last.inner_text()
    assert "_construccion" in internal and "calidad" in internal and "fuentes" in internal

    # Each table with its title and description, under its theme.
    def theme(title: str) -> str:
        """The section whose heading is ``title`` (a table's description may name another theme's words)."""
        heading = page.get_by_role("heading", name=title, exact=True)
        return page.locator("section.tema").filter(has=heading).inner_text()

    cotizaciones = theme("Cotizaciones del dólar y otras monedas")
    assert "cotizaciones_dolares" in cotizaciones and "_construccion" not in cotizaciones
    assert _table_metadata(servidor, "inflacion")["title"] in theme("Inflación, UVA, riesgo país y confianza")
    assert not visita.outside, f"la página pide recursos fuera de 127.0.0.1: {visita.outside}"
    visita.check("05_base_por_temas")


def test_descripciones_de_columnas_plegadas(visita, servidor):
    page = visita.go(f"/{servidor['name']}/rems")
    details = page.locator("details.descripciones-de-columnas")
    assert details.count() == 1 and details.get_attribute("open") is None
    # The data is on the first screen (900 px high), not below a screen of descriptions.
    assert page.locator("table.rows-and-columns").bounding_box()["y"] < 900
    assert _rows(page).count() > 0
    details.locator("summary").click()
    assert details.locator("dd code").count() > 0, "las `...` de las descripciones se ven como código"
    assert "`" not in details.locator("dl").inner_text()
    visita.check("06_tabla_descripciones")


def test_fila_con_titulo_y_enlaces(visita, servidor):
    ((sid, nombre, viajes),) = _sql(
        servidor["db"],
        "SELECT s.id, s.nombre, count(*) FROM senadores s JOIN senado_viajes_internacionales v ON v.senadorId = s.id "
        "GROUP BY s.id ORDER BY count(*) DESC LIMIT 1",
    )
    # The senator's own id names his row (issue 43), not the table's rowid.
    page = visita.go(f"/{servidor['name']}/senadores/{sid}")
    assert page.locator("h1").first.inner_text().strip() == f"senadores: {nombre}"
    related = page.locator(".filas-relacionadas li", has_text="senado_viajes_internacionales.senadorId")
    assert related.count() == 1, "la fila del senador no enlaza sus viajes"
    related.filter(has_text=f": {rows(viajes)}").wait_for()  # the count, asked of this server
    link = related.locator("a")
    visita.check("07_fila_senador")
    with page.expect_navigation(wait_until="networkidle"):
        link.first.click()
    assert f"senadorId={sid}" in page.url and _rows(page).count() == min(viajes, 100)


def test_pagina_de_calidad(visita, servidor):
    ((total,),) = _sql(servidor["db"], "SELECT count(*) FROM calidad")
    page = visita.go(f"/{servidor['name']}/calidad")
    assert rows(total) in page.locator("h3").first.inner_text()
    assert page.locator("details.descripciones-de-columnas").count() == 1
    visita.check("08_calidad")


ENGLISH = ("rows where", "sorted by", "Apply", "Run SQL", "Format SQL", "Next page", "This data as", "Powered by")


def test_tabla_en_castellano(visita, servidor):
    """A filtered table as a reader sees it: Datasette's words in Spanish, numbers as Argentines read them."""
    page = visita.go(f"/{servidor['name']}/cotizaciones_dolares?casa=blue&_sort_desc=fecha")
    ((blue, venta),) = _sql(
        servidor["db"],
        "SELECT (SELECT count(*) FROM cotizaciones_dolares WHERE casa = 'blue'), "
        "(SELECT venta FROM cotizaciones_dolares WHERE casa = 'blue' ORDER BY fecha DESC LIMIT 1)",
    )
    heading = page.locator("h3").first
    assert heading.is_visible()
    assert (
        heading.inner_text().split() == f'{rows(blue)} donde casa = "blue", ordenadas por fecha (descendente)'.split()
    )
    assert page.get_by_role("button", name="Aplicar").is_visible()
    assert page.get_by_text("Siguiente página").is_visible()
    cell = page.locator("table.rows-and-columns tbody td.col-venta").first
    assert cell.is_visible() and cell.inner_text().strip() == number(venta), (cell.inner_text(), venta)
    # Datasette's column menu (table.js), translated by paginas.js.
    page.locator('th[data-column="venta"] svg.dropdown-menu-icon').click()
    menu = page.locator(".dropdown-menu").last
    assert menu.get_by_text("Ordenar de menor a mayor").is_visible()
    assert menu.get_by_text("Tipo: REAL").is_visible()
    shown = page.locator("body").inner_text()
    assert not [e for e in ENGLISH if e in shown], shown[:500]
    visita.check("09_tabla_en_castellano")


def test_consulta_en_castellano(visita, servidor):
    page = visita.go(f"/{servidor['name']}?sql=select+1430.5+as+venta,+12389+as+filas")
    assert page.get_by_role("button", name="Ejecutar SQL").is_visible()
    assert page.get_by_role("button", name="Formatear SQL").is_visible()  # shown by Datasette's script
    assert page.locator("h3").first.inner_text().startswith("Consulta SQL: 1 fila")
    assert page.locator("td.col-venta").inner_text().strip() == "1.430,5"
    assert page.locator("td.col-filas").inner_text().strip() == "12.389"
    shown = page.locator("body").inner_text()
    assert "Hecho con Datasette" in shown and "Inicio" in shown
    assert not [e for e in ENGLISH if e in shown], shown[:500]
    visita.check("10_consulta_en_castellano")


def _error_page(visita, path: str, status: int):
    """A page that answers ``status`` on purpose: its own response is no error to report, anything else is."""
    response = visita.page.goto(visita.base + path, wait_until="networkidle")
    assert response is not None and response.status == status, f"{path}: HTTP {response and response.status}"
    visita.errors = [e for e in visita.errors if not e.startswith(f"HTTP {status}: {visita.base}{path[:20]}")]
    return visita.page


def _shot(visita, shot: str):
    SCREENSHOTS.mkdir(exist_ok=True)
    visita.page.screenshot(path=str(SCREENSHOTS / f"{shot}.png"), full_page=True)
    assert not visita.errors, f"{shot}: " + "; ".join(visita.errors)
    assert not [u for k, u in visita.outside if k != "image"], f"{shot}: recursos fuera de 127.0.0.1"


@pytest.mark.lento
def test_pagina_de_tiempo_agotado(visita, servidor):
    sql = "with recursive r(i) as (select 1 union all select i + 1 from r where i < 100000000)\nselect count(*) from r"
    from urllib.parse import urlencode

    page = _error_page(visita, f"/{servidor['name']}?" + urlencode({"sql": sql, "_timelimit": 50}), 400)
    assert page.locator("h1").inner_text().strip() == "La consulta tardó demasiado"
    assert "límite de tiempo" in page.locator("body").inner_text()
    # The editor (CodeMirror over the textarea) holds the query, ready to be corrected and run again.
    editor = page.locator("form.sql .CodeMirror")
    assert editor.is_visible(), "el editor de SQL no está"
    assert "select count(*) from r" in editor.inner_text()
    assert page.get_by_role("button", name="Ejecutar SQL").is_visible()
    assert page.locator("form.sql input[name=_timelimit]").count() == 0  # run again with the whole limit
    _shot(visita, "11_tiempo_agotado")
    # Running it again from the page goes back to the query page, with the query.
    with page.expect_navigation(wait_until="networkidle"):
        page.get_by_role("button", name="Ejecutar SQL").click()
    assert "sql=" in page.url and "select+count" in page.url.replace("%28", "(").replace("%29", ")")


@pytest.mark.lento
def test_pagina_404_con_sugerencias(visita, servidor):
    page = _error_page(visita, f"/{servidor['name']}/cotizacion_dolares", 404)
    assert page.locator("h1").inner_text().strip() == "Error 404"
    suggestion = page.get_by_role("link", name="cotizaciones_dolares", exact=True)
    assert suggestion.is_visible()
    assert page.get_by_role("link", name="Volver al inicio").is_visible()
    _shot(visita, "12_pagina_404")
    with page.expect_navigation(wait_until="networkidle"):
        suggestion.click()
    assert page.url.endswith(f"/{servidor['name']}/cotizaciones_dolares")


@pytest.mark.lento
def test_vista_fci_abre_en_el_ultimo_dia_comun(visita, servidor):
    ((common,),) = _sql(
        servidor["db"], "SELECT min(m) FROM (SELECT max(fecha) AS m FROM fci_serie GROUP BY categoria_id)"
    )
    page = visita.go(f"/{servidor['name']}/fci_serie_vista")
    h1 = page.locator("h1").first.inner_text()
    assert h1.count("(vista)") == 1, h1
    box = page.locator(".ultimos-dias")
    assert box.is_visible() and f"Último día con datos de todas las categorías: {common}" in box.inner_text()
    assert "tardaron demasiado" not in page.locator("body").inner_text()
    visita.check("13_vista_fci")
    with page.expect_navigation(wait_until="networkidle"):
        box.get_by_role("link", name="ver ese día, por categoría").click()
    dates = set(page.locator("table.rows-and-columns td.col-fecha").all_inner_texts())
    assert dates == {common}, dates
    visita.check("13b_vista_fci_ultimo_dia")


@pytest.mark.lento
def test_explorador_de_series(visita, servidor):
    blue = "cotizaciones_dolares.blue.venta"
    page = visita.go(
        f"/-/series?q=blue&ids={blue},inflacion&desde=2024-01-01&hasta=2024-12-31&agrupar=mes&funcion=ultimo"
    )
    page.wait_for_selector("#series-grafico svg, #series-grafico canvas", timeout=TIMEOUT_MS)
    found = page.locator("#series-lista input[type=checkbox]")
    expected = {r[0] for r in _sql(servidor["db"], "SELECT id FROM series WHERE id LIKE '%.blue.%'")}
    assert {found.nth(i).get_attribute("value") for i in range(found.count())} == expected
    assert page.locator(f'#series-lista input[value="{blue}"]').is_checked()
    assert page.locator("#series-error").inner_text() == ""
    visita.check("10_series")

    # A user searches inflation and asks for years (the blue dollar stays picked): the compounded year, and its CSV.
    page.fill("#series-q", "inflación")
    page.click("#series-buscar button")
    page.wait_for_selector('#series-lista input[value="inflacion"]', timeout=TIMEOUT_MS)
    page.select_option("#series-agrupar", "anio")
    page.select_option("#series-funcion", "")
    assert page.locator('#series-lista input[value="inflacion"]').is_checked()
    with page.expect_response(lambda r: "/v1/series/datos" in r.url) as answer:
        page.click("#series-ver button")
    data = answer.value.json()
    assert [s["id"] for s in data["series"]] == [blue, "inflacion"]
    months = [v for (v,) in _sql(servidor["db"], "SELECT valor FROM inflacion WHERE fecha LIKE '2024-%'")]
    compounded = 100 * (math.prod(1 + v / 100 for v in months) - 1)
    assert data["datos"][0]["inflacion"] == pytest.approx(compounded)
    href = page.locator("#series-csv").get_attribute("href")
    assert "formato=csv" in href
    with urllib.request.urlopen(servidor["base"] + href, timeout=5) as r:
        text = r.read().decode()
    header = next(csv.reader(io.StringIO(text)))
    assert header[0] == "fecha" and header[1].endswith(f"(pesos por dólar) [{blue}]")
    assert header[2] == "Inflación anual (compuesta) (porcentaje (2.1 = 2,1 %)) [inflacion]"
    assert "formato=xlsx" in page.locator("#series-xlsx").get_attribute("href")
    visita.check("10b_series_por_anio")

    # Business days only: the dollar's title says so, the monthly inflation is as it was.
    page.select_option("#series-dias", "habiles")
    with page.expect_response(lambda r: "/v1/series/datos" in r.url) as answer:
        page.click("#series-ver button")
    assert "dias=habiles" in answer.value.url
    titles = [s["titulo"] for s in answer.value.json()["series"]]
    assert titles[0].endswith("anual (promedio de días hábiles)") and titles[1] == "Inflación anual (compuesta)"


@pytest.mark.lento
def test_el_explorador_dibuja_aparte_los_tramos_dudosos(visita, servidor):
    mayorista = "cotizaciones_dolares.mayorista.venta"
    with visita.page.expect_response(lambda r: "/v1/series/datos" in r.url) as answer:
        page = visita.go(f"/-/series?ids={mayorista}&desde=2023-12-01&hasta=2024-01-31")
    page.wait_for_selector("#series-grafico svg, #series-grafico canvas", timeout=TIMEOUT_MS)
    rows = answer.value.json()["datos"]
    flagged = [r for r in rows if r[f"{mayorista}:calidad"]]
    assert any("valor congelado" in r[f"{mayorista}:calidad"] for r in flagged)
    caption = page.locator("#series-dudosos").inner_text()
    assert caption.startswith(f"{len(flagged)} valores en tramos dudosos") and "valor congelado" in caption
    # The list says how many findings each series has; the page's own URL stays as the user chose it.
    page.wait_for_selector(f'#series-lista input[value="{mayorista}"]', timeout=TIMEOUT_MS)
    assert "en calidad" in page.locator("#series-lista").inner_text()
    assert "marcar" not in page.url
    visita.check("10c_series_dudosas")


def test_explorador_un_fondo_contra_el_dolar_blue(visita, servidor):
    """Issue 43: the explorer searches the whole catalogue as one types, narrows it by a fund's currency and
    charts a peso fund next to the blue dollar, both as an index (did the fund beat the dollar?)."""
    blue = "cotizaciones_dolares.blue.venta"
    fund = "fci_serie.balanz-capital-money-market-clase-a.vcp"
    page = visita.go(f"/-/series?ids={blue}&desde=2024-06-01&hasta=2025-06-30&agrupar=mes&funcion=ultimo")
    page.wait_for_selector("#series-grafico svg, #series-grafico canvas", timeout=TIMEOUT_MS)
    # Typed, not submitted: the list follows the words.
    page.fill("#series-q", "balanz capital money market")
    page.wait_for_selector(f'#series-lista input[value="{fund}"]', timeout=TIMEOUT_MS)
    assert page.locator("#series-lista input[type=checkbox]").count() >= 6
    # The facets of what was found: a fund's currency narrows the search on the server.
    moneda = page.locator('#series-facetas button[data-faceta="moneda"]')
    assert moneda.count() >= 1
    page.locator('#series-facetas button[data-faceta="moneda"]', has_text="ARS").first.click()
    page.wait_for_selector('#series-facetas button[data-faceta="moneda"][aria-pressed="true"]', timeout=TIMEOUT_MS)
    page.check(f'#series-lista input[value="{fund}"]')
    page.select_option("#series-indice", "100")
    with page.expect_response(lambda r: "/v1/series/datos" in r.url) as answer:
        page.click("#series-ver button")
    data = answer.value.json()
    assert [s["id"] for s in data["series"]] == [blue, fund]
    assert data["series"][1]["unidad"] == "pesos por cuotaparte" and data["series"][1]["frecuencia"] == "mensual"
    page.wait_for_selector("#series-grafico svg, #series-grafico canvas", timeout=TIMEOUT_MS)
    # One chart, both as an index (one unit: no panel per series), with the fund's own values from fci_serie.
    assert page.locator("#series-grafico svg").count() == 1
    last = [r for r in data["datos"] if r[fund] is not None][-1]
    month = last["fecha"][:7]
    (expected,) = _sql(
        servidor["db"],
        "SELECT vcp FROM fci_serie s JOIN fci_valores_fondo f ON f.id = s.fondo_id WHERE f.fondo = ? AND fecha LIKE ? "
        "ORDER BY fecha DESC LIMIT 1",
        "Balanz Capital Money Market - Clase A",
        month + "%",
    )[0]
    assert last[fund] == pytest.approx(expected)
    assert "indice=100" in page.url and fund in page.url
    assert page.locator("#series-error").inner_text() == ""
    visita.check("10c_fondo_contra_el_blue")


@pytest.mark.lento
def test_el_explorador_dibuja_la_primera_publicacion(visita, servidor):
    """Issue 54: «Primera publicación» draws each date's first published value (publicado=primera) dashed beside the
    current values: country risk's history shifted by a day on 2025-01-01."""
    with visita.page.expect_response(lambda r: "publicado=primera" in r.url) as answer:
        page = visita.go(
            "/-/series?ids=riesgo_pais,cotizaciones.USD.venta&desde=2024-12-01&hasta=2024-12-31&primera=primera"
        )
    page.wait_for_selector("#series-grafico svg, #series-grafico canvas", timeout=TIMEOUT_MS)
    first = answer.value.json()
    assert [s["id"] for s in first["series"]] == ["riesgo_pais"]  # the one with versions of its own
    assert all(r["riesgo_pais:publicado"] for r in first["datos"] if r["riesgo_pais"] is not None)
    assert "primera publicación" in page.locator("#series-grafico").inner_text()
    note = page.locator("#series-primera-nota").inner_text()
    assert note.startswith("Sin versiones guardadas") and "Riesgo país" not in note
    assert page.locator("#series-error").inner_text() == "" and "primera=primera" in page.url
