"""The database page's grouping and the pages' small text helpers (no mirror)."""

import re

import pytest

from argentina_datos.catalogo import references, tables_by_theme
from argentina_datos.documentacion.metadatos import code_html
from argentina_datos.web.paginas import INTERNAL, SUMMARY_CHARS, group_tables, summary


def test_tables_go_under_their_theme_in_catalogue_order_and_internal_ones_last():
    names = ["_construccion", "calidad", "fci_valores_fondo", "uva", "feriados", "fuentes", "fci_serie", "nueva"]
    groups = group_tables(names)
    titles = [t for t, _ in groups]
    order = [t for t, _ in tables_by_theme()]
    assert titles[-1] == INTERNAL and titles[:-1] == sorted(titles[:-1], key=order.index)
    by_title = dict(groups)
    assert by_title[INTERNAL] == ["_construccion", "calidad", "fuentes", "nueva"]  # no theme claims "nueva"
    fci = next(t for t in titles if "FCI" in t)
    assert by_title[fci] == ["fci_valores_fondo", "fci_serie"]  # a lookup table and a derived one
    assert by_title[titles[0]] == ["feriados"]


def test_summary_keeps_short_descriptions_and_cuts_long_ones_at_a_sentence():
    assert summary("Corta.") == "Corta."
    long = "Primera oración que explica la tabla con bastante detalle. " + "palabra " * 60
    cut = summary(long)
    assert cut == "Primera oración que explica la tabla con bastante detalle." and len(cut) <= SUMMARY_CHARS


def test_backticks_become_code_and_the_rest_is_escaped():
    assert code_html("`listado` es <año> & más") == "<code>listado</code> es &lt;año&gt; &amp; más"


def test_every_reference_names_an_existing_table():
    tables = {t for _, ts in tables_by_theme() for t in ts}
    assert references() and all(target in tables for _, _, target, _ in references())


async def test_table_and_row_pages_load_the_plugin_script_and_call_it(ds):
    """The pages' JavaScript is a static file of the plugin (web/paginas/static), not Python strings."""
    page = await ds.client.get("/argentina/senadores")
    assert page.status_code == 200
    src = "/-/static-plugins/argentina-datos/paginas.js"
    assert f'<script src="{src}"></script>' in page.text
    assert "argentinaDatos.foldColumnDescriptions();" in page.text
    script = await ds.client.get(src)
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    for name in ("foldColumnDescriptions", "titleRowByLabel", "listRelatedRows"):
        assert f"function {name}(" in script.text
    row_id = (await ds.client.get("/argentina/senadores.json?_shape=arrays&_size=1")).json()["rows"][0][0]
    row = await ds.client.get(f"/argentina/senadores/{row_id}")
    assert "argentinaDatos.titleRowByLabel(" in row.text and "argentinaDatos.listRelatedRows(" in row.text


def test_the_home_page_lists_the_first_table_of_each_theme_and_none_of_the_builds():
    from argentina_datos.web.paginas import first_tables

    names = ["versiones_registros", "fci_valores", "cotizaciones_dolares", "uva", "inflacion", "calidad", "feriados"]
    assert first_tables(names) == ["feriados", "cotizaciones_dolares", "inflacion", "fci_valores"]


async def test_fci_serie_vista_opens_on_each_categorys_last_day_with_its_title_once(ds, conn):
    import html
    import re

    page = await ds.client.get("/argentina/fci_serie_vista")
    assert page.status_code == 200
    h1 = html.unescape(re.search(r"<h1>(.*?)</h1>", page.text, re.S).group(1))
    assert h1.count("vista") == 1 and h1.endswith("con nombres (vista)"), h1
    last = dict(conn.execute("SELECT categoria_id, max(fecha) FROM fci_serie GROUP BY categoria_id").fetchall())
    common = min(last.values())
    assert len(set(last.values())) > 1  # retornoTotal ends on a day of its own
    assert f"Último día con datos de todas las categorías: {common}" in page.text
    assert f"/argentina/fci_serie_vista?fecha={common}&amp;_sort=categoria_id" in page.text
    (sin_moneda,) = conn.execute("SELECT count(*) FROM fci_serie WHERE moneda IS NULL").fetchone()
    assert sin_moneda and "Sin <code>moneda</code>" in page.text and "retornoTotal" in page.text
    assert "tardaron demasiado" not in page.text


@pytest.mark.parametrize(
    "question",
    [
        "SELECT count(*) FROM fci_serie_vista",
        "SELECT moneda, count(*) FROM (SELECT * FROM fci_serie_vista) WHERE moneda IS NOT NULL GROUP BY moneda",
    ],
)
def test_the_fci_view_counts_and_facets_from_an_index_without_the_names(conn, question):
    plan = " ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + question))
    assert "COVERING INDEX" in plan and "fci_valores_fondo" not in plan, plan


def test_each_categorys_last_day_is_found_in_the_index_not_by_walking_the_table(conn):
    from argentina_datos.web.paginas import _LAST_DAYS

    plan = [r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + _LAST_DAYS)]
    on_serie = [step for step in plan if "fci_serie" in step]
    assert on_serie and all("COVERING INDEX fci_serie_moneda_categoria_id" in step for step in on_serie), plan


async def test_the_ipc_page_shows_no_float_noise_and_no_tiny_level_as_zero(ds, conn):
    import html
    import re

    page = await ds.client.get("/argentina/ipc?_sort=mes&_size=1000")
    assert page.status_code == 200
    cells = [
        html.unescape(c).strip()
        for c in re.findall(r'<td class="col-(?:valor|aPesosDeHoy)[^"]*">(.*?)</td>', page.text, re.S)
    ]
    assert len(cells) == 2 * min(1000, conn.execute("SELECT count(*) FROM ipc").fetchone()[0])

    def too_long(cell: str) -> bool:
        """More than 10 significant digits, beyond a large amount's whole part and 2 decimals."""
        whole, _, decimals = cell.split("e")[0].partition(",")
        whole = re.sub(r"\D", "", whole).lstrip("0")
        significant = (whole + decimals).lstrip("0")
        return len(significant) > max(10, len(whole) + 2)

    assert "0" not in cells and not [c for c in cells if too_long(c)], [c for c in cells if too_long(c)][:5]


async def test_a_series_tables_page_links_to_its_findings_and_doubtful_spans(ds, conn):
    page = await ds.client.get("/argentina/cotizaciones_dolares")
    assert page.status_code == 200
    (total,) = conn.execute("SELECT count(*) FROM calidad WHERE tabla = 'cotizaciones_dolares'").fetchone()
    assert total > 0
    assert '/argentina/calidad?tabla=cotizaciones_dolares">' in page.text
    assert f"{total:,}".replace(",", ".") + " hallazgos sobre esta tabla" in page.text
    assert "/argentina/tramos_dudosos?tabla=cotizaciones_dolares" in page.text
    # A table that holds no series has no such box.
    assert "sobre esta tabla" not in (await ds.client.get("/argentina/feriados")).text


async def test_the_doubtful_spans_query_lists_the_wholesale_dollars_frozen_span(ds):
    response = await ds.client.get(
        "/argentina/tramos_dudosos.json?_shape=objects&tabla=cotizaciones_dolares&serie=casa%3Dmayorista"
    )
    rows = response.json()["rows"]
    assert {(r["control"], r["desde"], r["hasta"]) for r in rows} >= {("valor congelado", "2023-12-13", "2024-01-10")}
    assert all(r["serie"] == "casa=mayorista" and r["evidencia"] for r in rows)
    assert not [r for r in rows if r["control"] == "salto"]  # a jump is no doubtful span


@pytest.mark.mirror
async def test_a_table_with_its_own_id_is_keyed_by_it_in_urls(ds, conn):
    """/argentina/senadores/471 is the senator whose id is 471, not the 471st row (issue 43)."""
    (name,) = conn.execute("SELECT nombre FROM senadores WHERE id = '471'").fetchone()
    (other,) = conn.execute("SELECT nombre FROM senadores WHERE rowid = 471").fetchone()
    assert name != other
    response = await ds.client.get("/argentina/senadores/471.json?_shape=array")
    assert response.status_code == 200 and [r["nombre"] for r in response.json()] == [name]
    page = await ds.client.get("/argentina/senadores?_size=5")
    assert 'href="/argentina/senadores/' in page.text
    first = conn.execute("SELECT id FROM senadores ORDER BY id LIMIT 1").fetchone()[0]
    assert f'href="/argentina/senadores/{first}"' in page.text


async def test_home_and_database_pages_lead_to_the_series_explorer_and_say_how_fresh_the_data_is(ds, conn):
    """A newcomer finds /-/series from the site (the menu, the home page, the database page) and sees, in one line,
    the main data's last dates: the dollar's is the last day the quotes table has."""
    (last_quote,) = conn.execute("SELECT max(fecha) FROM cotizaciones_dolares WHERE venta IS NOT NULL").fetchone()
    for url in ("/", "/argentina", "/argentina/series"):
        page = (await ds.client.get(url)).text
        assert '<li><a href="/-/series">Series</a></li>' in page, url  # the menu
        if url != "/argentina/series":
            line = page.split('<p class="frescura">')[1].split("</p>")[0]
            assert f"Cotizaciones del dólar al {last_quote[:10]}" in line and 'href="/-/series"' in line, url
    assert (await ds.client.get("/-/series")).status_code == 200


async def test_a_frozen_wholesale_row_is_marked_on_its_table_page_and_the_banner_keeps_the_filter(ds, conn):
    """The wholesale dollar's frozen span of December 2023 (tramos_dudosos): each of its rows says so on the table
    page, the rows around it do not, and the banner's links stay on casa=mayorista."""
    spans = conn.execute(
        "SELECT fecha, coalesce(hasta, fecha) FROM calidad WHERE tabla = 'cotizaciones_dolares' "
        "AND serie = 'casa=mayorista' AND control = 'valor congelado' AND fecha <= '2024-01-10' AND hasta >= '2023-12-13'"
    ).fetchall()
    assert spans
    page = await ds.client.get(
        "/argentina/cotizaciones_dolares?casa=mayorista&fecha__gte=2023-12-01&fecha__lte=2024-01-31&_sort=fecha&_size=100"
    )
    cells = re.findall(
        r'<td class="col-fecha[^"]*">(\d{4}-\d{2}-\d{2})( <span class="dudoso"[^>]*>⚠ ([^<]*)</span>)?</td>', page.text
    )
    assert len(cells) > 40
    for day, mark, checks in cells:
        frozen = any(first <= day <= last for first, last in spans)
        assert bool(mark) == bool(checks) and (frozen <= ("valor congelado" in checks)), (day, checks)
    assert any(not mark for _, mark, _ in cells) and any(mark for _, mark, _ in cells)
    banner = page.text.split('<div class="hallazgos"')[1].split("</div>")[0]
    assert "/argentina/calidad?tabla=cotizaciones_dolares&amp;serie=casa%3Dmayorista" in banner
    assert "/argentina/tramos_dudosos?tabla=cotizaciones_dolares&amp;serie=casa%3Dmayorista" in banner
    (count,) = conn.execute(
        "SELECT count(*) FROM calidad WHERE tabla = 'cotizaciones_dolares' AND serie = 'casa=mayorista'"
    ).fetchone()
    assert f"{count} hallazgos sobre la serie casa=mayorista" in banner
