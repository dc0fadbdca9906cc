"""exportar-parquet (argentina_datos/publicacion/exportar_parquet.py): every table survives a Parquet round trip with
its row count, its types and its first rows' values, on a small database and on the one built from the mirror (its own
file: xdist runs it beside test_exportar.py's tree, not after it)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from ayudas import DOLARES, build_tables, small_database, write_file

from argentina_datos.lectura import as_datetime, dates_and_booleans, datetimes
from argentina_datos.publicacion import exportar_parquet


@pytest.fixture
def small_db(tmp_path) -> Path:
    return small_database(tmp_path)


def expected_type(table: str, column: str, declared: str) -> set:
    """The Parquet types a column may have: lectura's rules (dates, booleans), else its SQLite type; a
    date column may stay text when its values are not all calendar dates (exportar_parquet names it)."""
    dates, booleans = dates_and_booleans()
    if declared == "TEXT":
        return {pa.date32(), pa.string()} | ({exportar_parquet.TIMESTAMP} if column in datetimes() else set())
    if declared == "INTEGER":
        return {pa.bool_()} if column in booleans else {pa.int64()}
    return {pa.float64()} if declared == "REAL" else {pa.string()}


def check_round_trip(db: Path, out: Path) -> exportar_parquet.Report:
    report = exportar_parquet.export(db, out)
    conn = sqlite3.connect(db)
    tables = exportar_parquet.tables(conn)
    assert sorted(p.stem for p in out.glob("*.parquet")) == sorted(tables)
    assert report.tables == len(tables)
    for table in tables:
        read = pq.read_table(out / f"{table}.parquet")
        assert read.num_rows == conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0], table
        columns = [(r[1], r[2]) for r in conn.execute(f'PRAGMA table_info("{table}")')]
        assert read.column_names == [c for c, _ in columns], table
        for name, declared in columns:
            assert read.schema.field(name).type in expected_type(table, name, declared), (table, name)
            if read.schema.field(name).type == pa.string() and name in dates_and_booleans()[0] | datetimes():
                assert f"{table}.{name}" in report.as_text
        # the values too, on the first rows in the file's order (by fecha, then the table's own)
        names = [c for c, _ in columns]
        select = ", ".join(f'"{c}"' for c in names)
        order = exportar_parquet.order_by(conn, table, names)
        stored = conn.execute(f'SELECT {select} FROM "{table}"{order} LIMIT {ROWS_COMPARED}').fetchall()
        timestamps = [read.schema.field(c).type == exportar_parquet.TIMESTAMP for c in names]
        stored = [tuple(as_datetime(v) if t and v else v for v, t in zip(row, timestamps)) for row in stored]
        exported = [
            tuple(v if t else as_stored(v) for v, t in zip(row.values(), timestamps))
            for row in read.slice(0, ROWS_COMPARED).to_pylist()
        ]
        assert exported == stored, table
    return report


ROWS_COMPARED = 2000


def as_stored(value):
    """A Parquet value as SQLite keeps it: a date as text AAAA-MM-DD, a boolean as 0 or 1."""
    if isinstance(value, bool):
        return int(value)
    return value.isoformat() if hasattr(value, "isoformat") else value


def test_parquet_round_trip_of_a_small_database(small_db, tmp_path):
    check_round_trip(small_db, tmp_path / "parquet")
    read = pq.read_table(tmp_path / "parquet" / "cotizaciones_dolares.parquet")
    assert read.schema.field("fecha").type == pa.date32() and read.schema.field("venta").type == pa.float64()
    assert read.schema.field("arrastrado").type == pa.bool_()
    assert str(read.column("fecha")[2]) == "2025-01-03" and read.column("compra").to_pylist() == [
        1000.0,
        1200.0,
        1001.0,
    ]
    assert b"description" in read.schema.field("venta").metadata
    assert read.schema.metadata[b"title"].decode() == "Cotizaciones del dólar"


def test_parquet_keeps_what_is_not_a_date_as_text(small_db, tmp_path):
    with sqlite3.connect(small_db) as conn:
        conn.execute("UPDATE feriados SET fecha = '2025-02-30' WHERE listado = '2024'")  # an impossible date
    report = exportar_parquet.export(small_db, tmp_path / "parquet")
    read = pq.read_table(tmp_path / "parquet" / "feriados.parquet")
    assert read.schema.field("fecha").type == pa.string() and "2025-02-30" in read.column("fecha").to_pylist()
    assert report.as_text == ["feriados.fecha"]


def test_parquet_files_are_sorted_by_fecha_and_say_so(tmp_path):
    src = tmp_path / "src"
    write_file(src, "v1/cotizaciones/dolares", list(reversed(DOLARES)))  # the list newest first
    db = tmp_path / "desordenada.db"
    build_tables(src, db, ["cotizaciones_dolares"]).close()
    exportar_parquet.export(db, tmp_path / "parquet")
    path = tmp_path / "parquet" / "cotizaciones_dolares.parquet"
    fechas = [d.isoformat() for d in pq.read_table(path).column("fecha").to_pylist()]
    assert fechas == sorted(fechas) and fechas != [r["fecha"] for r in reversed(DOLARES)]
    meta = pq.ParquetFile(path).metadata.row_group(0)
    assert [c.column_index for c in meta.sorting_columns] == [pq.read_schema(path).names.index("fecha")]
    assert all(c.nulls_first for c in meta.sorting_columns)  # as SQLite's ORDER BY puts them


@pytest.mark.lento
def test_every_table_of_the_mirror_database_round_trips_in_parquet(db_path, tmp_path):
    import duckdb

    report = check_round_trip(db_path, tmp_path)
    print(f"exportar-parquet: {report.summary()}")
    [(count,)] = duckdb.sql(f"SELECT count(*) FROM '{tmp_path / 'fci_valores.parquet'}'").fetchall()
    assert count == sqlite3.connect(db_path).execute("SELECT count(*) FROM fci_valores").fetchone()[0]
    # The dates of senadores (in objects: periodoLegal_inicio) and diputados (with a time) are typed too.
    senadores = pq.read_schema(tmp_path / "senadores.parquet")
    assert senadores.field("periodoLegal_inicio").type == pa.date32()
    diputados = pq.read_schema(tmp_path / "diputados.parquet")
    assert diputados.field("periodoMandato_inicio").type == exportar_parquet.TIMESTAMP
    assert not [c for c in report.as_text if c.startswith(("senadores.", "diputados."))], report.as_text
    # fci_valores with its names (its view), without four joins.
    [(fondos,)] = duckdb.sql(
        f"SELECT count(DISTINCT fondo) FROM '{tmp_path / 'fci_valores_vista.parquet'}' WHERE categoria = 'rentaFija'"
    ).fetchall()
    assert fondos > 100


def test_a_parquet_description_sends_to_files_not_to_a_view():
    """Views are not exported: fci_valores' description named fci_valores_vista, which Parquet readers lack."""
    described = (
        "Valores diarios. La vista fci_valores_vista muestra los nombres en lugar de los ids. Respalda una ruta."
    )
    names = ["categoria_id", "fondo_id", "fecha"]
    got = exportar_parquet.parquet_description(
        "fci_valores", described, names, {"fci_valores", "fci_valores_categoria", "fci_valores_fondo"}
    )
    assert "vista" not in got and got.startswith("Valores diarios. Respalda una ruta. ")
    assert got.endswith(
        "Los nombres de categoria_id, fondo_id están en fci_valores_categoria.parquet, fci_valores_fondo.parquet (columnas id y el nombre)."
    )
    assert exportar_parquet.parquet_description("uva", "Sin vistas.", ["fecha"], {"uva"}) == "Sin vistas."
