"""Researchers see data, not codecs: no table or view Datasette lists, no leer() frame and no Parquet file
has a column starting with "_".  What /v1 needs to give each record back byte for byte (the keys a
record omits, what it carries beyond its declared shape, its keys' order) is in the hidden ``_extra``
table, which only /v1 reads.  A database written before (with ``_omitidas`` and ``_extra`` columns in
every table) still answers: a build reads its previous one."""

from __future__ import annotations

import sqlite3

import orjson
import pyarrow.parquet as pq
from ayudas import answer, build_tables, write_file

import argentina_datos as ad
from argentina_datos.almacen.consultas import query_for
from argentina_datos.catalogo.esquema import ROW_ID
from argentina_datos.publicacion import exportar_parquet
from argentina_datos.web.servidor import DATABASE_NAME, datasette_for
from argentina_datos.web.v1.api import V1

# Each file has records exactly as declared and records that are not: an optional key omitted, a key the
# catalogue does not declare, keys in another order, a value of another type, a whole number with decimals.
FILES = {
    "v1/cotizaciones": [
        {"moneda": "USD", "casa": "oficial", "compra": 1000, "venta": 1050.5, "fecha": "2025-01-02"},
        {"moneda": "EUR", "compra": 1100, "venta": 1150, "fecha": "2025-01-02"},
        {"casa": "blue", "moneda": "USD", "compra": 1200, "venta": 1230, "fecha": "2025-01-02", "nuevo": [1]},
    ],
    "v1/finanzas/rendimientos": [
        {
            "entidad": "banco",
            "rendimientos": [
                {"moneda": "ARS", "apy": 30, "fecha": "2025-01-02", "bonusValue": 1.5, "bonusThreshold": 100},
                {"moneda": "USD", "apy": 2.0, "fecha": "2025-01-02"},
            ],
        },
        {"entidad": "billetera", "rendimientos": [{"moneda": "ARS", "apy": 31, "fecha": "2025-01-02"}], "x": 1},
    ],
    "v1/finanzas/rendimientos/banco": [
        {"moneda": "ARS", "apy": 30, "fecha": "2025-01-02", "bonusValue": 1.5, "bonusThreshold": 100},
        {"moneda": "USD", "apy": 2, "fecha": "2025-01-02"},
    ],
    "v1/finanzas/rendimientos/billetera": [{"moneda": "ARS", "apy": 31, "fecha": "2025-01-02"}],
    "v1/finanzas/indices/uva": [{"fecha": "2016-03-31", "valor": 14.05}, {"fecha": "2016-04-01", "valor": "14,06"}],
}
TABLES = ["cotizaciones", "rendimientos", "rendimientos_entidad", "uva"]


def small_build(tmp_path):
    src = tmp_path / "src"
    for route, records in FILES.items():
        write_file(src, route, records)
    db = tmp_path / "chica.db"
    build_tables(src, db, TABLES).close()
    return db


def internal(columns) -> list[str]:
    # _id is not a codec: it is the key by which a parent table's children name their row.
    return [c for c in columns if c.startswith("_") and c != ROW_ID]


async def visible_columns(ds) -> dict[str, list[str]]:
    """Every table and view Datasette lists (not the hidden ones) -> its columns."""
    db = ds.get_database(DATABASE_NAME)
    hidden = set(await db.hidden_table_names())
    names = [n for n in await db.table_names() if n not in hidden] + await db.view_names()
    return {n: await db.table_columns(n) for n in names}


async def test_a_build_shows_no_internal_column_and_v1_answers_exactly(tmp_path):
    db = small_build(tmp_path)
    conn = sqlite3.connect(db)
    for route, records in FILES.items():
        status, body = answer(V1(), conn, "/" + route)
        assert status == 200 and orjson.dumps(body) == orjson.dumps(records), route
    kept = conn.execute("SELECT tabla, count(*) FROM _extra GROUP BY tabla ORDER BY tabla").fetchall()
    # a row without an extra is its record as declared: only the odd ones are in _extra
    assert kept == [
        ("cotizaciones", 2),
        ("rendimientos", 1),
        ("rendimientos_entidad", 2),
        ("rendimientos_monedas", 2),
        ("uva", 1),
    ]

    columns = await visible_columns(datasette_for(db))
    assert set(TABLES) <= set(columns) and "_extra" not in columns
    assert {t: internal(c) for t, c in columns.items() if internal(c)} == {}
    for table in columns:
        assert internal(ad.leer(table, db=conn, where="0").columns) == [], table
    exportar_parquet.export(db, tmp_path / "parquet")
    files = sorted((tmp_path / "parquet").glob("*.parquet"))
    assert {p.stem for p in files} >= set(TABLES)
    assert {p.stem: internal(pq.read_schema(p).names) for p in files if internal(pq.read_schema(p).names)} == {}


async def test_the_test_database_shows_no_internal_column(ds, conn):
    columns = await visible_columns(ds)
    assert len(columns) > 100
    assert {t: internal(c) for t, c in columns.items() if internal(c)} == {}
    for table in columns:
        assert internal(ad.leer(table, db=conn, where="0").columns) == [], table


# The tables of two datasets as a build wrote them before the extras left the data tables.
OLD_SHAPE = [
    "CREATE TABLE cotizaciones (moneda TEXT, casa TEXT, compra REAL, venta REAL, fecha TEXT, _omitidas TEXT, "
    "_extra TEXT)",
    "CREATE TABLE rendimientos (_id INTEGER PRIMARY KEY, entidad TEXT, _extra TEXT)",
    "CREATE TABLE rendimientos_monedas (_id INTEGER PRIMARY KEY, rendimientos_id INTEGER NOT NULL, orden INTEGER "
    "NOT NULL, moneda TEXT, apy REAL, fecha TEXT, bonusValue REAL, bonusThreshold REAL, _omitidas TEXT, _extra TEXT)",
    """INSERT INTO cotizaciones VALUES
        ('USD', 'oficial', 1000, 1050.5, '2025-01-02', NULL, NULL),
        ('EUR', NULL, 1100, 1150, '2025-01-02', 'casa', NULL),
        ('USD', 'blue', 1200, 1230, '2025-01-02', NULL,
         '[[["nuevo"],[1]],{"orden":{"":["casa","moneda","compra","venta","fecha","nuevo"]}}]')""",
    """INSERT INTO rendimientos VALUES (1, 'banco', NULL), (2, 'billetera', '[[["x"],1]]')""",
    """INSERT INTO rendimientos_monedas VALUES
        (1, 1, 0, 'ARS', 30, '2025-01-02', 1.5, 100, NULL, NULL),
        (2, 1, 1, 'USD', 2.0, '2025-01-02', NULL, NULL, 'bonusValue,bonusThreshold', '[[["apy"],2.0]]'),
        (3, 2, 0, 'ARS', 31, '2025-01-02', NULL, NULL, 'bonusValue,bonusThreshold', NULL)""",
]


def test_a_database_of_the_old_shape_gives_its_records_back_exactly():
    conn = sqlite3.connect(":memory:")
    for statement in OLD_SHAPE:
        conn.execute(statement)
    for table, route in (("cotizaciones", "v1/cotizaciones"), ("rendimientos", "v1/finanzas/rendimientos")):
        records = query_for(table).records(conn, {})
        assert orjson.dumps(records) == orjson.dumps(FILES[route]), table


def as_old_shape(db) -> None:
    """The database as a build wrote it before: each extra in an _extra column of its row, no _extra table."""
    from argentina_datos.almacen.consultas import layout_of
    from argentina_datos.almacen.tablas import quote

    conn = sqlite3.connect(db)
    for (table,) in conn.execute("SELECT DISTINCT tabla FROM _extra").fetchall():
        dataset = table if table in TABLES else "rendimientos"  # rendimientos_monedas: its child
        layout = layout_of(dataset)
        key = layout.row_key if table == dataset else [ROW_ID]
        columns = ", ".join("t.rowid" if c == "rowid" else f"t.{quote(c)}" for c in key)
        conn.execute(f"ALTER TABLE {quote(table)} ADD COLUMN _extra TEXT")
        conn.execute(
            f"UPDATE {quote(table)} AS t SET _extra = (SELECT extra FROM _extra x WHERE x.tabla = ? "
            f"AND x.fila = json_array({columns}))",
            [table],
        )
    conn.execute("DROP TABLE _extra")
    conn.commit()
    conn.close()


def test_a_file_unreadable_today_comes_back_from_a_previous_build_of_the_old_shape(tmp_path):
    from argentina_datos.catalogo import BY_TABLE
    from argentina_datos.construccion.constructor import Builder
    from argentina_datos.construccion.fuentes import DirectorySource

    db = small_build(tmp_path)
    as_old_shape(db)
    with sqlite3.connect(db) as conn:  # the old shape answers too
        assert [answer(V1(), conn, "/" + route)[1] for route in FILES] == list(FILES.values())
    src = tmp_path / "src"
    broken = ["v1/cotizaciones", "v1/finanzas/rendimientos"]
    for route in broken:
        write_file(src, route, b"<html>mantenimiento</html>")
    report = Builder(DirectorySource(src), db, datasets=[BY_TABLE[t] for t in TABLES], keep_going=True).run()
    assert len(report.skipped_files) == len(broken)
    conn = sqlite3.connect(db)
    for route, records in FILES.items():
        status, body = answer(V1(), conn, "/" + route)
        assert status == 200 and orjson.dumps(body) == orjson.dumps(records), route
    assert "_extra" not in {r[1] for r in conn.execute("PRAGMA table_info(cotizaciones)")}
    kept = dict(conn.execute("SELECT tabla, count(*) FROM _extra GROUP BY tabla"))
    assert kept["cotizaciones"] == 2 and kept["rendimientos_monedas"] == 2
