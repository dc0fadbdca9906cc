"""The pages in Spanish, with numbers as Argentines read them (web/paginas: the copied templates and
castellano.py), on a database of a few rows built here (no mirror): the HTML says "1 fila",
"1.200 filas", "filas donde … ordenadas por", "Aplicar", "Ejecutar SQL" and "1.430,5"; the JSON and
CSV of the same pages keep the stored numbers."""

from __future__ import annotations

import html
import json
import re

import pytest
from datasette.filters import Filters

from argentina_datos.construccion import cli
from argentina_datos.web.paginas import castellano
from argentina_datos.web.servidor import datasette_for

DOLARES = [
    {"casa": "blue", "compra": 1410, "venta": 1430.5, "fecha": "2024-01-02"},
    {"casa": "oficial", "compra": 800.25, "venta": 840, "fecha": "2024-01-02"},
]
UVA_DAYS = 1200
# Datasette 0.65's English, which no page may show.
ENGLISH = ["rows where", "sorted by", '"Apply"', "Run SQL", "Format SQL", "Next page", "This data as", "Powered by"]


@pytest.fixture(scope="module")
def ds(tmp_path_factory):
    source = tmp_path_factory.mktemp("fuente")
    dolares = source / "v1/cotizaciones/dolares/index.json"
    dolares.parent.mkdir(parents=True)
    dolares.write_text(json.dumps(DOLARES))
    uva = source / "v1/finanzas/indices/uva/index.json"
    uva.parent.mkdir(parents=True)
    days = [f"{2020 + i // 360}-{1 + i // 30 % 12:02d}-{1 + i % 30:02d}" for i in range(UVA_DAYS)]
    uva.write_text(json.dumps([{"fecha": day, "valor": 14.05 + i} for i, day in enumerate(days)]))
    inflacion = source / "v1/finanzas/indices/inflacion/index.json"
    inflacion.parent.mkdir(parents=True)
    inflacion.write_text(json.dumps([{"fecha": "2025-12-31", "valor": 2.8}, {"fecha": "2026-01-31", "valor": 1}]))
    out = source.parent / "argentina.db"
    assert cli.main(["--source", str(source), "--output", str(out)]) == 0
    return datasette_for(out)


async def page(ds, path: str) -> str:
    response = await ds.client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.text


def text(page_html: str) -> str:
    """What a reader sees: the page without its tags and scripts, unescaped, with single spaces."""
    body = re.sub(r"<script.*?</script>|<style.*?</style>", " ", page_html, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def title(page_html: str) -> str:
    return html.unescape(re.search(r"<title>(.*?)</title>", page_html, re.S).group(1)).strip()


def cells(page_html: str, column: str) -> list[str]:
    return [html.unescape(c).strip() for c in re.findall(rf'<td class="col-{column}[^"]*">(.*?)</td>', page_html, re.S)]


def assert_no_english(page_html: str):
    found = [e for e in ENGLISH if e in page_html or e in text(page_html)]
    assert not found, found


async def test_a_filtered_table_says_one_row_where_and_sorted_by_in_spanish(ds):
    body = await page(ds, "/argentina/cotizaciones_dolares?casa=blue&_sort_desc=venta")
    seen = text(body)
    assert '1 fila donde casa = "blue", ordenada por venta (descendente)' in seen
    assert (
        title(body) == 'argentina: cotizaciones_dolares: 1 fila donde casa = "blue", ordenada por venta (descendente)'
    )
    assert '<input type="submit" value="Aplicar">' in body
    for words in ("- columna -", "contiene", "Estos datos como", "Exportar CSV", "Inicio", "Hecho con"):
        assert words in seen or words in body, words
    assert_no_english(body)


async def test_row_counts_are_singular_or_plural_with_thousands_separated_by_a_dot(ds):
    assert "2 filas" in text(await page(ds, "/argentina/cotizaciones_dolares?_sort=casa"))
    uva = text(await page(ds, "/argentina/uva"))
    assert f"{UVA_DAYS:,} filas".replace(",", ".") in uva and "1.200 filas" in uva
    assert "Siguiente página" in uva
    assert castellano.rows(1) == "1 fila" and castellano.rows(12389) == "12.389 filas"
    assert castellano.rows(2, "tabla", "tablas") == "2 tablas"


async def test_the_html_table_writes_numbers_as_argentines_read_them_and_the_json_and_csv_do_not(ds):
    body = await page(ds, "/argentina/cotizaciones_dolares?_sort=casa")
    assert cells(body, "venta") == ["1.430,5", "840"]
    assert cells(body, "compra") == ["1.410", "800,25"]
    data = json.loads(await page(ds, "/argentina/cotizaciones_dolares.json?_shape=array&_sort=casa"))
    assert [r["venta"] for r in data] == [1430.5, 840]
    csv = await page(ds, "/argentina/cotizaciones_dolares.csv?_sort=casa")
    assert "1430.5" in csv and "1.430,5" not in csv


async def test_a_column_with_a_unit_keeps_it_after_the_argentine_number(ds):
    """inflacion.valor is in percent (metadata "units"): Datasette wrote "2.8 %"; the page "2,8 %"."""
    body = await page(ds, "/argentina/inflacion?_sort=fecha")
    assert cells(body, "valor") == ["2,8\u00a0%", "1\u00a0%"]
    assert castellano.cell(30, "plazoMinDias", "day") == "30\u00a0días"
    assert castellano.cell(1, "plazoMinDias", "day") == "1\u00a0día"
    assert castellano.cell(2.5, "x", "meter") is None  # a unit not translated: Datasette's own


async def test_the_query_page_is_in_spanish_and_titled_by_its_sql_only_when_not_canned(ds):
    body = await page(ds, "/argentina?sql=select+1430.5+as+x,+2024+as+anio")
    assert '<input type="submit" value="Ejecutar SQL"' in body and ">Formatear SQL</button>" in body
    assert "Consulta SQL: 1 fila" in text(body)
    assert cells(body, "x") == ["1.430,5"] and cells(body, "anio") == ["2024"]  # a year is not 2.024
    assert title(body) == "argentina: select 1430.5 as x, 2024 as anio"
    assert_no_english(body)
    data = json.loads(await page(ds, "/argentina.json?sql=select+1430.5+as+x&_shape=array"))
    assert data == [{"x": 1430.5}]


async def test_a_canned_query_tab_is_titled_by_the_query_title_not_its_sql(ds):
    body = await page(ds, "/argentina/dolar_por_casa")
    assert title(body) == ds.metadata("queries", database="argentina")["dolar_por_casa"]["title"]
    assert "select" not in title(body).lower()
    assert "Parámetros" in text(body) and "Ejecutar SQL" in body
    assert cells(body, "venta") == ["1.430,5"]
    assert_no_english(body)


async def test_the_home_database_row_and_error_pages_are_in_spanish(ds):
    home = text(await page(ds, "/"))
    assert re.search(r"[\d.]+ filas en \d+ tablas", home), home[:500]
    database = await page(ds, "/argentina")
    assert 'value="Ejecutar SQL"' in database and ">Formatear SQL</button>" in database
    row = text(await page(ds, "/argentina/cotizaciones_dolares/1"))
    assert "Estos datos como" in row and "Inicio" in row
    missing = await ds.client.get("/argentina/no_existe")
    assert missing.status_code == 404 and "No existe esa tabla" in missing.text
    assert "Table not found" not in missing.text
    # The error's JSON keeps Datasette's words: it is read by programs.
    assert (await ds.client.get("/argentina/no_existe.json")).json()["error"] == "Table not found"


def test_numbers_keep_their_decimals_and_names_keep_their_digits():
    assert castellano.number(1430.5) == "1.430,5"
    assert castellano.number(1430.0) == "1.430"
    assert castellano.number(-1234567.891) == "-1.234.567,891"
    assert castellano.number(0.05) == "0,05"
    assert castellano.number(12389) == "12.389"
    assert castellano.number(1e-7) == "1e-07" and castellano.number(float("inf")) is None
    assert castellano.number(True) is None and castellano.number("1430.5") is None
    assert castellano.cell(2024, "anio") is None and castellano.cell(12511, "id") is None
    assert castellano.cell(3269, "senadorId") is None and castellano.cell(5, "fci_valores_fondo_id") is None
    assert castellano.cell(28857, "registros") == "28.857"
    assert castellano.cell(2024.5, "anio") == "2.024,5"  # a float is a measure whatever its name


class Args(dict):
    def getlist(self, key):
        return [self[key]] if key in self else []


def test_filters_are_described_in_spanish_in_datasettes_order():
    filters = Filters([("casa__in", "blue,oficial"), ("fecha__gte", "2024-01-01"), ("venta__notnull", "1")])
    described = castellano.describe(filters, Args(_search="dólar", _sort="fecha"), count=2)
    assert described == (
        'donde la búsqueda coincide con "dólar", casa está en ["blue", "oficial"], fecha ≥ 2024-01-01 y '
        "venta no es nulo, ordenadas por fecha"
    )
    assert castellano.describe(Filters([]), Args(), count=5, metadata={"sort_desc": "fecha"}) == (
        "ordenadas por fecha (descendente)"
    )
    assert castellano.describe(Filters([("id", "7")]), Args(), count=1) == "donde id = 7"
    assert castellano.describe(Filters([]), Args()) == ""
    # Every lookup Datasette offers has its Spanish words.
    assert {key for key, _, _ in Filters([]).lookups()} <= set(castellano.LOOKUPS)


def test_numbers_on_the_pages_have_no_float_noise():
    assert castellano.number(1.0578119999999998) == "1,057812"
    assert castellano.number(10377.22160496616) == "10.377,2216"
    assert castellano.number(0.1 + 0.2) == "0,3"
    assert castellano.number(1234567890123.45) == "1.234.567.890.123,45"  # a patrimonio keeps its cents
    assert castellano.number(0.00012345) == "0,00012345"
    assert castellano.number(0.000123456789012345) == "0,000123456789"  # 10 significant digits
    assert castellano.number(3.1063495266145467e-13) == "3,106349527e-13"  # not "0" (the ipc's 1943 levels)


async def test_the_time_limit_page_is_in_spanish_and_keeps_the_editor_and_the_query(ds):
    sql = "with recursive r(i) as (select 1 union all select i + 1 from r where i < 100000000) select count(*) from r"
    response = await ds.client.get("/argentina", params={"sql": sql, "_timelimit": "20"})
    assert response.status_code == 400
    body = response.text
    assert title(body) == "La consulta tardó demasiado"
    assert "el límite de tiempo de cada consulta" in text(body) and "agregue «limit»" in text(body)
    editor = re.search(r'<form class="sql" action="/argentina" method="get">.*?</form>', body, re.S)
    assert editor and 'id="sql-editor" name="sql"' in editor.group() and html.escape(sql) in editor.group()
    assert 'value="Ejecutar SQL"' in editor.group() and "codemirror" in body
    assert 'name="_timelimit"' not in editor.group()
    assert "took too long" not in body and "sql_time_limit_ms" not in body and "Interrupted" not in text(body)


@pytest.mark.parametrize(
    "path, params, spanish, english",
    [
        ("/argentina", {"sql": "select * from nada"}, "No existe la tabla «nada»", "no such table"),
        ("/argentina", {"sql": "select nada from uva"}, "No existe la columna «nada»", "no such column"),
        ("/argentina", {"sql": "select * frm uva"}, "Error de sintaxis cerca de «frm»", "syntax error"),
        ("/argentina/uva", {"_sort": "nada"}, "No se puede ordenar la tabla por «nada»", "Cannot sort"),
    ],
)
async def test_datasette_and_sqlite_errors_are_translated_on_the_page_not_in_the_json(
    ds, path, params, spanish, english
):
    response = await ds.client.get(path, params=params)
    assert response.status_code == 400
    assert spanish in text(response.text) and english not in response.text
    as_json = await ds.client.get(path + ".json", params=params)
    assert english in as_json.json()["error"]


@pytest.mark.parametrize(
    "path, back, suggested",
    [
        ("/argentina/cotizacion_dolares", "/argentina", "cotizaciones_dolares"),
        ("/argentina/dolares", "/argentina", "cotizaciones_dolares"),
        ("/argentina/dolar_por_cas", "/argentina", "dolar_por_casa"),  # a canned query
        ("/argentin", None, "argentina"),
    ],
)
async def test_the_404_page_links_back_and_suggests_the_closest_names(ds, path, back, suggested):
    response = await ds.client.get(path)
    assert response.status_code == 404
    links = dict((html.unescape(t), h) for h, t in re.findall(r'<a href="([^"]*)">([^<]*)</a>', response.text))
    assert links.get(suggested, "").endswith("/" + suggested)
    assert links.get("Volver al inicio") == "/"
    if back:
        assert links.get("Volver a las tablas de argentina") == back


async def test_the_home_page_lists_data_tables_first_and_not_the_builds_own(ds):
    body = await page(ds, "/")
    linked = re.findall(r'<a href="/argentina/([^"?]+)"', body)
    assert linked[:2] == ["cotizaciones_dolares", "inflacion"], linked
    assert not set(linked) & {"fuentes", "calidad", "versiones_registros", "_construccion", "cambios"}
    assert "todas las tablas, por tema" in text(body)
