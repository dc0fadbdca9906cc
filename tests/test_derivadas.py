"""Derived tables (fci_serie, ipc) and the canned queries that read them: small fixtures, then the mirror."""

import math
import re
import sqlite3

import pytest
from ayudas import build_tables, write_file

from argentina_datos.catalogo import DERIVED_TABLES
from argentina_datos.catalogo.indices import IPC_BASE
from argentina_datos.documentacion import metadatos

DERIVED = {d.table: d for d in DERIVED_TABLES}


def fondo(nombre, fecha, vcp, horizonte="corto"):
    return {"fondo": nombre, "horizonte": horizonte, "fecha": fecha, "vcp": vcp, "ccp": 10.0, "patrimonio": vcp * 10}


def canned(name: str) -> str:
    return metadatos.build()["databases"][metadatos.DATABASE]["queries"][name]["sql"]


def run_canned(conn, name: str, **params):
    sql = canned(name)
    values = {p: "" for p in re.findall(r":(\w+)", sql)}
    values.update({k: str(v) for k, v in params.items()})
    cursor = conn.execute(sql, values)
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


# ---- fci_serie: one value per fund and day, by the documented rule ---------------------------------
@pytest.fixture
def fci(tmp_path):
    root = tmp_path / "fuente"
    md = "v1/finanzas/fci/mercadoDinero"
    # The day's own listing says 100 for A on the 2nd; a later listing and `ultimo` repeat the day with
    # other values: the day's own file wins.
    write_file(root, f"{md}/2024/01/02", [fondo("A", "2024-01-02", 100.0), fondo("B", "2024-01-02", 5.0)])
    write_file(root, f"{md}/2024/01/03", [fondo("A", "2024-01-03", 101.0), fondo("A", "2024-01-02", 999.0)])
    # B's 3rd is only in later listings: the most recent dated one wins over ultimo and penultimo.
    write_file(root, f"{md}/2024/01/04", [fondo("B", "2024-01-03", 6.0)])
    write_file(root, f"{md}/2024/01/05", [fondo("B", "2024-01-03", 7.0)])
    write_file(root, f"{md}/ultimo", [fondo("B", "2024-01-03", 8.0), fondo("C", "2024-01-09", 3.0)])
    write_file(root, f"{md}/penultimo", [fondo("C", "2024-01-09", 4.0), fondo("C", "2024-01-08", 2.5)])
    # An aggregate row (no date) is not a fund's value.
    write_file(root, "v1/finanzas/fci/rentaFija/2024/01/02", [fondo("Region: Argentina", None, 1.0, horizonte=None)])
    return build_tables(root, tmp_path / "fci.db", ["fci_valores"])


def serie(conn) -> dict:
    rows = conn.execute(
        "SELECT f.fondo, s.fecha, s.vcp FROM fci_serie s JOIN fci_valores_fondo f ON f.id = s.fondo_id"
    ).fetchall()
    return {(name, day): vcp for name, day, vcp in rows}


def test_fci_serie_takes_each_fund_and_day_once_by_the_rule(fci):
    assert serie(fci) == {
        ("A", "2024-01-02"): 100.0,  # the day's own listing, not the later 999
        ("A", "2024-01-03"): 101.0,
        ("B", "2024-01-02"): 5.0,
        ("B", "2024-01-03"): 7.0,  # the most recent dated listing, before ultimo's 8
        ("C", "2024-01-08"): 2.5,  # only in penultimo
        ("C", "2024-01-09"): 3.0,  # ultimo before penultimo
    }


def test_fci_serie_is_keyed_and_indexed_for_both_questions(fci):
    sql = fci.execute("SELECT sql FROM sqlite_master WHERE name = 'fci_serie'").fetchone()[0]
    assert 'PRIMARY KEY ("fecha", "fondo_id")' in sql and "WITHOUT ROWID" in sql
    with pytest.raises(sqlite3.IntegrityError):
        fci.execute("INSERT INTO fci_serie SELECT * FROM fci_serie LIMIT 1")


def test_derived_tables_are_skipped_without_their_tables(tmp_path):
    root = tmp_path / "fuente"
    write_file(root, "v1/finanzas/indices/uva", [{"fecha": "2016-03-31", "valor": 14.05}])
    conn = build_tables(root, tmp_path / "uva.db", ["uva"])
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "uva" in tables and not tables & set(DERIVED)


# ---- ipc and "pesos de hoy" ------------------------------------------------------------------------
INFLACION = [
    {"fecha": "2016-11-30", "valor": 1.6},
    {"fecha": "2016-12-31", "valor": 1.2},
    {"fecha": "2017-01-31", "valor": 1.3},
    {"fecha": "2017-02-28", "valor": 2.5},
    {"fecha": "2017-03-31", "valor": 2.4},
]


def inflation_db(tmp_path, records):
    root = tmp_path / "fuente"
    write_file(root, "v1/finanzas/indices/inflacion", records)
    return build_tables(root, tmp_path / "ipc.db", ["inflacion"])


@pytest.fixture
def ipc(tmp_path):
    return inflation_db(tmp_path, INFLACION)


def test_ipc_is_chained_from_monthly_inflation_with_the_stated_base(ipc):
    rows = ipc.execute("SELECT fecha, mes, valor, inflacion, aPesosDeHoy FROM ipc ORDER BY fecha").fetchall()
    assert [r[1] for r in rows] == [r["fecha"][:7] for r in INFLACION]
    by_month = {r[1]: r for r in rows}
    assert by_month[IPC_BASE][2] == pytest.approx(100)
    assert by_month["2017-03"][2] == pytest.approx(100 * 1.013 * 1.025 * 1.024)
    assert by_month["2016-11"][2] == pytest.approx(100 / 1.012)
    assert [r[3] for r in rows] == [r["valor"] for r in INFLACION]
    assert by_month["2016-11"][4] == pytest.approx(1.012 * 1.013 * 1.025 * 1.024)
    assert by_month["2017-03"][4] == pytest.approx(1.0)


def test_pesos_de_hoy_against_a_hand_computation(ipc):
    [row] = run_canned(ipc, "pesos_de_hoy", monto=1000, fecha="2016-12-15")
    # 1000 pesos of December 2016 carried through January, February and March 2017.
    assert row["pesos_de_hoy"] == pytest.approx(1000 * 1.013 * 1.025 * 1.024, abs=0.01)
    assert row["mes_de_hoy"] == "2017-03" and row["mes_del_monto"] == "2016-12"


# Three currency changes between 1975 and today: 1,000 pesos ley 18.188 are 10^-11 of as many pesos of today,
# before the inflation.  One month in each currency, with 10 % inflation each.
INFLACION_1975 = [
    {"fecha": f, "valor": 10.0} for f in ("1975-01-31", "1984-01-31", "1985-06-30", "1991-12-31", "1992-01-31")
]


@pytest.fixture
def ipc_1975(tmp_path):
    return inflation_db(tmp_path, INFLACION_1975)


def test_ipc_carries_old_currencies_to_pesos_of_today(ipc_1975):
    rows = ipc_1975.execute("SELECT mes, moneda, aPesosDeHoy FROM ipc ORDER BY mes").fetchall()
    assert [(m, moneda) for m, moneda, _ in rows] == [
        ("1975-01", "peso ley 18.188"),
        ("1984-01", "peso argentino"),
        ("1985-06", "austral"),
        ("1991-12", "austral"),
        ("1992-01", "peso"),
    ]
    factor = dict((m, f) for m, _, f in rows)
    assert factor["1975-01"] == pytest.approx(1.1**4 / 1e11)
    assert factor["1984-01"] == pytest.approx(1.1**3 / 1e7)
    assert factor["1991-12"] == pytest.approx(1.1 / 1e4)
    assert factor["1992-01"] == pytest.approx(1.0)


def test_pesos_de_hoy_of_1975_is_not_ten_to_the_sixteen(ipc_1975):
    [row] = run_canned(ipc_1975, "pesos_de_hoy", monto=1000, fecha="1975-01-15")
    assert row["pesos_de_hoy"] == pytest.approx(1000 * 1.1**4 / 1e11, abs=0.01)
    assert row["moneda_del_monto"] == "peso ley 18.188" and row["mes_de_hoy"] == "1992-01"
    assert row["inflacion_acumulada_pct"] == pytest.approx(100 * (1.1**4 - 1), abs=0.1)


# ---- the mirror ----------------------------------------------------------------------------------
def test_fci_serie_has_every_fund_and_day_of_fci_valores_once(conn):
    (expected,) = conn.execute(
        "SELECT count(*) FROM (SELECT DISTINCT fondo_id, fecha FROM fci_valores "
        "WHERE fecha IS NOT NULL AND fondo_id IS NOT NULL)"
    ).fetchone()
    (rows, distinct) = conn.execute(
        "SELECT count(*), count(DISTINCT fondo_id || '|' || fecha) FROM fci_serie"
    ).fetchone()
    assert rows == distinct == expected > 0


@pytest.mark.parametrize(
    "question",
    [
        "SELECT * FROM fci_serie WHERE fondo_id = 1 ORDER BY fecha",  # a fund's history
        "SELECT * FROM fci_serie WHERE fecha = '2025-01-02' ORDER BY patrimonio DESC",  # a day's ranking
    ],
)
def test_fci_serie_answers_both_questions_from_its_key(conn, question):
    plan = " ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN " + question))
    assert "SEARCH fci_serie USING PRIMARY KEY" in plan, plan


def test_pesos_de_hoy_of_1975_on_the_mirror_is_a_plausible_amount(conn):
    [row] = run_canned(conn, "pesos_de_hoy", monto=1000, fecha="1975-01-15")
    # 2.6e16 before the currency changes were counted; about 2.6e5 with them.
    assert 1e3 < row["pesos_de_hoy"] < 1e8 and row["moneda_del_monto"] == "peso ley 18.188"


def test_dollar_in_pesos_of_today_averages_business_days_as_brecha_cambiaria_does(conn):
    mine = {r["mes"]: r for r in run_canned(conn, "dolar_en_pesos_de_hoy", casa="blue")}
    brecha = {r["mes"]: r for r in run_canned(conn, "brecha_cambiaria", desde="2015-01-01", hasta="2099-12-31")}
    common = [m for m in brecha if m in mine and brecha[m]["blue"] is not None]
    assert len(common) > 12
    assert all(mine[m]["venta_pesos_corrientes"] == pytest.approx(brecha[m]["blue"], abs=0.006) for m in common)
    assert all(mine[m]["casa"] == "blue" for m in common)
    (business,) = conn.execute(
        "SELECT count(*) FROM cotizaciones_dolares WHERE casa = 'blue' AND fecha LIKE '2016-01%' AND NOT arrastrado"
    ).fetchone()
    assert mine["2016-01"]["dias_habiles"] == business < 31


def test_deflated_dollar_against_a_hand_computation(conn):
    rows = run_canned(conn, "dolar_en_pesos_de_hoy")
    inflation = dict(conn.execute("SELECT substr(fecha, 1, 7), valor FROM inflacion"))
    last = max(inflation)
    row = next(r for r in rows if r["mes"] < last and r["venta_pesos_corrientes"])
    factor = math.prod(1 + v / 100 for m, v in inflation.items() if row["mes"] < m <= last)
    assert row["venta_pesos_de_base"] == pytest.approx(row["venta_pesos_corrientes"] * factor, rel=1e-3)
    assert row["pesos_de"] == last  # the column says which month's pesos
    # another month's pesos: :base
    base = "2024-01"
    earlier = next(r for r in rows if r["mes"] < base and r["venta_pesos_corrientes"])
    chosen = {r["mes"]: r for r in run_canned(conn, "dolar_en_pesos_de_hoy", base=base)}
    since = math.prod(1 + v / 100 for m, v in inflation.items() if earlier["mes"] < m <= base)
    assert chosen[earlier["mes"]]["pesos_de"] == base
    assert chosen[earlier["mes"]]["venta_pesos_de_base"] == pytest.approx(
        earlier["venta_pesos_corrientes"] * since, rel=1e-3
    )


# ---- one unit where the source mixes scales --------------------------------------------------------
def test_as_fraction_takes_values_above_the_threshold_as_percentages():
    from argentina_datos.catalogo.campos import as_fraction

    rule = as_fraction("valor", percent_above=10).compute
    assert [rule({"valor": v}) for v in (0.0634, 1.3042, 10, 39.92, 56)] == [0.0634, 1.3042, 10.0, 0.3992, 0.56]
    assert rule({"valor": None}) is None and rule({"valor": "39,9"}) is None and rule({"valor": True}) is None


@pytest.mark.parametrize(
    "table, column", [("depositos_30_dias", "valorFraccion"), ("cuentas_remuneradas_usd", "tasaFraccion")]
)
def test_mixed_scale_columns_have_one_unit(conn, table, column):
    (outside, typed, total) = conn.execute(
        f'SELECT sum("{column}" NOT BETWEEN 0 AND 2), sum(typeof("{column}") = \'real\'), count(*) FROM "{table}"'
    ).fetchone()
    assert total > 0 and outside == 0 and typed == total


def test_every_declared_computation_has_its_code():
    """The catalogue declares derived tables and linked columns; construccion/calculos.py computes them."""
    from argentina_datos.catalogo import DATASETS
    from argentina_datos.construccion.calculos import FILLS, RESOLVERS

    assert set(FILLS) == set(DERIVED)
    assert set(RESOLVERS) == {(link.table, link.column) for d in DATASETS for link in d.links}
