"""Each reach into Datasette's internals (web/compatibilidad.py) does what it is there for, on the
Datasette installed: a test each, so that a Datasette upgrade that changes one fails here first."""

from __future__ import annotations

import gc
import json
import re
import sqlite3
from pathlib import Path

import datasette
import pytest

from argentina_datos.construccion import cli
from argentina_datos.web import compatibilidad, paginas
from argentina_datos.web.servidor import datasette_for

UVA = "v1/finanzas/indices/uva"


@pytest.fixture
def ds(tmp_path):
    path = tmp_path / "fuente" / UVA / "index.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps([{"fecha": "2016-03-31", "valor": 14.05}]))
    out = tmp_path / "argentina.db"
    assert cli.main(["--source", str(tmp_path / "fuente"), "--output", str(out)]) == 0
    return datasette_for(out)


def test_the_installed_datasette_is_the_series_the_internals_were_read_from():
    compatibilidad.check_version()  # the installed one
    assert datasette.__version__.startswith(compatibilidad.SERIES)
    with pytest.raises(compatibilidad.UntestedDatasette, match="1.0a"):
        compatibilidad.check_version("1.0a19")


async def test_permission_and_plugin_config_answers_are_computed_once(ds):
    await ds.invoke_startup()
    first = ds._table_permission_allows("argentina", "uva")
    assert ds._table_permission_allows("argentina", "uva") is first
    assert ds.__dict__["_permissions_by_table"][("argentina", "uva")] is first
    config = ds.plugin_config("datasette-dashboards")
    assert ds.plugin_config("datasette-dashboards") is config
    assert ("datasette-dashboards", None, None, True) in ds.__dict__["_plugin_configs"]


async def test_the_served_database_is_ours_and_reads_its_own_file(ds):
    db = ds.get_database("argentina")
    assert isinstance(db, compatibilidad.ServedDatabase)
    assert (await db.execute("select count(*) from uva")).first()[0] == 1


async def test_a_users_bad_sql_is_no_error_line_of_the_server(ds, capfd):
    response = await ds.client.get("/argentina.json?sql=select+*+from+nada")
    assert response.status_code == 400 and "no such table: nada" in response.json()["error"]
    response = await ds.client.get("/argentina/uva.json?_where=nada%3D1")
    assert response.status_code == 400
    assert "ERROR" not in capfd.readouterr().err


async def test_a_failed_query_releases_its_cursor_in_its_own_thread(ds):
    """Left to the garbage collector, the cursor was finalized on the event loop, which then waited,
    holding the GIL, for the connection's next query: every request stalled up to 3 s."""
    db = ds.get_database("argentina")
    await db.execute("select 1")  # the thread's connection exists
    gc.disable()
    try:
        before = sum(isinstance(o, sqlite3.Cursor) for o in gc.get_objects())
        with pytest.raises(sqlite3.DataError):
            await db.execute("select randomblob(1e9)")
        after = sum(isinstance(o, sqlite3.Cursor) for o in gc.get_objects())
    finally:
        gc.enable()
    assert after <= before


async def test_execute_can_be_wrapped(ds):
    seen = []

    def recording(execute):
        async def wrapped(db_name, sql, *args, **kwargs):
            seen.append(sql)
            return await execute(db_name, sql, *args, **kwargs)

        return wrapped

    compatibilidad.replace_execute(ds, recording)
    await ds.execute("argentina", "select 42")
    assert seen == ["select 42"]


def test_the_copied_templates_are_translations_of_the_installed_datasettes():
    """The pages' Spanish templates replace Datasette's: a Datasette whose templates changed would show
    the old copies. Copy each again from datasette/templates/, translate its text, update its digest."""
    assert compatibilidad.changed_templates() == []
    ours = Path(paginas.__file__).parent / "templates"
    copies = {p.name for p in ours.glob("*.html") if (compatibilidad.DATASETTE_TEMPLATES / p.name).exists()}
    assert copies == set(compatibilidad.COPIED_TEMPLATES)
    # Only the text is translated: the blocks a plugin's template extends stay where they are.
    blocks = re.compile(r"{%-?\s*block\s+(\w+)")
    for name in copies:
        original = (compatibilidad.DATASETTE_TEMPLATES / name).read_text()
        assert blocks.findall((ours / name).read_text()) == blocks.findall(original), name


def test_a_changed_datasette_template_is_named(tmp_path):
    for name in compatibilidad.COPIED_TEMPLATES:
        (tmp_path / name).write_bytes((compatibilidad.DATASETTE_TEMPLATES / name).read_bytes())
    (tmp_path / "table.html").write_text((tmp_path / "table.html").read_text() + "<!-- 0.65.6 -->")
    (tmp_path / "row.html").unlink()
    assert compatibilidad.changed_templates(tmp_path) == ["row.html", "table.html"]


def test_the_tables_keyed_by_their_own_id_are_the_catalogues():
    # Their natural key is their one id field; a table with child tables keeps its «fila», which they point to.
    assert compatibilidad.OWN_KEYS["senadores"] == ["id"]
    assert compatibilidad.OWN_KEYS["senado_viajes_conteo"] == ["senadorId"]
    assert "senado_bloques" not in compatibilidad.OWN_KEYS and "cotizaciones_dolares" not in compatibilidad.OWN_KEYS
