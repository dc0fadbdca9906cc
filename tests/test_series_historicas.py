"""Series the catalogue declares over the history of snapshot routes and over child tables (issue 43): a CER
bond's numbers on each day a build read its route, a bank's UVA rate by term range, a wallet's yield by currency
on the record's own dates; and the CSV of /v1/series/datos headed by what its numbers are.  On small files
written here."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from ayudas import write_file

from argentina_datos.construccion import cli
from argentina_datos.respuestas.catalogo_series import TODAY_VARIABLE
from argentina_datos.web.servidor import datasette_for

BONOS = "v1/finanzas/bonos-cer"
UVA = "v1/finanzas/tasas/plazoFijoUvaPagoPeriodico"
RENDIMIENTOS = "v1/finanzas/rendimientos"


def bonds(day: str, price: float) -> dict:
    return {
        "fechaActualizacion": f"{day}T20:00:00.000Z",
        "bonos": [
            {"ticker": "TZXO6", "precioArs": price, "tirPorcentaje": 2, "fechaVencimiento": "2026-10-30", "volumen": 9},
            {"ticker": "TX26", "precioArs": 753.1, "tirPorcentaje": 4.67, "fechaVencimiento": "2026-11-09"},
        ],
    }


UVA_TASAS = [
    {"nombre": "PF UVA", "plazoMinDias": 90, "plazoMaxDias": 119, "tna": 0.0025, "tea": 0.0026},
    {"nombre": "PF UVA", "plazoMinDias": 120, "plazoMaxDias": 179, "tna": 0.005, "tea": 0.0051},
]
UVA_FILE = [{"id": "bna", "entidad": "Banco de la Nación Argentina", "logo": "https://x/l.png", "tasas": UVA_TASAS}]
# Two days of the wallets' yields: ARS keeps its old date (the platform stopped updating it), USDT is updated and,
# on the second day, listed twice (the last one is the day's).
YIELDS = {
    "2025-03-08": [
        {"moneda": "USDT", "apy": 5, "fecha": "2025-03-08"},
        {"moneda": "ARS", "apy": 30, "fecha": "2025-03-01"},
    ],
    "2025-03-09": [
        {"moneda": "USDT", "apy": 5.5, "fecha": "2025-03-09"},
        {"moneda": "ARS", "apy": 30, "fecha": "2025-03-01"},
        {"moneda": "USDT", "apy": 6, "fecha": "2025-03-09"},
    ],
}
TZXO6 = "bonos_cer_historico.TZXO6.precioArs"
UVA_90 = "plazo_fijo_uva_pago_periodico_historico_tasas.banco-de-la-nacion-argentina.90.119.tna"
USDT = "rendimientos_historico_monedas.belo.USDT.apy"
ARS = "rendimientos_historico_monedas.belo.ARS.apy"


@pytest.fixture
def fuente(tmp_path) -> Path:
    root = tmp_path / "upstream"
    write_file(root, BONOS, bonds("2025-03-10", 170.5))
    write_file(root, UVA, UVA_FILE)
    write_file(root, RENDIMIENTOS, [{"entidad": "belo", "rendimientos": YIELDS["2025-03-09"]}])
    for day, records in YIELDS.items():
        path = tmp_path / "upstream-history" / RENDIMIENTOS / f"{day}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps([{"entidad": "belo", "rendimientos": records}]))
    return root


def build(root: Path, out: Path, today: str, monkeypatch) -> None:
    monkeypatch.setenv(TODAY_VARIABLE, today)
    assert cli.main(["--source", str(root), "--output", str(out)]) in (0, 3)


async def get(ds, url: str):
    response = await ds.client.get(url)
    assert response.status_code == 200, response.text[:300]
    return response


async def catalogue(ds, query: str = "") -> dict[str, dict]:
    return {s["id"]: s for s in (await get(ds, f"/v1/series?limite=1000{query}")).json()}


async def values(ds, series_id: str) -> list[tuple[str, float]]:
    rows = (await get(ds, f"/v1/series/datos?ids={series_id}")).json()["datos"]
    return [(r["fecha"], r[series_id]) for r in rows]


async def test_a_bonds_snapshot_is_a_series_of_each_number_that_each_build_extends(fuente, tmp_path, monkeypatch):
    out = tmp_path / "a.db"
    build(fuente, out, "2025-03-10", monkeypatch)
    found = await catalogue(datasette_for(out), "&tema=bonos")
    numbers = {f"bonos_cer_historico.{t}.{m}" for t in ("TZXO6", "TX26") for m in ("precioArs", "tirPorcentaje")}
    assert set(found) == numbers | {"bonos_cer_historico.TZXO6.volumen"}  # TX26 carries no volume
    tzx = found[TZXO6]
    assert (tzx["desde"], tzx["hasta"], tzx["observaciones"]) == ("2025-03-10", "2025-03-10", 1)
    assert (
        tzx["titulo"] == "Bono CER, TZXO6: precio"
        and tzx["ruta"] == "/" + BONOS
        and tzx["filtro"] == {"ticker": "TZXO6"}
    )
    assert found["bonos_cer_historico.TX26.tirPorcentaje"]["tipo"] == "tasa_anual" and tzx["tipo"] == "nivel"
    assert await values(datasette_for(out), TZXO6) == [("2025-03-10", 170.5)]

    # The next day upstream overwrites its file: the next build adds that day to the series, the first stays.
    write_file(fuente, BONOS, bonds("2025-03-11", 171.25))
    build(fuente, out, "2025-03-11", monkeypatch)
    ds = datasette_for(out)
    assert await values(ds, TZXO6) == [("2025-03-10", 170.5), ("2025-03-11", 171.25)]
    assert (await catalogue(ds, "&ticker=TZXO6"))[TZXO6]["observaciones"] == 2
    # the wallets' series, of tables that did not change, are what they were (their spans kept, not lost)
    kept = await catalogue(ds, "&entidad=belo")
    assert (kept[USDT]["desde"], kept[USDT]["hasta"], kept[USDT]["observaciones"]) == ("2025-03-08", "2025-03-09", 2)
    # Already the history of what was published: a past version of it is a 400 that says so, not an empty list.
    response = await ds.client.get(f"/v1/series/datos?ids={TZXO6}&publicado=2025-03-10")
    assert response.status_code == 400 and response.json()["parametro"] == "publicado"
    assert "historia de /v1/finanzas/bonos-cer" in response.json()["mensaje"]


async def test_a_child_tables_measure_is_a_series_per_parent_and_child_names(fuente, tmp_path, monkeypatch):
    out = tmp_path / "a.db"
    build(fuente, out, "2025-03-10", monkeypatch)
    ds = datasette_for(out)
    uva = await catalogue(ds, "&tema=tasas")
    prefix = "plazo_fijo_uva_pago_periodico_historico_tasas.banco-de-la-nacion-argentina."
    assert {i.removeprefix(prefix) for i in uva if i.startswith(prefix)} == {
        f"{t['plazoMinDias']}.{t['plazoMaxDias']}.{m}" for t in UVA_TASAS for m in ("tna", "tea")
    }
    entry = uva[UVA_90]
    assert entry["titulo"] == (
        "Plazo fijo UVA con pago periódico, Banco de la Nación Argentina, plazo mínimo 90 días, plazo máximo 119 "
        "días: tasa nominal anual"
    )
    assert entry["tabla"] == "plazo_fijo_uva_pago_periodico_historico_tasas" and entry["columna"] == "tna"
    assert entry["filtro"] == {"entidad": "Banco de la Nación Argentina", "plazoMinDias": 90, "plazoMaxDias": 119}
    assert [v for _, v in await values(ds, UVA_90)] == [0.0025]
    # the child's naming fields filter the catalogue too
    assert set(await catalogue(ds, "&plazoMinDias=90")) == {UVA_90, UVA_90.replace(".tna", ".tea")}
    assert [v for _, v in await values(ds, UVA_90.replace(".tna", ".tea").replace("90.119", "120.179"))] == [0.0051]

    # The wallets' yields by currency, on each record's own date: a date repeated in later versions is one
    # observation (the last published), and a currency listed twice in a day is the last one.
    wallets = await catalogue(ds, "&entidad=belo")
    assert {USDT, ARS} <= set(wallets) and wallets[USDT]["tema"] == "billeteras"
    assert wallets[USDT]["titulo"] == "Rendimiento de plataforma o billetera, belo, USDT: rendimiento anual"
    assert await values(ds, USDT) == [("2025-03-08", 5), ("2025-03-09", 6)]
    assert await values(ds, ARS) == [("2025-03-01", 30)] and wallets[ARS]["observaciones"] == 1
    assert (await catalogue(ds, "&moneda=usdt")).keys() >= {USDT}


async def test_the_csv_of_aligned_series_is_headed_by_title_unit_and_id(fuente, tmp_path, monkeypatch):
    out = tmp_path / "a.db"
    build(fuente, out, "2025-03-10", monkeypatch)
    ds = datasette_for(out)
    url = f"/v1/series/datos?ids={TZXO6},{USDT},{USDT}:absoluta&marcar=calidad"
    rows = list(csv.reader(io.StringIO((await get(ds, url + "&formato=csv")).text)))
    assert rows[0] == [
        "fecha",
        f"Bono CER, TZXO6: precio (pesos por cada 100 de valor nominal) [{TZXO6}]",
        f"Rendimiento de plataforma o billetera, belo, USDT: rendimiento anual (porcentaje (2.1 = 2,1 %)) [{USDT}]",
        # an id:variacion column says its change (absolute: in the series' own unit)
        "Rendimiento de plataforma o billetera, belo, USDT: rendimiento anual, variación absoluta (porcentaje (2.1 = "
        f"2,1 %)) [{USDT}:absoluta]",
        f"calidad [{TZXO6}:calidad]",
        f"calidad [{USDT}:calidad]",
        f"calidad [{USDT}:absoluta:calidad]",
    ]
    # The JSON keeps its keys, the ids asked for; the CSV's rows are the same values, column by column.
    data = (await get(ds, url)).json()["datos"]
    keys = ["fecha", TZXO6, USDT, f"{USDT}:absoluta", f"{TZXO6}:calidad", f"{USDT}:calidad", f"{USDT}:absoluta:calidad"]
    assert list(data[0]) == keys
    assert rows[1:] == [[cell(r[k]) for k in keys] for r in data]


def cell(value) -> str:
    """A value as the CSV writes it: null empty, text as it is, numbers as in JSON."""
    return "" if value is None else value if isinstance(value, str) else json.dumps(value)
