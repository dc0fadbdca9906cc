"""metadata.yml: generated from the catalogue, up to date, and describing every table and column of the built DB."""

import re
import shutil
import unicodedata

import pytest
import yaml

from argentina_datos.catalogo import DATASETS
from argentina_datos.documentacion import metadatos

DB = metadatos.DATABASE


@pytest.fixture(scope="module")
def metadata():
    return yaml.safe_load(metadatos.METADATA.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def tables(metadata):
    return metadata["databases"][DB]["tables"]


def plain(text):
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def visible_tables(conn):
    """Tables and views a user sees: not SQLite's own, not the FTS index tables Datasette hides."""
    rows = conn.execute("SELECT name, type, sql FROM sqlite_master WHERE type IN ('table', 'view')").fetchall()
    fts = {name for name, _, sql in rows if sql and sql.upper().startswith("CREATE VIRTUAL TABLE")}
    shadow = re.compile(r"_(data|idx|docsize|config|content)$")
    return [
        name
        for name, _, _ in rows
        if not name.startswith("sqlite_")
        and name not in fts
        and not (shadow.search(name) and shadow.sub("", name) in fts)
    ]


def test_metadata_yml_is_up_to_date():
    expected = metadatos.render(metadatos.build())
    assert metadatos.METADATA.read_text(encoding="utf-8") == expected, (
        "metadata.yml está desactualizado: corra python -m argentina_datos.documentacion.metadatos"
    )


def test_check_mode_detects_a_stale_file(tmp_path):
    stale = tmp_path / "metadata.yml"
    stale.write_text("title: viejo\n", encoding="utf-8")
    assert metadatos.main(["--check", "--output", str(stale)]) == 1
    assert metadatos.main(["--output", str(stale)]) == 0
    assert metadatos.main(["--check", "--output", str(stale)]) == 0


def test_site_metadata(metadata):
    for key in ("title", "license", "license_url", "source", "source_url"):
        assert metadata.get(key), key
    assert "fracción" in metadata["description_html"] and "porcentaje" in metadata["description_html"]


def test_every_table_view_and_column_is_described(conn, tables):
    names = visible_tables(conn)
    assert "fci_valores_vista" in names and "fuentes" in names and "_construccion" in names
    missing = []
    for name in names:
        meta = tables.get(name) or {}
        if not str(meta.get("description", "")).strip():
            missing.append(name)
        described = meta.get("columns") or {}
        for (column,) in conn.execute(f"SELECT name FROM pragma_table_info('{name}')"):
            if not str(described.get(column, "")).strip():
                missing.append(f"{name}.{column}")
    assert not missing, f"sin descripción en metadata.yml: {missing}"


def test_no_metadata_for_tables_that_do_not_exist(conn, tables):
    assert not set(tables) - set(visible_tables(conn))


def test_every_table_names_its_source_and_licence(tables):
    for name, meta in tables.items():
        assert meta.get("source") and meta.get("license"), name


def test_each_dataset_names_the_routes_it_backs(tables):
    for d in DATASETS:
        for route in d.routes:
            assert route.path in tables[d.table]["description"], (d.table, route.path)


def test_units_are_pint_units_and_scales_are_explained(tables):
    from datasette.views.base import ureg

    for name, meta in tables.items():
        for column, unit in (meta.get("units") or {}).items():
            ureg(unit)  # raises on a unit Pint does not know
            assert column in meta["columns"], (name, column)
    columns = tables["inflacion"]["columns"]["valor"] + tables["plazo_fijo"]["columns"]["tnaClientes"]
    assert "2.1 = 2,1 %" in columns and "0.25 = 25 %" in columns


def test_configured_columns_exist(conn, tables):
    for name, meta in tables.items():
        cols = {c for (c,) in conn.execute(f"SELECT name FROM pragma_table_info('{name}')")}
        named = list(meta.get("facets") or []) + [meta[k] for k in ("sort", "sort_desc", "label_column") if k in meta]
        assert set(named) <= cols, (name, set(named) - cols)
        if "fts_table" in meta:
            assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [meta["fts_table"]]).fetchone(), name


@pytest.mark.parametrize(
    "table",
    [
        "fci_fondos",
        "remesas",
        "cobros_comisiones",
        "brokers_comisiones",
        "senadores",
        "senado_viajes_internacionales",
        "senado_viajes_nacionales",
        "fci_valores_fondo",
    ],
)
async def test_search_finds_rows(ds, conn, tables, table):
    column = tables[table]["columns"] and next(
        iter(c for c in ("compania", "nombre", "entidad", "destino", "fondo") if c in tables[table]["columns"])
    )
    value = conn.execute(f'SELECT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL LIMIT 1').fetchone()[0]
    word = max(re.findall(r"\w+", value), key=len)
    r = await ds.client.get(f"/{DB}/{table}.json", params={"_search": word, "_shape": "array"})
    assert r.status_code == 200
    rows = r.json()
    # The FTS index ignores case and accents (remove_diacritics): compare the same way.
    assert rows and all(plain(word) in plain(" ".join(map(str, row.values()))) for row in rows[:20])


async def test_configured_facets_are_shown(ds):
    r = await ds.client.get(f"/{DB}/cotizaciones_dolares.json")
    facets = r.json()["facet_results"]
    assert "casa" in facets
    assert {"blue", "oficial"} <= {f["value"] for f in facets["casa"]["results"]}


async def test_lookup_ids_show_their_labels(ds):
    r = await ds.client.get(f"/{DB}/fci_valores.json?_labels=on&_size=1")
    row = r.json()["rows"][0]
    assert isinstance(row["categoria_id"], dict) and row["categoria_id"]["label"]


async def test_logos_are_links_and_no_page_loads_an_outside_image(ds, conn):
    logo, enlace = conn.execute(
        "SELECT logo, enlace FROM plazo_fijo WHERE logo LIKE 'http%' AND enlace LIKE 'http%' LIMIT 1"
    ).fetchone()
    html = (await ds.client.get(f"/{DB}/plazo_fijo")).text
    assert f'<a href="{logo}"' in html and f'<a href="{enlace.strip()}"' in html
    for page in ("plazo_fijo", "senadores", "diputados_diputados", "fci_comparatasas"):
        html = (await ds.client.get(f"/{DB}/{page}")).text
        assert not re.search(r"<img[^>]+src=\"https?://", html), page


async def test_each_table_names_its_licence_and_source(ds):
    data = (await ds.client.get(f"/{DB}/inflacion.json?_size=0&_extra=metadata")).json()
    html = (await ds.client.get(f"/{DB}/inflacion")).text
    assert "INDEC" in html and "MIT (ArgentinaDatos) para la compilación; los datos: INDEC" in html, data.keys()
    html = (await ds.client.get(f"/{DB}/fuentes")).text
    assert "MIT (ArgentinaDatos)" in html and "los datos:" not in html


async def test_json_lists_of_links_render_as_links(ds, conn):
    (sid,) = conn.execute("SELECT id FROM senadores WHERE redes LIKE '%http%' LIMIT 1").fetchone()
    html = (await ds.client.get(f"/{DB}/senadores?id={sid}")).text
    assert re.search(r'<a href="https?://[^"]+">', html)


def test_tableros_and_extra_queries_are_merged(tmp_path):
    for part in ("base.yml", "consultas.yml"):
        shutil.copy(metadatos.PARTS / part, tmp_path / part)
    (tmp_path / "tableros.yml").write_text(
        yaml.safe_dump(
            {
                "plugins": {"datasette-dashboards": {"principal": {"title": "Tablero"}}},
                "databases": {DB: {"queries": {"serie_extra": {"sql": "select 1"}}}},
            }
        ),
        encoding="utf-8",
    )
    merged = metadatos.build(tmp_path)
    assert merged["plugins"]["datasette-dashboards"]["principal"]["title"] == "Tablero"
    assert merged["databases"][DB]["tables"]["fuentes"]["title"] == "Archivos leídos"  # base.yml's parts survive
    queries = merged["databases"][DB]["queries"]
    assert "serie_extra" in queries and "brecha_cambiaria" in queries
    assert "feriados" in merged["databases"][DB]["tables"]


def test_test_database_is_served_under_the_documented_name(ds):
    assert DB in ds.databases


async def test_served_read_only(ds, conn):
    from argentina_datos.web.servidor import SETTINGS

    assert not ds.databases[DB].is_mutable
    before = conn.execute("SELECT count(*) FROM fuentes").fetchone()[0]
    r = await ds.client.get(f"/{DB}.json", params={"sql": "insert into fuentes (ruta) values ('x')"})
    assert r.status_code == 400
    r = await ds.client.post(f"/{DB}/fuentes", data={"ruta": "x"})
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
    assert conn.execute("SELECT count(*) FROM fuentes").fetchone()[0] == before
    assert SETTINGS["sql_time_limit_ms"] <= 5000 and SETTINGS["max_returned_rows"] <= 10000


def test_no_canned_query_writes(metadata):
    for name, q in metadata["databases"][DB]["queries"].items():
        assert not q.get("write"), name


def test_charts_are_pointed_at_the_served_database(tmp_path):
    for part in ("base.yml", "consultas.yml"):
        shutil.copy(metadatos.PARTS / part, tmp_path / part)
    (tmp_path / "tableros.yml").write_text(
        yaml.safe_dump(
            {
                "plugins": {
                    "datasette-dashboards": {
                        "d": {
                            "charts": {
                                "a": {"query": "select 1"},
                                "b": {"query": "select 2", "db": "otra"},
                                "c": {"library": "markdown"},
                            },
                            "filters": {"f": {"query": "select 3"}},
                        }
                    }
                }
            }
        ),
        encoding="utf-8",
    )
    d = metadatos.build(tmp_path)["plugins"]["datasette-dashboards"]["d"]
    assert d["charts"]["a"]["db"] == metadatos.DATABASE and d["filters"]["f"]["db"] == metadatos.DATABASE
    assert d["charts"]["b"]["db"] == "otra"  # a chart that names its database keeps it
    assert "db" not in d["charts"]["c"]  # no query, no database
