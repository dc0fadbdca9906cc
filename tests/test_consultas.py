"""The canned queries of metadata.yml run from a bare link and return rows on the mirror's data."""

import pytest
import yaml

from argentina_datos.documentacion import metadatos

DB = metadatos.DATABASE
QUERIES = yaml.safe_load(metadatos.METADATA.read_text(encoding="utf-8"))["databases"][DB]["queries"]


async def rows(ds, name, **params):
    r = await ds.client.get(f"/{DB}/{name}.json", params={"_shape": "array", **params})
    assert r.status_code == 200, (name, r.text[:500])
    return r.json()


def test_there_are_at_least_eight_described_queries():
    assert len(QUERIES) >= 8
    for name, q in QUERIES.items():
        assert q.get("title") and q.get("description") and q.get("sql"), name


@pytest.mark.parametrize("name", sorted(QUERIES))
async def test_query_returns_rows_with_its_defaults(ds, name):
    assert len(await rows(ds, name)) >= 1


async def test_dolar_por_casa_honours_its_parameters(ds, conn):
    # Business days only (no weekend nor holiday), as brecha_cambiaria and dolar_en_pesos_de_hoy.
    got = await rows(ds, "dolar_por_casa", casa="oficial", desde="2020-01-01", hasta="2020-01-31")
    expected = conn.execute(
        "SELECT fecha, venta FROM cotizaciones_dolares WHERE casa = 'oficial' AND habil "
        "AND fecha BETWEEN '2020-01-01' AND '2020-01-31' ORDER BY fecha DESC"
    ).fetchall()
    assert [(r["fecha"], r["venta"]) for r in got] == expected
    assert {r["casa"] for r in got} == {"oficial"}
    assert all(r["variacion_pct"] is not None for r in got)  # the day before the range feeds the first


async def test_proximos_feriados_from_a_date(ds, conn):
    got = await rows(ds, "proximos_feriados", fecha="2025-01-02", cantidad="2")
    expected = conn.execute(
        "SELECT DISTINCT fecha FROM feriados WHERE fecha >= '2025-01-02' ORDER BY fecha LIMIT 2"
    ).fetchall()
    assert [r["fecha"] for r in got] == [f for (f,) in expected]
    assert got[0]["dias_que_faltan"] >= 0


async def test_inflacion_12_meses_agrees_with_indec_interanual(ds):
    got = await rows(ds, "inflacion_12_meses", desde="2018-01-01")
    compared = [r for r in got if r["interanual_indec_pct"] is not None and r["acumulada_12_meses_pct"] is not None]
    assert len(compared) > 24
    # Compounding the published monthly figures reproduces INDEC's year-on-year rate up to rounding.
    off = [r for r in compared if abs(r["acumulada_12_meses_pct"] - r["interanual_indec_pct"]) > 1.0]
    assert len(off) <= len(compared) // 10, off[:5]


async def test_inflacion_por_anio_compounds_the_months(ds, conn):
    (anio,) = conn.execute(
        "SELECT substr(fecha, 1, 4) FROM inflacion GROUP BY 1 HAVING count(*) = 12 ORDER BY 1 DESC LIMIT 1"
    ).fetchone()
    nivel = 1.0
    for (v,) in conn.execute("SELECT valor FROM inflacion WHERE substr(fecha, 1, 4) = ?", [anio]):
        nivel *= 1 + v / 100
    got = {r["anio"]: r for r in await rows(ds, "inflacion_por_anio", desde_anio=anio)}
    assert got[anio]["meses"] == 12
    assert got[anio]["inflacion_anual_pct"] == pytest.approx(100 * (nivel - 1), abs=0.05)


async def test_viajes_filter_by_senator(ds):
    todos = await rows(ds, "viajes_internacionales_por_senador")
    nombre = todos[0]["senador"].split(",")[0]
    filtrados = await rows(ds, "viajes_internacionales_por_senador", senador=nombre)
    assert filtrados and all(nombre.lower() in r["senador"].lower() for r in filtrados)
    assert len(filtrados) < len(todos)


async def test_prestamos_sorted_by_cft(ds):
    got = await rows(ds, "prestamos_personales_baratos", cantidad="5")
    assert 1 <= len(got) <= 5
    cfts = [r["cft_tea_pct"] for r in got]
    assert cfts == sorted(cfts) and cfts[0] > 0


async def test_brecha_cambiaria_counts_the_business_days_of_the_calendar(ds):
    # May 2024: 23 weekdays less 1 May (Día del Trabajador); upstream's weekend quotes that differ from Friday's
    # (not carried forward) are no business day either.
    got = await rows(ds, "brecha_cambiaria", desde="2024-05-01", hasta="2024-05-31")
    assert [(r["mes"], r["dias_habiles"], r["mes_completo"]) for r in got] == [("2024-05", 22, 1)]
