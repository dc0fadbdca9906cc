"""Measures are REAL in SQL, so that `valor / 100` never truncates; counts and identifiers stay INTEGER;
and /v1 still writes an integer back as an integer (the row's ``_enteros``)."""

import sqlite3

import orjson
import pytest

from argentina_datos.almacen.calidad import INEXACT
from argentina_datos.almacen.registros import MAX_EXACT, Codec
from argentina_datos.almacen.tablas import Layout, value_columns
from argentina_datos.catalogo import DATASETS
from argentina_datos.catalogo.esquema import INTEGER, INTS, NUMBER, TEXT, Children, Field, flat_columns

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
    columns = value_columns(codec)
    conn.execute(f"CREATE TABLE t ({', '.join(c.sql() for c in columns)})")
    conn.executemany(f"INSERT INTO t VALUES ({', '.join('?' * len(columns))})", [codec.encode(r)[0] for r in records])
    return conn


def test_a_record_comes_back_exactly_through_a_real_column():
    codec = Codec(FIELDS)
    conn = stored(codec, RECORDS)
    rows = conn.execute("SELECT * FROM t").fetchall()
    # Byte-exact: orjson writes 4 as 4 and 4.0 as 4.0, where == would not tell them apart.
    assert [orjson.dumps(codec.decode(r)) for r in rows] == [orjson.dumps(r) for r in RECORDS]
    types = conn.execute("SELECT typeof(valor), typeof(tasa), typeof(cantidad) FROM t").fetchall()
    assert types[0] == ("real", "real", "integer")
    assert {t[0] for t in types} <= {"real", "null"} and {t[1] for t in types} == {"real"}


def test_division_does_not_truncate():
    conn = stored(Codec(FIELDS), RECORDS[:1])
    assert conn.execute("SELECT valor / 100, valor / 8 FROM t").fetchone() == (0.04, 0.5)


def test_the_marker_names_the_integer_columns():
    codec = Codec(FIELDS)
    assert codec.column_names[-2] == INTS
    assert [codec.encode(r)[0][-2] for r in RECORDS[:3]] == [1, 2, 1]  # bit 0 = valor, bit 1 = tasa
    assert codec.encode({"nombre": "x", "valor": 1.5, "tasa": 2.5, "cantidad": 1})[0][-2] is None


def test_an_integer_a_real_cannot_hold_is_kept_in_extra_and_reported():
    codec = Codec(FIELDS)
    row, _, deviations = codec.encode(RECORDS[-1])
    assert [(d.field, d.problem) for d in deviations] == [("valor", INEXACT)]
    assert row[1] is None and orjson.dumps(codec.decode(row)) == orjson.dumps(RECORDS[-1])
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


def test_every_table_with_a_measure_has_the_marker():
    seen = 0
    for ds in DATASETS:
        layout = Layout(ds)
        for codec, table in [(layout.codec, layout.table)] + [(c.codec, c.table) for c in layout.all_children()]:
            if codec.number_columns:
                assert INTS in codec.column_names, table
                seen += 1
    assert seen > 20


def test_a_table_from_before_the_marker_is_read_as_it_is():
    # A previous build's history (construccion/versiones.py) may predate _enteros: its integers are
    # INTEGER already, and the query must not name the missing column.
    from argentina_datos.almacen.consultas import RecordQuery
    from argentina_datos.catalogo import BY_TABLE

    new, old = RecordQuery(BY_TABLE["inflacion"]), RecordQuery(BY_TABLE["inflacion"], ints_column=False)
    assert INTS in new.base and "CAST" in new.base
    assert INTS not in old.base and "CAST" not in old.base
