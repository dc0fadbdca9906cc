"""The catalogue of series (/v1/series) and series aligned by date (/v1/series/datos), against values computed
here from the mirror's files (and from upstream's git history for a value as published on a past day)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import subprocess
from collections import defaultdict

import orjson
import pytest
from ayudas import mirror_file
from paths import BUNDLE

from argentina_datos.catalogo.series import id_part
from argentina_datos.respuestas import catalogo_series

pytestmark = pytest.mark.mirror

BLUE = "cotizaciones_dolares.blue.venta"


async def get(ds, url: str):
    response = await ds.client.get(url)
    assert response.status_code == 200, response.text[:300]
    return response.json()


def compounded(rates) -> float:
    return (math.prod(1 + r / 100 for r in rates) - 1) * 100


def on_or_before(records: list[dict], day: str, column: str):
    """The value of the last record dated on or before ``day`` (the mirror's list, in any order)."""
    found = [r for r in records if r["fecha"][:10] <= day and r.get(column) is not None]
    return max(found, key=lambda r: r["fecha"])[column] if found else None


async def test_the_catalogue_lists_the_series_the_issue_names(ds):
    catalogue = await get(ds, "/v1/series?limite=1000")
    catalogue += await get(ds, "/v1/series?tema=indices") + await get(ds, "/v1/series?tema=tasas&limite=1000")
    by_id = {s["id"]: s for s in catalogue}
    blue = by_id[BLUE]
    assert blue["filtro"] == {"casa": "blue"} and blue["columna"] == "venta" and blue["tabla"] == "cotizaciones_dolares"
    assert (
        blue["ruta"] == "/v1/cotizaciones/dolares/blue" and blue["tipo"] == "nivel" and blue["frecuencia"] == "diaria"
    )
    records = [r for r in mirror_file("/v1/cotizaciones/dolares") if r["casa"] == "blue" and r["venta"] is not None]
    assert blue["desde"] == min(r["fecha"] for r in records) and blue["hasta"] == max(r["fecha"] for r in records)
    assert blue["observaciones"] == len({r["fecha"] for r in records})
    assert by_id["inflacion"]["tipo"] == "tasa" and by_id["inflacion"]["frecuencia"] == "mensual"
    assert by_id["uva"]["unidad"] == "pesos por UVA"
    assert by_id["riesgo_pais"]["ruta"] == "/v1/finanzas/indices/riesgo-pais"
    expected = {
        "id",
        "titulo",
        "descripcion",
        "tema",
        "unidad",
        "frecuencia",
        "tipo",
        "desde",
        "hasta",
        "observaciones",
        "fuente",
        "ruta",
        "tabla",
        "columna",
        "filtro",
        "entidad",
        "atributos",
        "ultimaActualizacion",
        "cadencia",
        "atrasada",
        "calidad",
        "publicacion",
    }
    assert all(set(s) == expected for s in catalogue)
    assert by_id["cotizaciones_dolares.blue.venta"]["atributos"] == {"casa": "blue"}


async def test_search_and_filters(ds):
    blue = await get(ds, "/v1/series?q=blue")
    assert {s["id"] for s in blue} == {"cotizaciones_dolares.blue.compra", BLUE}
    assert [s["id"] for s in await get(ds, "/v1/series?q=inflación&tipo=tasa")] == ["inflacion"]
    indices = await get(ds, "/v1/series?tema=indices&frecuencia=mensual")
    assert {s["id"] for s in indices} == {"inflacion", "inflacion_interanual", "confianza_gobierno"}
    # the REM's expected inflation comes after the two series of inflation itself
    assert [s["id"] for s in await get(ds, "/v1/series?q=infla")][:2] == ["inflacion", "inflacion_interanual"]
    assert await get(ds, '/v1/series?q=" OR *') == []  # no word of it is FTS syntax
    text = (await ds.client.get("/v1/series?q=blue&formato=csv")).text
    assert [r["id"] for r in csv.DictReader(io.StringIO(text))] == [s["id"] for s in blue]


async def test_the_series_table_is_searchable_in_datasette(ds):
    page = await get(ds, "/argentina/series.json?_search=blue&_shape=array")
    assert {r["id"] for r in page} == {"cotizaciones_dolares.blue.compra", BLUE}


async def test_monthly_blue_dollar_and_inflation_of_2024_aligned(ds):
    url = f"/v1/series/datos?ids={BLUE},inflacion&desde=2024-01-01&hasta=2024-12-31&agrupar=mes&funcion=ultimo"
    got = await get(ds, url)
    assert [s["id"] for s in got["series"]] == [BLUE, "inflacion"]
    blue = [r for r in mirror_file("/v1/cotizaciones/dolares") if r["casa"] == "blue" and r["fecha"][:4] == "2024"]
    last_of_month: dict[str, float] = {}
    last_day: dict[str, str] = {}
    for r in sorted(blue, key=lambda r: r["fecha"]):
        last_of_month[r["fecha"][:7]], last_day[r["fecha"][:7]] = r["venta"], r["fecha"][:10]
    published = [r for r in mirror_file("/v1/finanzas/indices/inflacion") if r["fecha"][:4] == "2024"]
    inflation = {r["fecha"][:7]: r["valor"] for r in published}
    inflation_day = {r["fecha"][:7]: r["fecha"][:10] for r in published}
    # the last value of each month, and (beside it, «id:fecha») the day it is of
    expected = [
        {
            "fecha": f"{m}-01",
            BLUE: last_of_month.get(m),
            "inflacion": inflation.get(m),
            f"{BLUE}:fecha": last_day.get(m),
            "inflacion:fecha": inflation_day.get(m),
        }
        for m in sorted(set(last_of_month) | set(inflation))
    ]
    assert got["datos"] == expected
    text = (await ds.client.get(url + "&formato=csv")).text
    rows = list(csv.DictReader(io.StringIO(text)))
    # The CSV's headers say what the numbers are after agrupar, with the id between brackets (issue 43).
    assert list(rows[0]) == [
        "fecha",
        f"Cotizaciones del dólar, blue: precio de venta, mensual (último de todos los días publicados) (pesos por dólar) [{BLUE}]",
        "Inflación mensual (último) (porcentaje (2.1 = 2,1 %)) [inflacion]",
        f"día del valor [{BLUE}:fecha]",
        "día del valor [inflacion:fecha]",
    ]
    assert [float(r[list(r)[1]]) for r in rows] == [r[BLUE] for r in expected] and len(rows) == 12


async def test_monthly_inflation_against_the_dollars_monthly_change(ds):
    url = f"/v1/series/datos?ids=inflacion,{BLUE}:relativa&desde=2024-01-01&hasta=2024-12-31&agrupar=mes&funcion=ultimo"
    got = await get(ds, url)
    assert [s["id"] for s in got["series"]] == ["inflacion", BLUE]
    last_of_month: dict[str, float] = {}
    for r in sorted(
        (r for r in mirror_file("/v1/cotizaciones/dolares") if r["casa"] == "blue"), key=lambda r: r["fecha"]
    ):
        last_of_month[r["fecha"][:7]] = r["venta"]
    inflation = {r["fecha"][:7]: r["valor"] for r in mirror_file("/v1/finanzas/indices/inflacion")}
    months = [f"2024-{m:02d}" for m in range(1, 13)]
    previous = ["2023-12"] + months[:-1]
    assert [r["fecha"] for r in got["datos"]] == [f"{m}-01" for m in months]
    assert [r["inflacion"] for r in got["datos"]] == [inflation[m] for m in months]
    expected = [last_of_month[m] / last_of_month[p] - 1 for m, p in zip(months, previous)]
    assert [r[f"{BLUE}:relativa"] for r in got["datos"]] == pytest.approx(expected, abs=1e-9)  # 10 decimals


async def test_a_date_one_series_lacks_is_null(ds):
    got = await get(ds, f"/v1/series/datos?ids=inflacion,{BLUE}&desde=2024-01-30&hasta=2024-02-01")
    blue = {r["fecha"]: r["venta"] for r in mirror_file("/v1/cotizaciones/dolares") if r["casa"] == "blue"}
    inflation = {r["fecha"]: r["valor"] for r in mirror_file("/v1/finanzas/indices/inflacion")}
    days = ["2024-01-30", "2024-01-31", "2024-02-01"]
    assert got["datos"] == [{"fecha": d, "inflacion": inflation.get(d), BLUE: blue.get(d)} for d in days]
    assert got["datos"][0]["inflacion"] is None and got["datos"][1]["inflacion"] is not None


async def test_inflation_of_2024_by_year_is_compounded(ds):
    got = await get(ds, "/v1/series/datos?ids=inflacion&desde=2024-01-01&hasta=2024-12-31&agrupar=anio")
    months = [r["valor"] for r in mirror_file("/v1/finanzas/indices/inflacion") if r["fecha"][:4] == "2024"]
    assert len(months) == 12
    assert got["datos"] == [{"fecha": "2024-01-01", "inflacion": pytest.approx(compounded(months), abs=1e-8)}]
    assert round(got["datos"][0]["inflacion"], 2) == 117.68
    # The same rule on the route itself.
    route = await get(ds, "/v1/finanzas/indices/inflacion?agrupar=anio&desde=2024-01-01&hasta=2024-12-31")
    assert route[0]["valor"] == pytest.approx(compounded(months), abs=1e-8)


async def test_accumulated_inflation_compounds_from_january(ds):
    got = await get(ds, "/v1/finanzas/indices/inflacion?variacion=acumulada&desde=2024-01-01&hasta=2024-12-31")
    months = sorted(
        (r for r in mirror_file("/v1/finanzas/indices/inflacion") if r["fecha"][:4] == "2024"), key=lambda r: r["fecha"]
    )
    expected = [compounded([m["valor"] for m in months[: i + 1]]) for i in range(len(months))]
    assert [r["fecha"] for r in got] == [m["fecha"] for m in months]
    assert [r["valor"] for r in got] == pytest.approx(expected, abs=1e-8)
    assert got[10]["valor"] > 100  # November 2024: ~112 %, not the ratio of two monthly rates (-0.906)
    relative = await ds.client.get("/v1/finanzas/indices/inflacion?variacion=relativa")
    assert relative.status_code == 400 and relative.json()["parametro"] == "variacion"


async def test_uva_in_blue_dollars_in_march_2024(ds):
    got = await get(ds, "/v1/series/datos?ids=uva&ajustar=dolar-blue&desde=2024-03-01&hasta=2024-03-31")
    uva = mirror_file("/v1/finanzas/indices/uva")
    blue = [r for r in mirror_file("/v1/cotizaciones/dolares") if r["casa"] == "blue"]
    march = sorted(r["fecha"] for r in uva if r["fecha"].startswith("2024-03"))
    assert [r["fecha"] for r in got["datos"]] == march
    expected = [on_or_before(uva, d, "valor") / on_or_before(blue, d, "venta") for d in march]
    assert [r["uva"] for r in got["datos"]] == pytest.approx(expected, rel=1e-9)


async def test_blue_dollar_of_december_2023_in_pesos_of_january_2026(ds):
    url = f"/v1/series/datos?ids={BLUE}&ajustar=ipc&base=2026-01&desde=2023-12-01&hasta=2023-12-31&agrupar=mes"
    got = await get(ds, url)
    # The CPI chained here from the monthly inflations, independently of the ipc table.
    inflation = sorted(mirror_file("/v1/finanzas/indices/inflacion"), key=lambda r: r["fecha"])
    factor = math.prod(1 + r["valor"] / 100 for r in inflation if "2024-01" <= r["fecha"][:7] <= "2026-01")
    december = [
        r["venta"]
        for r in mirror_file("/v1/cotizaciones/dolares")
        if r["casa"] == "blue" and r["fecha"].startswith("2023-12")
    ]
    expected = sum(december) / len(december) * factor
    assert got["datos"] == [{"fecha": "2023-12-01", BLUE: pytest.approx(expected, rel=1e-9)}]


def published_on(route: str, day: str, tmp_path) -> list[dict]:
    """``route``'s file as upstream's git history had it at the end of ``day`` (UTC)."""
    repo = tmp_path / "versiones"
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(BUNDLE), str(repo)], check=True)
    path = route.strip("/") + "/index.json"
    commit = subprocess.run(
        ["git", "-C", str(repo), "rev-list", "-1", f"--before={day}T23:59:59Z", "origin/main", "--", path],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    assert commit
    shown = subprocess.run(["git", "-C", str(repo), "show", f"{commit}:{path}"], check=True, capture_output=True)
    return orjson.loads(shown.stdout)


@pytest.mark.skipif(not BUNDLE.is_file(), reason="sin el paquete de versiones de upstream")
async def test_country_risk_as_published_before_the_2025_revision(ds, tmp_path):
    url = "/v1/series/datos?ids=riesgo_pais&publicado=2024-12-31&desde=2003-06-02&hasta=2003-06-02"
    got = await get(ds, url)
    then = [
        r
        for r in published_on("/v1/finanzas/indices/riesgo-pais", "2024-12-31", tmp_path)
        if r["fecha"] == "2003-06-02"
    ]
    now = [r for r in mirror_file("/v1/finanzas/indices/riesgo-pais") if r["fecha"] == "2003-06-02"]
    assert got["datos"] == [{"fecha": "2003-06-02", "riesgo_pais": then[0]["valor"]}]
    assert then[0]["valor"] != now[0]["valor"]  # upstream revised it since
    today = await get(ds, "/v1/series/datos?ids=riesgo_pais&desde=2003-06-02&hasta=2003-06-02")
    assert today["datos"] == [{"fecha": "2003-06-02", "riesgo_pais": now[0]["valor"]}]


def test_the_blue_series_is_late(conn, monkeypatch):
    from argentina_datos.web.v1.api import V1

    records = [r for r in mirror_file("/v1/cotizaciones/dolares") if r["casa"] == "blue"]
    last = dt.date.fromisoformat(max(r["fecha"] for r in records))

    def blue_on(day: dt.date) -> bool:
        monkeypatch.setenv(catalogo_series.TODAY_VARIABLE, day.isoformat())
        response = V1().compute_series(conn, "/v1/series", {"q": "blue venta"}, catalogo_series.consulta.Query())
        return orjson.loads(response.body)[0]["atrasada"]

    assert blue_on(last + dt.timedelta(days=5)) is False
    assert blue_on(last + dt.timedelta(days=6)) is True
    monkeypatch.delenv(catalogo_series.TODAY_VARIABLE)
    assert blue_on(dt.date.today()) is ((dt.date.today() - last).days > 5)


async def test_late_series_are_quality_findings_and_a_feed(conn, ds):
    late = {r[0] for r in conn.execute("SELECT id FROM series WHERE atrasada")}
    findings = defaultdict(set)
    for tabla, campo, serie in conn.execute("SELECT tabla, campo, serie FROM calidad WHERE control = 'serie atrasada'"):
        findings[tabla].add((campo, serie))
    assert ("venta", "casa=blue") in findings["cotizaciones_dolares"]
    assert sum(len(v) for v in findings.values()) == len(late)
    feed = await ds.client.get("/argentina/series_atrasadas.atom")
    assert feed.status_code == 200 and "<feed" in feed.text
    hasta = next(r[0] for r in conn.execute("SELECT hasta FROM series WHERE id = ?", [BLUE]))
    assert f"argentina-datos:serie-atrasada:{BLUE}:{hasta}" in feed.text


@pytest.mark.parametrize(
    "url, param",
    [
        ("/v1/series/datos?ids=inflacion,no-existe", "ids"),
        ("/v1/series/datos?ids=inflacion:semanal", "ids"),
        ("/v1/series/datos?ids=inflacion:relativa", "variacion"),
        ("/v1/series/datos", "ids"),
        ("/v1/series/datos?ids=" + ",".join(["inflacion"] + [f"x{i}" for i in range(20)]), "ids"),
        ("/v1/series/datos?ids=inflacion&agrupar=anio&funcion=suma", "funcion"),
        ("/v1/series/datos?ids=inflacion&ajustar=ipc", "ajustar"),
        (f"/v1/series/datos?ids={BLUE}&ajustar=dolar-nada", "ajustar"),
        ("/v1/series?tipo=otro", "tipo"),
        ("/v1/series?agrupar=mes", "agrupar"),
        ("/v1/feriados/2025?agrupar=mes", "agrupar"),
        ("/v1/finanzas/indices/uva?formato=ics", "formato"),
        # variations and adjustment of any route (tests/test_variaciones.py checks what they answer)
        ("/v1/cotizaciones/dolares/blue?variacion=semanal", "variacion"),
        ("/v1/cotizaciones/dolares/blue?ajustar=dolar", "ajustar"),
        ("/v1/finanzas/indices/riesgo-pais?ajustar=ipc", "ajustar"),
        ("/v1/cotizaciones/dolares/blue?ajustar=ipc&base=2020-13", "base"),
        ("/v1/cotizaciones/dolares/blue?ajustar=ipc&base=2199-01", "base"),
        ("/v1/cotizaciones/dolares/blue?base=2020-01", "base"),
        ("/v1/feriados/2025?variacion=relativa", "variacion"),
        (f"/v1/series/datos?ids={BLUE}&marcar=todo", "marcar"),
        ("/v1/series?marcar=calidad", "marcar"),
    ],
)
async def test_unknown_ids_and_meaningless_combinations_are_json_400s(ds, url, param):
    response = await ds.client.get(url)
    assert response.status_code == 400, response.text[:300]
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["parametro"] == param and body["mensaje"]
    if "no-existe" in url:
        assert "no-existe" in body["mensaje"]


async def test_a_day_before_the_stored_versions_is_a_404(ds):
    response = await ds.client.get("/v1/series/datos?ids=riesgo_pais&publicado=2001-01-01")
    assert response.status_code == 404 and response.json()["parametro"] == "publicado"
    assert "sus versiones empiezan el 2024-" in response.json()["mensaje"]
    unversioned = await ds.client.get("/v1/series/datos?ids=cotizaciones.USD.venta&publicado=2025-01-01")
    assert unversioned.status_code == 404 and "no tiene versiones guardadas" in unversioned.json()["mensaje"]


async def test_conversions_are_for_amounts_of_pesos(ds):
    response = await ds.client.get("/v1/series/datos?ids=inflacion_interanual&ajustar=uva")
    assert response.status_code == 400 and "inflacion_interanual" in response.json()["mensaje"]


async def test_holidays_as_a_calendar(ds):
    import icalendar

    response = await ds.client.get("/v1/feriados/2025?formato=ics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/calendar")
    events = icalendar.Calendar.from_ical(response.content).walk("VEVENT")
    holidays = mirror_file("/v1/feriados/2025")
    assert len(events) == len(holidays)
    assert [(e.decoded("DTSTART").isoformat(), str(e["SUMMARY"])) for e in events] == [
        (h["fecha"], h["nombre"]) for h in holidays
    ]
    bank = await ds.client.get("/v1/feriados-bancarios/2025?formato=ics")
    assert len(icalendar.Calendar.from_ical(bank.content).walk("VEVENT")) == len(
        mirror_file("/v1/feriados-bancarios/2025")
    )


async def test_cached_by_their_own_parameters_and_by_day(ds, monkeypatch):
    uva = await get(ds, "/v1/series/datos?ids=uva&desde=2024-01-02&hasta=2024-01-02")
    inflation = await get(ds, "/v1/series/datos?ids=inflacion&desde=2024-01-02&hasta=2024-01-02")
    assert [s["id"] for s in uva["series"]] == ["uva"] and [s["id"] for s in inflation["series"]] == ["inflacion"]
    hasta = dt.date.fromisoformat((await get(ds, "/v1/series?q=blue venta"))[0]["hasta"])
    monkeypatch.setenv(catalogo_series.TODAY_VARIABLE, (hasta + dt.timedelta(days=1)).isoformat())
    assert (await get(ds, "/v1/series?q=blue venta"))[0]["atrasada"] is False
    monkeypatch.setenv(catalogo_series.TODAY_VARIABLE, (hasta + dt.timedelta(days=30)).isoformat())
    assert (await get(ds, "/v1/series?q=blue venta"))[0]["atrasada"] is True


MAYORISTA = "cotizaciones_dolares.mayorista.venta"


async def test_each_series_counts_its_findings(ds, conn):
    by_id = {s["id"]: s for s in await get(ds, "/v1/series")}
    assert by_id[MAYORISTA]["calidad"] > 0
    # Counted from calidad by table, series and measure: a finding on «compra, venta» or on the whole series counts.
    expected = conn.execute(
        "SELECT count(*) FROM calidad WHERE tabla = 'cotizaciones_dolares' AND serie = 'casa=mayorista' "
        "AND (campo IS NULL OR ', ' || campo || ', ' LIKE '%, venta, %')"
    ).fetchone()[0]
    assert by_id[MAYORISTA]["calidad"] == expected
    assert all(isinstance(s["calidad"], int) for s in by_id.values())


async def test_flagged_points_are_marked_beside_their_values(ds):
    url = f"/v1/series/datos?ids={MAYORISTA},{BLUE}&marcar=calidad&desde=2023-12-11&hasta=2024-01-12"
    rows = (await get(ds, url))["datos"]
    marked = {r["fecha"]: r[f"{MAYORISTA}:calidad"] for r in rows}
    frozen = [d for d, m in marked.items() if m and "valor congelado" in m]
    assert frozen[0] == "2023-12-13" and frozen[-1] == "2024-01-10"
    assert not marked["2023-12-12"] and "valor congelado" not in (marked["2024-01-11"] or "")
    # The values are as published: 366.45 all along.
    assert {r[MAYORISTA] for r in rows if r["fecha"] in frozen} == {366.45}
    plain = (await get(ds, url.replace("&marcar=calidad", "")))["datos"]
    assert [{k: v for k, v in r.items() if not k.endswith(":calidad")} for r in rows] == plain
    # CSV too: a column beside the series'.
    response = await ds.client.get(url + "&formato=csv")
    table = list(csv.DictReader(io.StringIO(response.text)))
    marks = f"calidad [{MAYORISTA}:calidad]"
    assert marks in table[0]
    assert [r["fecha"] for r in table if "valor congelado" in r[marks]] == frozen


async def test_a_grouped_period_is_marked_when_a_flagged_span_touches_it(ds):
    url = f"/v1/series/datos?ids={MAYORISTA}&marcar=calidad&desde=2023-11-01&hasta=2024-02-29&agrupar=mes"
    marked = {r["fecha"]: r[f"{MAYORISTA}:calidad"] for r in (await get(ds, url))["datos"]}
    assert "valor congelado" in marked["2023-12-01"] and "valor congelado" in marked["2024-01-01"]
    assert "valor congelado" not in (marked["2023-11-01"] or "")


# ---- every number a series: funds, banks, the REM (issue 43) ------------------------------------------------
async def all_series(ds, query: str = "") -> list[dict]:
    """Every page, following each answer's Link: <...>; rel="next" as a client does."""
    out, url = [], f"/v1/series?limite=1000{query}"
    while url:
        response = await ds.client.get(url)
        assert response.status_code == 200, response.text
        out += response.json()
        url = response.links.get("next", {}).get("url")
    return out


async def test_every_fund_every_plazo_fijo_bank_and_the_rem_are_series(ds, conn):
    catalogue = await all_series(ds)
    assert len(catalogue) >= 5000 and len({s["id"] for s in catalogue}) == len(catalogue)
    assert len(catalogue) == conn.execute("SELECT count(*) FROM series").fetchone()[0]  # the Link reached the end
    tables = defaultdict(set)
    for s in catalogue:
        tables[s["tabla"]].add(tuple(s["filtro"].values()))
    funds = {r for r in conn.execute("SELECT DISTINCT fondo_id FROM fci_serie WHERE vcp IS NOT NULL")}
    assert tables["fci_serie"] >= funds
    banks = {r for r in conn.execute("SELECT DISTINCT entidadId FROM plazo_fijo_historico WHERE tnaClientes > 0")}
    assert banks and tables["plazo_fijo_historico"] >= banks
    rem = [s for s in catalogue if s["tabla"] == "finanzas_rem"]
    assert {s["columna"] for s in rem} >= {"mediana", "promedio", "percentil90"}
    by_id = {s["id"]: s for s in catalogue}
    fund = next(s for s in catalogue if s["tabla"] == "fci_serie" and s["columna"] == "vcp")
    assert fund["tipo"] == "nivel" and fund["unidad"].endswith("por cuotaparte") and fund["tema"] == "fci"
    bank = next(s for s in catalogue if s["tabla"] == "plazo_fijo_historico")
    assert bank["tipo"] == "tasa_anual" and bank["tema"] == "tasas" and bank["entidad"]
    assert by_id[BLUE]["cadencia"] == 5 and fund["cadencia"] is None and fund["atrasada"] is False


async def test_a_bank_rate_is_a_series_over_the_days_we_hold(ds):
    found = await get(ds, "/v1/series?q=plazo fijo galicia")
    assert found and found[0]["tabla"] == "plazo_fijo_historico" and "GALICIA" in found[0]["titulo"]
    got = await get(ds, f"/v1/series/datos?ids={found[0]['id']}")
    values = [r for r in got["datos"] if r[found[0]["id"]] is not None]
    assert len(values) > 1
    # Already the history of the published versions: a past version of it is a 400 that says so, not an empty list.
    response = await ds.client.get(f"/v1/series/datos?ids={found[0]['id']}&publicado={values[-1]['fecha']}")
    assert response.status_code == 400 and "entidadId" in response.json()["mensaje"]


async def test_a_usd_money_market_fund_found_by_words_has_the_mirror_value(ds):
    found = await get(ds, "/v1/series?q=balanz money market usd")
    first = found[0]
    assert first["tabla"] == "fci_serie" and first["columna"] == "vcp" and "Balanz Money Market USD" in first["titulo"]
    assert first["unidad"] == "dólares por cuotaparte" and first["atributos"]["moneda"] in ("USD", "USB")
    day = "2025-06-02"
    got = await get(ds, f"/v1/series/datos?ids={first['id']}&desde={day}&hasta={day}")
    category = first["atributos"]["categoria"]
    published = [
        r for r in mirror_file(f"/v1/finanzas/fci/{category}/{day.replace('-', '/')}") if r["fondo"] == first["entidad"]
    ]
    assert published and got["datos"] == [{"fecha": day, first["id"]: published[0]["vcp"]}]


async def test_search_is_accent_and_case_insensitive_filtered_and_paged(ds):
    assert await get(ds, "/v1/series?q=REM INFLACION&limite=5") == await get(ds, "/v1/series?q=rem inflación&limite=5")
    rem = await get(ds, "/v1/series?q=rem inflación&limite=5")
    assert rem and all(s["tema"] == "rem" and "Precios minoristas" in s["titulo"] for s in rem)
    usd = await get(ds, "/v1/series?tema=fci&moneda=usd&limite=50")
    assert len(usd) == 50 and all(s["atributos"]["moneda"] == "USD" for s in usd)
    one, two = await get(ds, "/v1/series?tema=fci&limite=3"), await get(ds, "/v1/series?tema=fci&limite=3&pagina=2")
    assert len(one) == len(two) == 3 and not {s["id"] for s in one} & {s["id"] for s in two}
    paged = await ds.client.get("/v1/series?q=plazo fijo&tema=tasas&limite=3&formato=csv")
    assert paged.links["next"]["url"] == "/v1/series?q=plazo+fijo&tema=tasas&limite=3&pagina=2&formato=csv"
    assert paged.headers["access-control-expose-headers"] == "Link"  # for a page of another origin
    last = await ds.client.get("/v1/series?tema=fci&limite=1000&pagina=10")
    assert last.status_code == 200 and "link" not in last.headers  # no page after the last one
    assert (await ds.client.get("/v1/series?limite=0")).status_code == 400
    for odd in ("pagina=²", "limite=²", "pagina=١"):  # digits to str.isdigit, not to int() or to us: a 400, not a 500
        assert (await ds.client.get(f"/v1/series?{odd}")).status_code == 400, odd


async def test_labels_follow_conversion_and_grouping(ds):
    got = await get(ds, f"/v1/series/datos?ids={BLUE}&ajustar=ipc&base=2026-01&desde=2024-01-01&hasta=2024-01-31")
    assert got["series"][0]["unidad"] == "pesos de enero de 2026 por dólar"
    got = await get(ds, f"/v1/series/datos?ids={BLUE}&ajustar=uva&desde=2024-01-01&hasta=2024-01-31")
    assert got["series"][0]["unidad"] == "UVA por dólar"
    got = await get(ds, "/v1/series/datos?ids=inflacion&agrupar=anio&desde=2024-01-01")
    entry = got["series"][0]
    assert entry["titulo"] == "Inflación anual (compuesta)" and entry["frecuencia"] == "anual"
    years = {r["fecha"]: r["inflacion"] for r in got["datos"]}
    months = [r for r in mirror_file("/v1/finanzas/indices/inflacion") if r["fecha"] >= "2024-01-01"]
    last = max(r["fecha"] for r in months)
    assert entry["parciales"] == ([] if last[5:7] == "12" else [last[:4] + "-01-01"])
    assert "2024-01-01" not in entry["parciales"]
    assert years["2024-01-01"] == pytest.approx(compounded(r["valor"] for r in months if r["fecha"][:4] == "2024"))


async def test_funcion_promedio_is_the_mean_of_a_rate(ds):
    got = await get(
        ds, "/v1/series/datos?ids=inflacion&agrupar=anio&funcion=promedio&desde=2024-01-01&hasta=2024-12-31"
    )
    months = [r["valor"] for r in mirror_file("/v1/finanzas/indices/inflacion") if r["fecha"][:4] == "2024"]
    assert got["datos"][0]["inflacion"] == pytest.approx(sum(months) / len(months))
    assert got["series"][0]["titulo"] == "Inflación anual (promedio)"


async def test_every_number_of_each_cer_bond_and_bill_is_a_series_on_its_snapshot_day(ds):
    """The mirror has one version of each (no past of them is archived): each series has that day only."""
    catalogue = {s["id"]: s for s in await all_series(ds, "&tema=bonos")}
    for route, table, key in (
        ("/v1/finanzas/bonos-cer", "bonos_cer_historico", "bonos"),
        ("/v1/finanzas/letras", "letras_historico", "letras"),
    ):
        published = mirror_file(route)
        day = published["fechaActualizacion"][:10]
        for record in published[key]:
            numbers = {
                f"{table}.{record['ticker']}.{k}": v
                for k, v in record.items()
                if isinstance(v, (int, float)) and k != "diasAlVencimiento"
            }
            assert numbers and set(numbers) <= set(catalogue), record["ticker"]
            assert all((catalogue[i]["desde"], catalogue[i]["hasta"]) == (day, day) for i in numbers)
            got = await get(ds, f"/v1/series/datos?ids={','.join(numbers)}")
            assert got["datos"] == [{"fecha": day, **numbers}]
    assert len({s["tabla"] for s in catalogue.values()}) == 2


async def test_uva_fixed_terms_by_term_range_and_wallet_yields_by_currency_are_series(ds):
    uva = {s["id"]: s for s in await all_series(ds, "&tema=tasas")}
    for bank in mirror_file("/v1/finanzas/tasas/plazoFijoUvaPagoPeriodico"):
        for rate in bank["tasas"]:
            base = f"{id_part(bank['entidad'])}.{rate['plazoMinDias']}.{rate['plazoMaxDias']}"
            ids = [f"plazo_fijo_uva_pago_periodico_historico_tasas.{base}.{m}" for m in ("tna", "tea")]
            got = await get(ds, f"/v1/series/datos?ids={','.join(ids)}")
            assert got["datos"][-1] == {"fecha": uva[ids[0]]["hasta"], ids[0]: rate["tna"], ids[1]: rate["tea"]}
    # Each platform's yield in each currency, on the record's own date: the mirror's file is the newest version, so
    # its values are those of their dates (the last of a currency listed twice).
    newest: dict[tuple, tuple] = {}
    for platform in mirror_file("/v1/finanzas/rendimientos"):
        for r in platform["rendimientos"]:
            newest[(platform["entidad"], r["moneda"])] = (r["fecha"], r["apy"])
    assert len(newest) > 20
    for (entidad, moneda), (fecha, apy) in newest.items():
        series_id = f"rendimientos_historico_monedas.{id_part(entidad)}.{id_part(moneda)}.apy"
        got = await get(ds, f"/v1/series/datos?ids={series_id}&desde={fecha}&hasta={fecha}")
        assert got["datos"] == [{"fecha": fecha, series_id: apy}], series_id
    usdt = await get(ds, "/v1/series?tema=billeteras&moneda=USDT&q=rendimiento&limite=1000")
    assert usdt and max(s["observaciones"] for s in usdt) > 100  # two years of the history tree


def business_days_of(year: str) -> set[str]:
    """Monday to Friday, less the year's national and banking holidays of the mirror."""
    holidays = {
        h["fecha"] for route in ("/v1/feriados", "/v1/feriados-bancarios") for h in mirror_file(f"{route}/{year}")
    }
    days = (dt.date(int(year), 1, 1) + dt.timedelta(days=n) for n in range(366))
    return {d.isoformat() for d in days if d.year == int(year) and d.weekday() < 5 and d.isoformat() not in holidays}


async def test_dias_habiles_averages_business_days_and_the_title_says_so(ds):
    """The issue's case: January 2025's blue averaged over every published day counts Friday three times
    (1226.29); over business days it is 1227.50, as brecha_cambiaria and the dashboard give."""
    url = f"/v1/series/datos?ids={BLUE},inflacion&agrupar=mes&desde=2025-01&hasta=2025-01"
    every, business = await get(ds, url), await get(ds, url + "&dias=habiles")
    january = [
        r for r in mirror_file("/v1/cotizaciones/dolares") if r["casa"] == "blue" and r["fecha"][:7] == "2025-01"
    ]
    open_days = business_days_of("2025")
    on_business = [r["venta"] for r in january if r["fecha"] in open_days]
    assert len(on_business) < len(january)  # the weekends are there to be left out
    assert business["datos"][0][BLUE] == pytest.approx(sum(on_business) / len(on_business)) == pytest.approx(1227.50)
    assert every["datos"][0][BLUE] == pytest.approx(sum(r["venta"] for r in january) / len(january))
    assert every["datos"][0][BLUE] != pytest.approx(business["datos"][0][BLUE])
    assert business["series"][0]["titulo"].endswith("mensual (promedio de días hábiles)")
    assert every["series"][0]["titulo"].endswith("mensual (promedio de todos los días publicados)")
    # a monthly series is what it was, and says nothing of days
    assert business["datos"][0]["inflacion"] == every["datos"][0]["inflacion"]
    assert business["series"][1]["titulo"] == every["series"][1]["titulo"] == "Inflación mensual (compuesta)"
    # without agrupar: the rows of business days only
    days = await get(ds, f"/v1/series/datos?ids={BLUE}&desde=2025-01-01&hasta=2025-01-31&dias=habiles")
    assert {r["fecha"] for r in days["datos"]} == {r["fecha"] for r in january if r["fecha"] in open_days}
    assert days["series"][0]["titulo"].endswith(", días hábiles")


async def test_dias_takes_its_two_values_on_the_data_route_only(ds):
    for url, param in (
        (f"/v1/series/datos?ids={BLUE}&dias=laborables", "dias"),
        ("/v1/series?dias=habiles", "dias"),
    ):
        response = await ds.client.get(url)
        assert response.status_code == 400 and response.json()["parametro"] == param, url


async def test_an_unknown_parameter_is_named_never_refused(ds):
    """habil=1 (the issue's guess) and a spreadsheet's changing &x=2: the same values, and the answer names them."""
    url = f"/v1/series/datos?ids={BLUE}&desde=2025-01&hasta=2025-01&agrupar=mes"
    plain = await ds.client.get(url)
    guessed = await ds.client.get(url + "&habil=1&x=2")
    assert guessed.status_code == 200 and guessed.json()["datos"] == plain.json()["datos"]
    assert "aviso" not in plain.json() and "x-parametros-ignorados" not in plain.headers
    aviso = guessed.json()["aviso"]
    assert "«habil»" in aviso and "«x»" in aviso and "dias" in aviso  # what it ignored, and what it takes
    assert guessed.headers["x-parametros-ignorados"] == "habil, x"
    for other in (f"{url}&habil=1&formato=csv", "/v1/series?q=blue&habil=1"):
        response = await ds.client.get(other)
        assert response.status_code == 200 and response.headers["x-parametros-ignorados"] == "habil", other


async def test_data_entries_carry_calidad_as_the_catalogue_does_and_units_agree(ds):
    listed = {s["id"]: s for s in await get(ds, "/v1/series?q=mayorista")}
    got = await get(ds, "/v1/series/datos?ids=cotizaciones_dolares.mayorista.venta&desde=2025-01-02&hasta=2025-01-02")
    entry = got["series"][0]
    assert entry["calidad"] == listed["cotizaciones_dolares.mayorista.venta"]["calidad"] > 0
    converted = await get(ds, f"/v1/series/datos?ids={BLUE}&ajustar=dolar-oficial&desde=2025-01-02&hasta=2025-01-02")
    assert converted["series"][0]["unidad"] == "dólares oficiales del día por dólar"


@pytest.mark.parametrize(
    "q, first",
    [
        ("mep", "cotizaciones_dolares.bolsa"),
        ("dólar MEP", "cotizaciones_dolares.bolsa"),
        ("ccl", "cotizaciones_dolares.contadoconliqui"),
        ("contado con liqui", "cotizaciones_dolares.contadoconliqui"),
        ("contado con liquidación", "cotizaciones_dolares.contadoconliqui"),
        ("dolar turista", "cotizaciones_dolares.tarjeta"),
        ("ipc", "inflacion"),
    ],
)
async def test_the_search_knows_what_people_call_things(ds, q, first):
    found = await get(ds, f"/v1/series?q={q}&limite=5")
    assert found and found[0]["id"].startswith(first), [s["id"] for s in found]


async def test_a_plain_series_comes_before_its_variants(ds):
    # Banco Nación's ordinary plazo fijo before its twenty UVA products
    nacion = [s for s in await get(ds, "/v1/series?q=plazo fijo nacion&limite=3")]
    assert any(s["tabla"] == "plazo_fijo_historico" for s in nacion), [s["id"] for s in nacion]
    assert nacion[0]["tabla"] == "plazo_fijo_historico"
    assert (await get(ds, "/v1/series?q=plazo fijo tradicional nacion&limite=1"))[0]["tabla"] == "plazo_fijo_historico"
    # the inflation before the REM's expectations of it; of the REM, upstream's newer path before the older one
    ipc = await get(ds, "/v1/series?q=ipc&limite=1000")
    tables = [s["tabla"] for s in ipc]
    assert tables[:2] == ["inflacion", "inflacion_interanual"]
    assert "finanzas_rem" in tables and "rems" in tables
    assert max(i for i, t in enumerate(tables) if t == "finanzas_rem") < tables.index("rems")


@pytest.mark.parametrize(
    "asked, meant",
    [
        ("INFLACION", "inflacion"),
        ("inflation", "inflacion"),
        ("riesgo-pais", "riesgo_pais"),
        ("cotizaciones_dolares.mep.venta", "cotizaciones_dolares.bolsa.venta"),
    ],
)
async def test_an_unknown_id_suggests_the_nearest(ds, asked, meant):
    response = await ds.client.get(f"/v1/series/datos?ids={asked}")
    assert response.status_code == 400 and response.json()["parametro"] == "ids"
    assert f"¿quiso decir {meant}" in response.json()["mensaje"]


async def test_a_common_name_of_a_casa_converts_at_its_rate(ds):
    day = "2025-01-02"
    mep = await get(ds, f"/v1/series/datos?ids=uva&ajustar=dolar-mep&desde={day}&hasta={day}")
    bolsa = await get(ds, f"/v1/series/datos?ids=uva&ajustar=dolar-bolsa&desde={day}&hasta={day}")
    assert mep["datos"] == bolsa["datos"] and mep["datos"][0]["uva"] is not None


async def test_a_grouped_maximum_says_the_day_it_happened(ds):
    records = [r for r in mirror_file("/v1/finanzas/indices/riesgo-pais") if r["fecha"].startswith("2024")]
    top = max(records, key=lambda r: r["valor"])  # the first day of the highest
    top = min((r for r in records if r["valor"] == top["valor"]), key=lambda r: r["fecha"])
    asked = "desde=2024&hasta=2024&agrupar=anio&funcion=maximo"
    got = await get(ds, f"/v1/series/datos?ids=riesgo_pais&{asked}")
    assert got["datos"] == [
        {"fecha": "2024-01-01", "riesgo_pais": top["valor"], "riesgo_pais:fecha": top["fecha"][:10]}
    ]
    route = await get(ds, f"/v1/finanzas/indices/riesgo-pais?{asked}")
    assert [(r["fecha"], r["valor"], r["fechaValor"]) for r in route] == [
        ("2024-01-01", top["valor"], top["fecha"][:10])
    ]
    csv_text = (await ds.client.get(f"/v1/series/datos?ids=riesgo_pais&{asked}&formato=csv")).text
    assert csv_text.splitlines()[0].endswith("[riesgo_pais:fecha]")


def test_the_declared_names_and_ranks_name_what_exists():
    from argentina_datos.catalogo import sinonimos
    from argentina_datos.catalogo.parametros import CASAS
    from argentina_datos.catalogo.series import SPECS

    assert set(sinonimos.RANK_AFTER) <= {s.table for s in SPECS}
    assert set(sinonimos.CASAS_BY_NAME.values()) <= set(CASAS)
    assert sinonimos.CASAS_BY_NAME["mep"] == "bolsa" and sinonimos.CASAS_BY_NAME["ccl"] == "contadoconliqui"
    # a common name is written as the search compares it: lowercase, without accents
    assert all(sinonimos.plain(n) == n and sinonimos.plain(w) == w for n, w in sinonimos.SYNONYMS.items())
    assert sinonimos.expanded("Dólar contado con liqui") == [
        [["dolar"]],
        [["contado", "con", "liqui"], ["contadoconliqui"]],
    ]
