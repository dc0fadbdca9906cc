"""Researchers see data, not codecs: no table or view Datasette lists, no leer() frame and no Parquet file
has a column starting with "_".  /v1 gives each record back as upstream published it (the keys a record
omits, what it carries beyond its declared shape, its keys' order) from the files as published, also in the
cuts it computes from a list: the typed tables are never read back for it."""

from __future__ import annotations

import sqlite3

import orjson
import pyarrow.parquet as pq
from ayudas import answer, build_tables, write_file

import argentina_datos as ad
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
    return [c for c in columns if c.startswith("_")]


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
    # a cut upstream computes from a list: its records as published, odd ones too (key order, an undeclared key)
    status, day = answer(V1(), conn, "/v1/cotizaciones/2025/01/02")
    assert status == 200 and orjson.dumps(day) == orjson.dumps(FILES["v1/cotizaciones"])
    conn.execute("UPDATE cotizaciones SET compra = 0")  # the projection is not where answers come from
    assert orjson.dumps(answer(V1(), conn, "/v1/cotizaciones/2025/01/02")[1]) == orjson.dumps(FILES["v1/cotizaciones"])
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = '_extra'").fetchone() == (0,)

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
