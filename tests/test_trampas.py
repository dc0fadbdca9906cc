"""What a new researcher tripped over (#25): a currency that changes unit, weekends carried forward, funds
without a currency, stale listing rows, one bank under two names, canned queries that mislead, pandas."""

import datetime as dt
import sqlite3
import sys
import time

import pytest
import yaml

import argentina_datos
from argentina_datos.catalogo.cotizaciones import PER_UNIT, POR_UNIDAD
from argentina_datos.catalogo.creditos import _TASA_DE_PRESTAMO
from argentina_datos.catalogo.slug import entity_id
from argentina_datos.construccion.auditoria import STALE_DAYS
from argentina_datos.documentacion import metadatos

DB = metadatos.DATABASE
METADATA = yaml.safe_load(metadatos.METADATA.read_text(encoding="utf-8"))


async def rows(ds, name, **params):
    r = await ds.client.get(f"/{DB}/{name}.json", params={"_shape": "array", **params})
    assert r.status_code == 200, (name, r.text[:500])
    return r.json()


# ---- one unit per column ------------------------------------------------------------------------------
def test_per_unit_divides_only_before_the_switch():
    since, units = PER_UNIT["CLP"]
    before = (dt.date.fromisoformat(since) - dt.timedelta(days=1)).isoformat()
    compute = POR_UNIDAD["compraUnidad"].compute
    assert compute({"moneda": "CLP", "fecha": before, "compra": 100.5}) == pytest.approx(100.5 / units)
    assert compute({"moneda": "CLP", "fecha": since, "compra": 1.01}) == 1.01
    assert compute({"moneda": "USD", "fecha": before, "compra": 950}) == 950.0
    assert compute({"moneda": "CLP", "fecha": before, "compra": "x"}) is None


def test_clp_per_unit_column_has_no_unit_switch(conn):
    rows = conn.execute(
        "SELECT fecha, compra, compraUnidad, ventaUnidad FROM cotizaciones WHERE moneda = 'CLP' AND compra > 0 "
        "ORDER BY fecha"
    ).fetchall()
    assert len(rows) > 100

    def switches(i):
        return [b[0] for a, b in zip(rows, rows[1:]) if not 0.3 < b[i] / a[i] < 3]

    assert switches(1), "the source's compra no longer switches unit: check PER_UNIT"
    assert switches(2) == [] and switches(3) == []
    # calidad sees the switch in the published column, where it is.
    found = conn.execute(
        "SELECT fecha FROM calidad WHERE tabla = 'cotizaciones' AND control = 'cambio de unidad' AND serie = 'moneda=CLP'"
    ).fetchall()
    assert [f for (f,) in found] == switches(1)


# ---- carried-forward days -----------------------------------------------------------------------------
def test_carried_forward_days_are_idle_days_repeating_the_day_before(conn):
    holidays = {d for (d,) in conn.execute("SELECT fecha FROM feriados UNION SELECT fecha FROM feriados_bancarios")}
    rows = conn.execute(
        "SELECT casa, fecha, compra, venta, arrastrado FROM cotizaciones_dolares ORDER BY casa, fecha"
    ).fetchall()
    marked = 0
    for prev, row in zip(rows, rows[1:]):
        if not row[4]:
            continue
        marked += 1
        day = dt.date.fromisoformat(row[1])
        assert day.weekday() >= 5 or row[1] in holidays, row
        assert prev[0] == row[0] and prev[2:4] == row[2:4], (prev, row)
    assert marked > 1000
    # What is left in 2024 weighs every weekday alike: weekends are nearly all carried.
    per_weekday = dict(
        conn.execute(
            "SELECT strftime('%w', fecha), count(*) FROM cotizaciones_dolares "
            "WHERE casa = 'oficial' AND fecha LIKE '2024%' AND NOT arrastrado GROUP BY 1"
        ).fetchall()
    )
    assert per_weekday.get("0", 0) + per_weekday.get("6", 0) < 10
    assert min(per_weekday[d] for d in "12345") >= 45


def test_business_days_are_the_calendars_whatever_upstream_published_on_the_others(conn):
    holidays = {d for (d,) in conn.execute("SELECT fecha FROM feriados UNION SELECT fecha FROM feriados_bancarios")}
    rows = conn.execute("SELECT fecha, habil, arrastrado FROM cotizaciones_dolares WHERE casa = 'oficial'").fetchall()
    for fecha, habil, _ in rows:
        assert habil == int(dt.date.fromisoformat(fecha).weekday() < 5 and fecha not in holidays), fecha
    # Days that are not business days but whose quote differs from the day before: kept, marked 0, not carried.
    differing = [f for f, habil, arrastrado in rows if not habil and not arrastrado and f.startswith("2024")]
    assert differing, "the mirror's 2024 has weekend quotes that differ from Friday's"


# ---- the fund's currency ------------------------------------------------------------------------------
def test_fci_serie_has_each_funds_currency_as_its_card_says(conn):
    monedas = dict(conn.execute("SELECT moneda, count(*) FROM fci_serie GROUP BY moneda").fetchall())
    assert monedas.get("ARS", 0) > 0 and monedas.get("USD", 0) > 0
    assert monedas.get(None, 0) < sum(monedas.values()) / 100
    card = {"Peso Argentina": "ARS", "Dolar Estadounidense": "USD"}
    pairs = conn.execute(
        "SELECT DISTINCT c.moneda, s.moneda FROM fci_fondos c JOIN fci_valores_fondo f ON f.fondo = c.nombre "
        "JOIN fci_serie s ON s.fondo_id = f.id"
    ).fetchall()
    assert pairs and all(card[c] == s for c, s in pairs), pairs


def test_fci_serie_vista_names_the_fund(conn):
    row = conn.execute("SELECT fondo_id, fondo, categoria, moneda FROM fci_serie_vista LIMIT 1").fetchone()
    (name,) = conn.execute("SELECT fondo FROM fci_valores_fondo WHERE id = ?", [row[0]]).fetchone()
    assert row[1] == name and row[2]


async def test_fci_rendimientos_del_ultimo_dia_ranks_one_currency(ds):
    pesos = await rows(ds, "fci_rendimientos_del_ultimo_dia")
    dolares = await rows(ds, "fci_rendimientos_del_ultimo_dia", moneda="USD")
    assert pesos and {r["moneda"] for r in pesos} == {"ARS"}
    assert dolares and {r["moneda"] for r in dolares} == {"USD"}


# ---- stale listing values -----------------------------------------------------------------------------
def test_stale_rows_of_fci_serie_are_flagged(conn):
    stale = conn.execute(
        "SELECT DISTINCT v.fecha FROM fci_valores v JOIN fci_valores_listado l ON l.id = v.listado_id "
        f"WHERE l.listado GLOB '[0-9]*' AND v.fecha < date(l.listado, '-{STALE_DAYS} days')"
    ).fetchall()
    flagged = conn.execute(
        "SELECT fecha FROM calidad WHERE tabla = 'fci_valores' AND control = 'valor viejo en un listado'"
    ).fetchall()
    assert stale and sorted(flagged) == sorted(stale)
    (first,) = conn.execute("SELECT min(fecha) FROM fci_serie").fetchone()
    assert (first,) in flagged
    assert METADATA["databases"][DB]["tables"]["fci_serie"]["sort_desc"] == "fecha"


# ---- one bank, one id ---------------------------------------------------------------------------------
def test_entity_id_joins_a_banks_names(conn):
    assert entity_id("BANCO DE GALICIA Y BUENOS AIRES S.A.") == entity_id("BANCO DE GALICIA Y BUENOS AIRES S.A.U.")
    assert entity_id("BANCO SANTANDER ARGENTINA SOCIEDAD ANONIMA") == entity_id("BANCO SANTANDER ARGENTINA S.A.")
    assert entity_id("BANCO SANTANDER ARGENTINA S.A.") != entity_id("BANCO DE GALICIA Y BUENOS AIRES S.A.")
    ids = conn.execute(
        "SELECT count(DISTINCT entidad), count(DISTINCT entidadId) FROM plazo_fijo_historico "
        "WHERE entidad LIKE 'BANCO DE GALICIA%' OR entidad LIKE 'BANCO SANTANDER%'"
    ).fetchone()
    assert ids[0] > ids[1] == 2


# ---- canned queries -----------------------------------------------------------------------------------
async def test_prestamos_personales_baratos_has_no_identical_rows(ds):
    got = await rows(ds, "prestamos_personales_baratos", cantidad="100")
    assert len(got) > 5
    assert len({tuple(r.values()) for r in got}) == len(got)


async def test_prestamos_bcra_baratos_leaves_out_what_calidad_flags(ds, conn):
    flagged = conn.execute(
        "SELECT count(*) FROM calidad WHERE tabla = 'prestamos_personales_bcra' AND control = 'fuera de rango'"
    ).fetchone()[0]
    low = conn.execute(
        "SELECT count(*) FROM prestamos_personales_bcra WHERE teaMax < ?", [_TASA_DE_PRESTAMO.low]
    ).fetchone()[0]
    assert flagged == low > 0
    got = await rows(ds, "prestamos_bcra_baratos")
    assert got and min(r["tea_max_pct"] for r in got) >= 100 * _TASA_DE_PRESTAMO.low


async def test_brecha_cambiaria_months_are_whole_or_say_so(ds, conn):
    got = await rows(ds, "brecha_cambiaria")
    assert len(got) >= 24
    assert got[-1]["mes_completo"] == 1  # the default starts on a month's first day
    (last,) = conn.execute("SELECT max(fecha) FROM cotizaciones_dolares").fetchone()
    month_end = (dt.date.fromisoformat(last[:8] + "01") + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    assert got[0]["mes_completo"] == int(last == month_end.isoformat())
    # Business days, not every calendar day: a whole month has at least 8 weekend days, nearly all carried.
    assert all(r["dias_habiles"] <= 31 - 6 for r in got) and sum(r["dias_habiles"] for r in got[1:]) < 23 * len(got)
    partial = await rows(ds, "brecha_cambiaria", desde="2024-02-21", hasta="2024-03-31")
    assert [(r["mes"], r["mes_completo"]) for r in partial] == [("2024-03", 1), ("2024-02", 0)]


def test_fci_historia_de_un_fondo_without_a_fund_is_fast(db_path):
    sql = METADATA["databases"][DB]["queries"]["fci_historia_de_un_fondo"]["sql"]
    with sqlite3.connect(db_path) as conn:
        start = time.perf_counter()
        got = conn.execute(sql, {"fondo": ""}).fetchall()
        seconds = time.perf_counter() - start
    assert got and seconds < 0.3, seconds


# ---- pandas -----------------------------------------------------------------------------------------
def test_leer_gives_typed_frames_without_internal_columns(db_path):
    pd = pytest.importorskip("pandas")
    serie = argentina_datos.leer("fci_serie", db_path, where="fecha >= ?", params=["2025-01-01"])
    assert pd.api.types.is_datetime64_any_dtype(serie["fecha"])
    assert {"fondo", "categoria", "moneda", "vcp"} <= set(serie.columns)
    cot = argentina_datos.leer("cotizaciones_dolares", db_path)
    assert not {"_enteros", "_extra", "_omitidas"} & set(cot.columns)
    assert pd.api.types.is_datetime64_any_dtype(cot["fecha"]) and cot["arrastrado"].dtype == bool
    assert cot["venta"].dtype == "float64"
    with pytest.raises(ValueError, match="no tiene la tabla «nada»"):
        argentina_datos.leer("nada", db_path)


def test_leer_says_how_to_install_pandas(db_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="pip install pandas"):
        argentina_datos.leer("feriados", db_path)
