"""Freshness: each dataset's newest date against its cadence, in the build's last lines, ARCHIVO.resumen.json,
/-/salud.json and --fallar-si-atrasada's exit code (respuestas/frescura.py); and a stale git source that the
public API outruns (construccion/fuente_fresca.py)."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3

import pytest
from ayudas import DOLARES_DIAS, write_file
from servidor_local import LocalServer
from test_repositorio import commit

from argentina_datos.construccion import cli
from argentina_datos.respuestas import frescura
from argentina_datos.respuestas.catalogo_series import TODAY_VARIABLE
from argentina_datos.web.servidor import datasette_for

DOLARES = "v1/cotizaciones/dolares"
RIESGO = "v1/finanzas/indices/riesgo-pais"
RIESGO_DIAS = [{"valor": 620, "fecha": "2025-01-02"}, {"valor": 615, "fecha": "2025-01-03"}]
LAST = "2025-01-03"  # the newest date of both


@pytest.fixture
def fuente(tmp_path):
    root = tmp_path / "fuente"
    write_file(root, DOLARES, DOLARES_DIAS)
    write_file(root, RIESGO, RIESGO_DIAS)
    return root


def run(capsys, *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    return code, capsys.readouterr().err


def summary(out) -> dict:
    return json.loads(out.with_name(out.name + cli.SUMMARY_SUFFIX).read_text())


async def test_late_main_data_is_said_by_the_build_its_summary_and_the_health_check(
    fuente, tmp_path, capsys, monkeypatch
):
    out = tmp_path / "a.db"
    monkeypatch.setenv(TODAY_VARIABLE, "2025-01-06")  # 3 days after the last quote: on time (5 allowed)
    code, err = run(capsys, "--source", str(fuente), "--output", str(out), "--fallar-si-atrasada")
    assert code == 0, err
    assert f"cotizaciones_dolares: último dato del {LAST}, hace 3 días (al día" in err
    assert summary(out)["frescura"]["atrasada"] is False
    ds = datasette_for(out)
    r = await ds.client.get("/-/salud.json")
    assert r.status_code == 200 and r.json()["estado"] == "ok"
    assert {d["conjunto"]: d["atrasado"] for d in r.json()["datos"]["conjuntos"]} == {
        "cotizaciones_dolares": False,
        "riesgo_pais": False,
    }

    # Weeks later the source has nothing new: build-db says so and exits 0; the daily job's flag makes it 4.
    monkeypatch.setenv(TODAY_VARIABLE, "2025-02-01")
    code, err = run(capsys, "--source", str(fuente), "--output", str(out))
    assert code == 0 and "ya está al día" in err, err
    assert f"cotizaciones_dolares: último dato del {LAST}, hace 29 días (ATRASADO" in err
    assert "AVISO: los datos principales están atrasados (cotizaciones_dolares, riesgo_pais)" in err
    late = summary(out)
    assert late["codigo"] == 0 and late["frescura"]["atrasada"] is True and late["frescura"]["hoy"] == "2025-02-01"
    code, err = run(capsys, "--source", str(fuente), "--output", str(out), "--fallar-si-atrasada")
    assert code == cli.EXIT_LATE == 4 and summary(out)["codigo"] == 4, err

    # The server measures against its own today, not the build's: a monitor sees the data age.
    r = await ds.client.get("/-/salud.json")
    assert r.status_code == 503 and r.json()["estado"] == "atrasada"
    dollars = next(d for d in r.json()["datos"]["conjuntos"] if d["conjunto"] == "cotizaciones_dolares")
    assert dollars == {
        "conjunto": "cotizaciones_dolares",
        "titulo": "Cotizaciones del dólar",
        "hasta": LAST,
        "cadenciaDias": 5,
        "diasSinDatos": 29,
        "atrasado": True,
        "principal": True,
    }


def test_a_late_dataset_that_is_not_a_main_one_is_listed_but_fails_nothing(tmp_path, capsys, monkeypatch):
    root = tmp_path / "fuente"
    write_file(root, DOLARES, DOLARES_DIAS)
    write_file(root, "v1/politica/indices/confianza-gobierno", [{"fecha": "2024-06-01", "valor": 2.1}])
    monkeypatch.setenv(TODAY_VARIABLE, "2025-01-06")
    code, err = run(capsys, "--source", str(root), "--output", str(tmp_path / "a.db"), "--fallar-si-atrasada")
    assert code == 0, err
    assert "otros 1 conjuntos atrasados: confianza_gobierno (2024-06-01)" in err and "AVISO" not in err


def test_the_mirror_database_knows_each_datasets_newest_date(conn):
    """On the test database (the mirror): the dollar's newest date is its table's, and it is late the day its
    cadence is past, whatever date the mirror has reached."""
    newest = conn.execute("SELECT max(fecha) FROM cotizaciones_dolares").fetchone()[0][:10]
    day = dt.date.fromisoformat(newest)

    def dollars(on):
        return next(d for d in frescura.by_dataset(conn, on) if d.conjunto == "cotizaciones_dolares")

    assert dollars(day).hasta == newest and not dollars(day).atrasado and dollars(day).principal
    assert dollars(day + dt.timedelta(days=6)).atrasado
    assert frescura.report(frescura.by_dataset(conn, day + dt.timedelta(days=400)), day)["atrasada"] is True


@pytest.mark.lento
def test_a_stale_git_source_gives_way_to_a_fresher_api(tmp_path, capsys, monkeypatch):
    repo, api_root = tmp_path / "upstream", tmp_path / "api"
    commit(repo, {DOLARES: DOLARES_DIAS, RIESGO: RIESGO_DIAS}, "hasta el 3 de enero")
    fresher = RIESGO_DIAS + [{"valor": 600, "fecha": "2025-01-20"}]
    write_file(
        api_root, DOLARES, DOLARES_DIAS + [{"casa": "blue", "compra": 1100, "venta": 1120, "fecha": "2025-01-20"}]
    )
    write_file(api_root, RIESGO, fresher)
    write_file(api_root, RIESGO + "/ultimo", fresher[-1])
    monkeypatch.setenv(TODAY_VARIABLE, "2025-01-21")
    out, cache = tmp_path / "a.db", tmp_path / "cache"
    common = ("--source", f"git+file://{repo}", "--output", str(out), "--git-cache", str(cache))
    with LocalServer(api_root) as srv:
        code, err = run(capsys, *common, "--sin-comparar-api", "--api", srv.url)
        assert code == 0, err
        assert srv.requested[f"/{RIESGO}/ultimo"] == 0 and "esta construcción lee la API" not in err

        http = ("--api", srv.url, "--fci-desde", "2025-01-20", "--retries", "1")
        code, err = run(capsys, *common, *http)
    assert code == 0, err
    assert srv.requested[f"/{RIESGO}/ultimo"] == 1
    line = f"la fuente git git+file://{repo} está atrasada (riesgo país: último dato del 2025-01-03, al 2025-01-21)"
    assert line in err and f"la API {srv.url} tiene datos más nuevos (2025-01-20): esta construcción lee la API" in err
    assert "\nHTTP: " in err and "\ngit: commit" not in err  # what the build read, said as for any HTTP build
    said = summary(out)
    assert said["fuenteUsada"] == srv.url and "esta construcción lee la API" in said["cambioDeFuente"]
    with sqlite3.connect(out) as con:
        assert con.execute("SELECT max(fecha) FROM riesgo_pais").fetchone()[0] == "2025-01-20"
        assert con.execute("SELECT valor FROM _construccion WHERE clave = 'fuente'").fetchone()[0] == srv.url
    con.close()
    assert said["frescura"]["atrasada"] is False


def test_a_stale_git_source_stays_when_the_api_cannot_be_asked(tmp_path, capsys, monkeypatch):
    repo = tmp_path / "upstream"
    commit(repo, {DOLARES: DOLARES_DIAS, RIESGO: RIESGO_DIAS}, "hasta el 3 de enero")
    monkeypatch.setenv(TODAY_VARIABLE, "2025-01-21")
    out = tmp_path / "a.db"
    code, err = run(
        capsys,
        *("--source", f"git+file://{repo}", "--output", str(out), "--git-cache", str(tmp_path / "cache")),
        *("--api", "http://127.0.0.1:9", "--timeout", "2"),
    )
    assert code == 0, err
    assert "no se pudo comparar con la API http://127.0.0.1:9" in err and "cambioDeFuente" not in summary(out)


async def test_the_mirror_database_answers_its_health_late_once_its_cadence_is_past(ds, conn, monkeypatch):
    newest = dt.date.fromisoformat(conn.execute("SELECT max(fecha) FROM cotizaciones_dolares").fetchone()[0][:10])
    monkeypatch.setenv(TODAY_VARIABLE, (newest + dt.timedelta(days=30)).isoformat())
    r = await ds.client.get("/-/salud.json")
    assert r.status_code == 503 and r.json()["estado"] == "atrasada"
    late = {d["conjunto"] for d in r.json()["datos"]["conjuntos"] if d["atrasado"] and d["principal"]}
    assert "cotizaciones_dolares" in late


async def test_one_clock_for_findings_freshness_and_answers(fuente, tmp_path, capsys, monkeypatch):
    # A build on a day its data is on time: no «serie atrasada» nor «serie detenida» counted from the wall clock
    # (it is months later), the same answer in its last lines, /v1/series and /-/salud.json.
    monkeypatch.setenv(TODAY_VARIABLE, "2025-01-06")
    out = tmp_path / "a.db"
    code, err = run(capsys, "--source", str(fuente), "--output", str(out))
    assert code == 0, err
    with sqlite3.connect(out) as con:
        assert (
            con.execute("SELECT control FROM calidad WHERE control IN ('serie atrasada', 'serie detenida')").fetchall()
            == []
        )
    assert "(ATRASADO" not in err and summary(out)["frescura"]["hoy"] == "2025-01-06"
    ds = datasette_for(out)
    series = (await ds.client.get("/v1/series")).json()
    assert series and all(s["atrasada"] is False and not s["calidad"] for s in series), series
    assert (await ds.client.get("/-/salud.json")).json()["estado"] == "ok"
    # The next day's clock is the variable's, in the findings too.
    monkeypatch.setenv(TODAY_VARIABLE, "2025-02-01")
    code, err = run(capsys, "--source", str(fuente), "--output", str(out), "--sin-anterior")
    with sqlite3.connect(out) as con:
        late = con.execute("SELECT detalle FROM calidad WHERE control = 'serie atrasada'").fetchall()
    assert late and all("(2025-02-01)" in d for (d,) in late), late


@pytest.mark.mirror
async def test_on_the_day_after_the_mirror_s_last_quote_no_main_dataset_is_late(conn, ds, monkeypatch):
    from argentina_datos.catalogo.series import ESSENTIAL
    from argentina_datos.construccion.constructor import Builder
    from argentina_datos.respuestas.catalogo_series import entries, today

    monkeypatch.setenv(TODAY_VARIABLE, "2026-02-22")
    assert Builder(None, "/nonexistent/a.db").today == today() == dt.date(2026, 2, 22)  # type: ignore[arg-type]
    assert frescura.late_essentials(frescura.by_dataset(conn, today())) == []
    late = {e.tabla for e in entries(conn, today()) if e.atrasada and e.tabla in ESSENTIAL}
    # the solidario dollar, abolished in December 2023, is a late series of a dataset that is on time
    assert late <= {"cotizaciones_dolares"}
    body = (await ds.client.get("/-/salud.json")).json()
    assert body["fuenteAtrasada"] is False and body["datos"]["hoy"] == "2026-02-22"
    assert not [d for d in body["datos"]["conjuntos"] if d["principal"] and d["atrasado"]]
    for id_, q in (
        ("inflacion", "inflación"),
        ("uva", "uva"),
        ("riesgo_pais", "riesgo país"),
        ("cotizaciones_dolares.blue.venta", "blue venta"),
    ):
        found = [s for s in (await ds.client.get(f"/v1/series?q={q}")).json() if s["id"] == id_]
        assert found and found[0]["atrasada"] is False, (id_, found)
