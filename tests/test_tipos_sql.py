"""Measures are REAL in SQL, so that `valor / 100` never truncates; counts and identifiers stay INTEGER;
and the extensions read an integer back as an integer: a whole REAL reads back as one, and a whole number
written with decimals (``1.0``, which upstream's JSON never has) is a deviation, reported (/v1 answers the
file as it came)."""

import sqlite3

import orjson
import pytest

from argentina_datos.almacen.calidad import INEXACT, WHOLE_FLOAT
from argentina_datos.almacen.registros import MAX_EXACT, Codec
from argentina_datos.almacen.tablas import Layout, value_columns
from argentina_datos.catalogo import DATASETS
from argentina_datos.catalogo.esquema import INTEGER, NUMBER, TEXT, Children, Field, flat_columns

# Well-known measures, named so that the test cannot pass on an empty list.
KNOWN_MEASURES = [
    ("cotizaciones_dolares", "compra"),
    ("cotizaciones_dolares", "venta"),
    ("inflacion", "valor"),
    ("uva", "valor"),
    ("riesgo_pais", "valor"),
    ("fci_valores", "vcp"),
    ("fci_valores", "patrimonio"),
    ("depositos_30_dias", "valor"),
    ("plazo_fijo", "tnaClientes"),
]
KNOWN_INTEGERS = [("fci_serie", "fondo_id"), ("fuentes", "registros"), ("fuentes", "bytes")]


# ---- on a small table made here (no mirror) --------------------------------------------------
FIELDS = [Field("nombre", TEXT), Field("valor", NUMBER), Field("tasa", NUMBER), Field("cantidad", INTEGER)]
RECORDS = [
    {"nombre": "entero", "valor": 4, "tasa": 4.5, "cantidad": 3},
    {"nombre": "punto cero", "valor": 1.0, "tasa": 1, "cantidad": 1},
    {"nombre": "cero y negativo", "valor": 0, "tasa": -2.25, "cantidad": 0},
    {"nombre": "grande", "valor": MAX_EXACT, "tasa": -MAX_EXACT, "cantidad": 2**40},
    {"nombre": "null", "valor": None, "tasa": 1e20, "cantidad": None},
    {"nombre": "demasiado grande", "valor": MAX_EXACT + 1, "tasa": 0.1, "cantidad": 1},
]


def stored(codec: Codec, records: list) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    columns = [c.sql() for c in value_columns(codec)]
    conn.execute(f"CREATE TABLE t ({', '.join(columns)})")
    conn.executemany(f"INSERT INTO t VALUES ({', '.join('?' * len(columns))})", [codec.encode(r)[0] for r in records])
    return conn


def test_a_record_comes_back_exactly_through_a_real_column():
    codec = Codec(FIELDS)
    conn = stored(codec, RECORDS)
    rows = conn.execute("SELECT * FROM t").fetchall()
    # Byte-exact: orjson writes 4 as 4 and 4.0 as 4.0, where == would not tell them apart.
    fitting = [0, 2, 3, 4]  # not 1.0 nor an integer past 2**53 (deviations: below)
    assert [orjson.dumps(codec.decode(rows[i])) for i in fitting] == [orjson.dumps(RECORDS[i]) for i in fitting]
    types = conn.execute("SELECT typeof(valor), typeof(tasa), typeof(cantidad) FROM t").fetchall()
    assert types[0] == ("real", "real", "integer")
    assert {t[0] for t in types} <= {"real", "null"} and {t[1] for t in types} == {"real"}


def test_division_does_not_truncate():
    conn = stored(Codec(FIELDS), RECORDS[:1])
    assert conn.execute("SELECT valor / 100, valor / 8 FROM t").fetchone() == (0.04, 0.5)


def test_a_whole_number_with_decimals_is_kept_in_its_column_and_reported():
    codec = Codec(FIELDS)
    row, _, deviations = codec.encode(RECORDS[1])  # valor 1.0
    assert [(d.field, d.problem) for d in deviations] == [("valor", WHOLE_FLOAT)]
    assert row[1] == 1.0
    assert codec.encode_columns(RECORDS[1:2]) is None  # the column encoder hands it to the record one
    assert codec.encode(RECORDS[0])[2] == []  # 4 and 4.5: nothing to report


def test_an_integer_a_real_cannot_hold_is_reported():
    codec = Codec(FIELDS)
    row, _, deviations = codec.encode(RECORDS[-1])
    assert [(d.field, d.problem) for d in deviations] == [("valor", INEXACT)]
    assert row[1] is None
    assert codec.encode_columns(RECORDS) is None  # the column encoder hands it to the record one


def test_child_tables_keep_integers_too():
    child = Children("items", "t_items", [Field("monto", NUMBER), Field("n", INTEGER)])
    codec = Codec(child.fields)
    records = [{"monto": 10, "n": 1}, {"monto": 10.5, "n": 2}]
    rows = stored(codec, records).execute("SELECT * FROM t").fetchall()
    assert [orjson.dumps(codec.decode(r)) for r in rows] == [orjson.dumps(r) for r in records]


# ---- on the built database --------------------------------------------------------------------
def measure_columns() -> list[tuple[str, str]]:
    """Every NUMBER column of every dataset table, from the catalogue."""
    out = []
    for ds in DATASETS:
        out += [(ds.table, name) for name, f in flat_columns(ds.fields) if f.kind == NUMBER and name not in ds.lookups]
    return out


def test_the_catalogue_list_covers_the_known_measures():
    columns = measure_columns()
    assert set(KNOWN_MEASURES) <= set(columns) and len(columns) > 50


@pytest.mark.mirror
def test_every_measure_is_real_in_every_row(conn):
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    checked = 0
    for table, column in measure_columns():
        if table not in tables:
            continue
        kinds = {k for (k,) in conn.execute(f'SELECT DISTINCT typeof("{column}") FROM "{table}"')}
        assert kinds <= {"real", "null"}, (table, column, kinds)
        checked += 1
    assert checked > 50
    for table, column in KNOWN_MEASURES:
        assert conn.execute(f'SELECT count(*) FROM "{table}" WHERE typeof("{column}") = \'real\'').fetchone()[0] > 0


@pytest.mark.mirror
def test_derived_measures_are_real_and_identifiers_integer(conn):
    for table, column in [("fci_serie", "vcp"), ("ipc", "valor"), ("depositos_30_dias", "valorFraccion")]:
        kinds = {k for (k,) in conn.execute(f'SELECT DISTINCT typeof("{column}") FROM "{table}"')}
        assert kinds <= {"real", "null"} and "real" in kinds, (table, column, kinds)
    for table, column in KNOWN_INTEGERS:
        kinds = {k for (k,) in conn.execute(f'SELECT DISTINCT typeof("{column}") FROM "{table}"')}
        assert kinds <= {"integer", "null"} and "integer" in kinds, (table, column, kinds)


@pytest.mark.mirror
def test_2024_inflation_compounds_without_truncating(conn):
    # The issue's example: 2024's accumulated inflation, 117.8 %, came out 88.6 % with integer division.
    (total,) = conn.execute(
        "SELECT (exp(sum(ln(1 + valor / 100))) - 1) * 100 FROM inflacion WHERE fecha LIKE '2024-%'"
    ).fetchone()
    assert 117 < total < 119, total


def test_no_table_has_a_column_for_integers():
    seen = 0
    for ds in DATASETS:
        layout = Layout(ds)
        for codec, table in [(layout.codec, layout.table)] + [(c.codec, c.table) for c in layout.all_children()]:
            if codec.number_columns:
                assert not [c for c in codec.column_names if c == "_enteros"], table
                seen += 1
    assert seen > 20


def test_the_query_reads_whole_values_back_as_integers():
    # In SQL, for the plain codecs' fast path: whole values within 2**53 as INTEGER, whatever the column's type
    # (REAL now, INTEGER in a build from before NUMBER columns were REAL).
    from argentina_datos.almacen.consultas import RecordQuery
    from argentina_datos.catalogo import BY_TABLE

    query = RecordQuery(BY_TABLE["inflacion"])
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE inflacion (fecha TEXT, valor REAL)")
    conn.execute("CREATE TABLE viejo (fecha TEXT, valor NUMERIC)")
    values = [("2024-01-01", 4), ("2024-02-01", 4.5), ("2024-03-01", 2.0**60), ("2024-04-01", None)]
    for table in ("inflacion", "viejo"):
        conn.executemany(f"INSERT INTO {table} VALUES (?, ?)", values)
        got = conn.execute(query._sql().replace('"inflacion" t', f"{table} t") + " ORDER BY t.fecha").fetchall()
        assert [(type(r[1]).__name__, r[1]) for r in got] == [
            ("int", 4),
            ("float", 4.5),
            ("float" if table == "inflacion" else "int", 2**60),
            ("NoneType", None),
        ], table
