"""variacion and ajustar=ipc (issue 21), each mode against pandas on real mirror routes."""

from __future__ import annotations

import csv
import io
import sqlite3

import numpy as np
import pandas as pd
import pytest
from ayudas import mirror_file
from paths import UPSTREAM

from argentina_datos.respuestas import consulta, variaciones

pytestmark = pytest.mark.mirror


async def get(ds, url: str):
    response = await ds.client.get(url)
    assert response.status_code == 200, response.text[:300]
    return response


def frame(records: list[dict]) -> pd.DataFrame:
    df = pd.DataFrame(records)
    df["fecha"] = pd.to_datetime(df["fecha"])
    return df


def close(ours: list, expected: list) -> None:
    """Equal, nulls where pandas has NaN, to 1e-9 relative."""
    assert len(ours) == len(expected)
    for a, b in zip(ours, expected):
        if b is None or (isinstance(b, float) and np.isnan(b)):
            assert a is None, (a, b)
        else:
            assert a == pytest.approx(b, rel=1e-9, abs=1e-9), (a, b)


async def test_monthly_relative_change_is_pandas_pct_change(ds):
    got = (await get(ds, "/v1/cotizaciones/dolares/blue?agrupar=mes&variacion=relativa")).json()
    df = frame(mirror_file("/v1/cotizaciones/dolares/blue")).set_index("fecha")
    monthly = df[["compra", "venta"]].resample("MS").mean().dropna(how="all")
    expected = monthly.pct_change(fill_method=None)
    assert [r["fecha"] for r in got] == [d.strftime("%Y-%m-%d") for d in monthly.index]
    for column in ("compra", "venta"):
        close([r[column] for r in got], list(expected[column]))
    assert list(got[0]) == ["casa", "compra", "venta", "fecha"]  # the keys and their order stay


async def test_year_on_year_of_a_daily_series_with_desde_has_its_reference(ds):
    got = (await get(ds, "/v1/finanzas/indices/uva?variacion=interanual&desde=2024-03-01")).json()
    df = frame(mirror_file("/v1/finanzas/indices/uva")).sort_values("fecha")
    target = df.assign(ref_day=df["fecha"] - pd.DateOffset(years=1))
    refs = pd.merge_asof(
        target.sort_values("ref_day"), df.rename(columns={"fecha": "ref_day", "valor": "ref"}), on="ref_day"
    ).sort_values("fecha")
    refs = refs[refs["fecha"] >= "2024-03-01"]
    expected = refs["valor"] / refs["ref"] - 1
    assert got[0]["fecha"] == "2024-03-01" and got[0]["valor"] is not None
    close([r["valor"] for r in got], list(expected))


async def test_year_to_date_with_desde_and_hasta(ds):
    url = "/v1/finanzas/indices/riesgo-pais?variacion=acumulada&desde=2024-02-01&hasta=2024-06-30"
    got = (await get(ds, url)).json()
    df = frame(mirror_file("/v1/finanzas/indices/riesgo-pais")).sort_values("fecha", kind="stable")
    last_2023 = df[df["fecha"].dt.year == 2023]["valor"].iloc[-1]
    part = df[(df["fecha"] >= "2024-02-01") & (df["fecha"] <= "2024-06-30")]
    assert [r["fecha"] for r in got] == [d.strftime("%Y-%m-%d") for d in part["fecha"]]
    close([r["valor"] for r in got], list(part["valor"] / last_2023 - 1))


async def test_absolute_change_on_a_route_with_several_series(ds):
    got = (await get(ds, "/v1/cotizaciones/dolares?variacion=absoluta&desde=2025-01-01")).json()
    records = mirror_file("/v1/cotizaciones/dolares")
    df = frame(records)
    df["orden"] = range(len(df))
    df = df.sort_values(["fecha", "orden"], kind="stable")
    for column in ("compra", "venta"):
        df[column + "_d"] = df.groupby("casa")[column].diff()
    df = df.sort_values("orden")
    part = df[df["fecha"] >= "2025-01-01"]
    assert [(r["casa"], r["fecha"]) for r in got] == list(zip(part["casa"], part["fecha"].dt.strftime("%Y-%m-%d")))
    for column in ("compra", "venta"):
        close([r[column] for r in got], list(part[column + "_d"]))


def cpi(db_path) -> dict[str, float]:
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
        return dict(conn.execute("SELECT mes, valor FROM ipc WHERE valor IS NOT NULL"))


@pytest.mark.parametrize("base", [None, "2020-01"])
async def test_real_terms_are_pesos_of_the_base_month(ds, db_path, base):
    levels = cpi(db_path)
    url = "/v1/finanzas/indices/uva?ajustar=ipc&desde=2023-01-01" + (f"&base={base}" if base else "")
    got = (await get(ds, url)).json()
    last = max(levels)
    base_level = levels[base or last]
    nominal = [r for r in mirror_file("/v1/finanzas/indices/uva") if r["fecha"] >= "2023-01-01"]
    expected = [r["valor"] * base_level / levels[min(r["fecha"][:7], last)] for r in nominal]
    close([r["valor"] for r in got], expected)


async def test_real_terms_and_year_on_year_together_and_as_csv(ds, db_path):
    url = "/v1/cotizaciones/dolares/blue?ajustar=ipc&agrupar=mes&variacion=interanual"
    got = (await get(ds, url)).json()
    levels = cpi(db_path)
    last = max(levels)
    df = frame(mirror_file("/v1/cotizaciones/dolares/blue")).set_index("fecha")
    factor = df.index.strftime("%Y-%m").map(lambda m: levels[last] / levels[min(m, last)] if m >= min(levels) else None)
    real = df[["venta"]].mul(np.asarray(factor, dtype=float), axis=0).resample("MS").mean().dropna()
    expected = real["venta"] / real["venta"].shift(12) - 1
    close([r["venta"] for r in got], list(expected))
    text = (await get(ds, url + "&formato=csv")).text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["fecha"] for r in rows] == [r["fecha"] for r in got]
    assert [float(r["venta"]) if r["venta"] else None for r in rows] == [r["venta"] for r in got]


async def test_cached_apart_and_without_them_the_plain_answer(ds):
    plain = await get(ds, "/v1/finanzas/indices/uva")
    assert plain.content == (UPSTREAM / "v1/finanzas/indices/uva/index.json").read_bytes()
    changed = await get(ds, "/v1/finanzas/indices/uva?variacion=relativa")
    assert changed.content != plain.content
    assert (await get(ds, "/v1/finanzas/indices/uva?variacion=relativa&otro=1")).content == changed.content


def test_29_february_looks_at_28_february_a_year_before():
    records = [
        {"fecha": "2023-02-27", "v": 100.0},
        {"fecha": "2023-02-28", "v": 110.0},
        {"fecha": "2024-02-29", "v": 121.0},
    ]
    out = variaciones.changes(records, "interanual", consulta.series_of, {"v"})
    assert out[2]["v"] == pytest.approx(0.1) and out[0]["v"] is None


def test_a_relative_change_from_zero_or_null_is_null():
    records = [{"fecha": "2024-01-01", "v": 0}, {"fecha": "2024-01-02", "v": 5}, {"fecha": "2024-01-03", "v": None}]
    out = variaciones.changes(records, "relativa", consulta.series_of, {"v"})
    assert [r["v"] for r in out] == [None, None, None]
    out = variaciones.changes(records, "absoluta", consulta.series_of, {"v"})
    assert [r["v"] for r in out] == [None, 5, None]
