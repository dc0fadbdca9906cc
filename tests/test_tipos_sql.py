"""Measures are REAL in SQL, so that `valor / 100` never truncates; counts and identifiers stay INTEGER;
a value a REAL cannot hold exactly (an integer past 2**53) is a deviation, reported (/v1 answers the file as
it came)."""

import sqlite3

import pytest

from argentina_datos.almacen.calidad import INEXACT
from argentina_datos.almacen.registros import MAX_EXACT, Codec
from argentina_datos.almacen.tablas import Layout, value_columns
from argentina_datos.catalogo import DATASETS
from argentina_datos.catalogo.esquema import INTEGER, NUMBER, TEXT, Field, flat_columns

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


def test_a_record_is_kept_exactly_in_real_columns():
    codec = Codec(FIELDS)
    conn = stored(codec, RECORDS)
    rows = conn.execute("SELECT * FROM t").fetchall()
    fitting = [0, 1, 2, 3, 4]  # not the integer past 2**53 (a deviation: below)
    assert [rows[i] for i in fitting] == [tuple(RECORDS[i].values()) for i in fitting]
    types = conn.execute("SELECT typeof(valor), typeof(tasa), typeof(cantidad) FROM t").fetchall()
    assert types[0] == ("real", "real", "integer")
    assert {t[0] for t in types} <= {"real", "null"} and {t[1] for t in types} == {"real"}


def test_division_does_not_truncate():
    conn = stored(Codec(FIELDS), RECORDS[:1])
    assert conn.execute("SELECT valor / 100, valor / 8 FROM t").fetchone() == (0.04, 0.5)


def test_a_whole_number_with_decimals_is_not_a_deviation():
    codec = Codec(FIELDS)
    assert codec.encode(RECORDS[1]) == (("punto cero", 1.0, 1, 1), [], [])
    assert codec.encode_columns(RECORDS[:2]) == [["entero", "punto cero"], [4, 1.0], [4.5, 1], [3, 1]]


def test_an_integer_a_real_cannot_hold_is_reported():
    codec = Codec(FIELDS)
    row, _, deviations = codec.encode(RECORDS[-1])
    assert [(d.field, d.problem) for d in deviations] == [("valor", INEXACT)]
    assert row[1] is None
    assert codec.encode_columns(RECORDS) is None  # the column encoder hands it to the record one


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
