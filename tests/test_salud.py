"""/-/salud.json: the served build, the last update's result, 503 past --edad-maxima
(web/complementos/salud.py)."""

from __future__ import annotations

import datetime as dt

from ayudas import write_file

from argentina_datos import __version__
from argentina_datos.construccion import cli
from argentina_datos.web import recarga
from argentina_datos.web.complementos import salud
from argentina_datos.web.servidor import datasette_for

UVA = "v1/finanzas/indices/uva"
ROWS = [{"fecha": "2016-03-31", "valor": 14.05}]


async def test_health_answers_the_build_and_the_last_update(tmp_path, monkeypatch):
    monkeypatch.setattr(recarga, "CHECK_EVERY", 0.0)
    monkeypatch.delenv(salud.MAX_AGE_ENV, raising=False)
    monkeypatch.setenv("ARGENTINA_DATOS_HOY", "2016-04-01")  # the day after ROWS': on time (tests/test_frescura.py)
    fuente, out = tmp_path / "fuente", tmp_path / "argentina.db"
    write_file(fuente, UVA, ROWS)
    write_file(fuente, "v1/feriados/2025", [{"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}])
    assert cli.main(["--source", str(fuente), "--output", str(out)]) == 0
    ds = datasette_for(out)
    r = await ds.client.get("/-/salud.json")
    assert r.status_code == 200
    body = r.json()
    assert body["estado"] == "ok" and body["fuente"] == str(fuente) and body["version"] == __version__
    built = dt.datetime.fromisoformat(body["construida"].replace("Z", "+00:00"))
    assert abs((dt.datetime.now(dt.timezone.utc) - built).total_seconds()) < 120
    assert 0 <= body["edadHoras"] < 0.05
    assert body["ultimaActualizacion"]["resultado"] == "completa"

    bad = write_file(fuente, UVA, "<html>")
    assert cli.main(["--source", str(fuente), "--output", str(out), "--keep-going"]) == 3
    update = (await ds.client.get("/-/salud.json")).json()["ultimaActualizacion"]
    assert update["codigo"] == 3 and update["omitidos"][0]["tabla"] == "uva"
    assert str(bad) in update["omitidos"][0]["archivo"]

    monkeypatch.setenv(salud.MAX_AGE_ENV, "0")  # any age is too old
    r = await ds.client.get("/-/salud.json")
    assert r.status_code == 503 and r.json()["estado"] == "vieja"


def test_an_update_without_changes_vouches_for_the_build_it_kept():
    now = dt.datetime(2026, 3, 2, 12, tzinfo=dt.timezone.utc)
    build = {"construido": "2026-03-01T00:00:00Z", "fuente": "x"}
    status, body = salud.health(build, None, now, 24)
    assert status == 503 and body["edadHoras"] == 36.0
    checked = {"resultado": "sin cambios", "inicio": "2026-03-02T06:00:00+00:00"}
    status, body = salud.health(build, checked, now, 24)
    assert status == 200 and body["edadHoras"] == 6.0
    failed = {"resultado": "fallida", "inicio": "2026-03-02T06:00:00+00:00"}
    assert salud.health(build, failed, now, 24)[0] == 503  # a failed update vouches for nothing


async def test_health_tells_a_late_source_a_failed_update_a_broken_file_and_a_restore_apart(tmp_path, monkeypatch):
    monkeypatch.setattr(recarga, "CHECK_EVERY", 0.0)
    monkeypatch.delenv(salud.MAX_AGE_ENV, raising=False)
    monkeypatch.setenv("ARGENTINA_DATOS_HOY", "2016-04-01")
    fuente, out = tmp_path / "fuente", tmp_path / "argentina.db"
    write_file(fuente, UVA, ROWS)
    assert cli.main(["--source", str(fuente), "--output", str(out), "--conservar", "1"]) == 0
    ds = datasette_for(out)

    async def health() -> tuple[int, dict]:
        assert (await ds.client.get("/-/vivo")).status_code == 200  # whatever the data, while the server answers
        r = await ds.client.get("/-/salud.json")
        return r.status_code, r.json()

    status, body = await health()
    assert (status, body["estado"], body["fuenteAtrasada"], body["actualizacionFallida"]) == (200, "ok", False, None)
    assert body["archivo"] == {"ruta": str(out), "sirviendo": True, "problema": None} and body["restaurada"] is None

    # Upstream publishes nothing for months: the data is late, our update works.
    monkeypatch.setenv("ARGENTINA_DATOS_HOY", "2016-09-01")
    status, body = await health()
    assert (status, body["estado"], body["fuenteAtrasada"], body["actualizacionFallida"]) == (
        503,
        "atrasada",
        True,
        None,
    )
    assert "la fuente no publica datos nuevos de uva" in body["motivo"]

    # Our update fails (the source is gone): that, not the late data, is what the state says, with the error.
    assert cli.main(["--source", str(tmp_path / "no-esta"), "--output", str(out)]) != 0
    status, body = await health()
    assert (status, body["estado"], body["fuenteAtrasada"]) == (503, "fallida", True)
    assert "no-esta" in body["actualizacionFallida"]["error"] and "no-esta" in body["motivo"]

    # A good update, then build-db --restaurar puts the one before back: when, and from what.
    monkeypatch.setenv("ARGENTINA_DATOS_HOY", "2016-04-01")
    write_file(fuente, UVA, ROWS + [{"fecha": "2016-04-01", "valor": 14.1}])
    assert cli.main(["--source", str(fuente), "--output", str(out), "--conservar", "1"]) == 0
    assert (await health())[1]["estado"] == "ok"
    assert cli.main(["--restaurar", str(out)]) == 0
    status, body = await health()
    assert (status, body["estado"]) == (503, "restaurada")
    assert body["restaurada"]["desde"] == f"{out}.anterior" and body["restaurada"]["descartada"] == f"{out}.descartado"
    assert dt.datetime.fromisoformat(body["restaurada"]["cuando"]).date() == dt.datetime.now(dt.timezone.utc).date()

    # A cut copy renamed over the file: the server keeps the one it has, and says the file on disk is not it.
    cut = tmp_path / "cortada.db"
    cut.write_bytes(out.read_bytes()[:8192])
    cut.replace(out)
    status, body = await health()
    assert (status, body["estado"], body["archivo"]["sirviendo"]) == (503, "archivo", False)
    assert "cortado" in body["archivo"]["problema"] and "un reinicio fallaría" in body["motivo"]
    assert body["construida"]  # still served, from the file it had open
