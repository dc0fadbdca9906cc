"""build-db's exit status and summary, the builds it keeps (ARCHIVO.anterior), --restaurar, and a
previous output that cannot be read (construccion/cli.py, construccion/respaldo.py)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sqlite3

import pytest
import sqlite_utils
from ayudas import UVA_DIAS, write_file

from argentina_datos.almacen import propias
from argentina_datos.construccion import cli, historia
from argentina_datos.construccion.fuentes import PreviousBuild, PreviousUnreadable, SourceError
from argentina_datos.web import recarga
from argentina_datos.web.servidor import datasette_for

UVA = "v1/finanzas/indices/uva"
FERIADOS = "v1/feriados/2025"
UVA_ROWS = UVA_DIAS
FERIADOS_ROWS = [{"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}]


@pytest.fixture
def fuente(tmp_path):
    root = tmp_path / "fuente"
    write_file(root, UVA, UVA_ROWS)
    write_file(root, FERIADOS, FERIADOS_ROWS)
    return root


@pytest.fixture
def salida(tmp_path):
    return tmp_path / "salida" / "argentina.db"


def build(fuente, salida, *extra) -> int:
    return cli.main(["--source", str(fuente), "--output", str(salida), *map(str, extra)])


def sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def summary(salida) -> dict:
    return json.loads((salida.parent / (salida.name + ".resumen.json")).read_text())


def rows(db, table) -> int:
    with sqlite3.connect(db) as con:
        return con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]


def test_exit_status_and_summary_of_each_outcome(fuente, salida, capsys):
    assert build(fuente, salida) == 0
    s = summary(salida)
    assert s["resultado"] == "completa" and s["codigo"] == 0 and s["reemplazada"] and s["omitidos"] == []
    assert s["fuente"] == str(fuente) and s["filas"] == 3 and s["anterior"] is None and s["version"]

    assert build(fuente, salida) == 0
    assert summary(salida)["resultado"] == "sin cambios" and not summary(salida)["reemplazada"]

    # one unreadable file with --keep-going: replaced, that dataset's rows kept, exit 3
    before = sha(salida)
    bad = write_file(fuente, UVA, "<html>")
    assert build(fuente, salida, "--keep-going") == 3
    assert rows(salida, "uva") == 2  # yesterday's rows
    kept = salida.parent / "argentina.db.anterior"
    assert sha(kept) == before
    s = summary(salida)
    assert s["resultado"] == "parcial" and s["codigo"] == 3 and s["anterior"] == str(kept)
    assert [o["tabla"] for o in s["omitidos"]] == ["uva"] and str(bad) in s["omitidos"][0]["archivo"]

    # without --keep-going: nothing replaced, exit 1, said in the summary too
    now = sha(salida)
    assert build(fuente, salida, "--force") == 1
    assert sha(salida) == now
    s = summary(salida)
    assert s["resultado"] == "fallida" and s["codigo"] == 1 and not s["reemplazada"] and "no es JSON" in s["error"]
    capsys.readouterr()


def test_help_names_the_exit_codes_and_the_summary(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    text = capsys.readouterr().out
    assert "código de salida" in text
    assert "  3  se reemplazó la base, pero se omitieron archivos" in text
    assert "  1  no se reemplazó nada" in text and "ARCHIVO.resumen.json" in text
    assert "--restaurar" in text and "--conservar" in text and "--sin-anterior" in text


def test_generations_kept_and_restored_byte_for_byte(fuente, salida, capsys):
    shas = []
    for n in range(4):
        write_file(fuente, UVA, UVA_ROWS[: 1 + n % 2] + [{"fecha": f"2017-01-0{n + 1}", "valor": 20.0 + n}])
        assert build(fuente, salida, "--conservar", 2) == 0
        shas.append(sha(salida))
    names = sorted(p.name for p in salida.parent.iterdir() if "anterior" in p.name)
    assert names == ["argentina.db.anterior", "argentina.db.anterior.2"]
    assert sha(salida.parent / "argentina.db.anterior") == shas[2]
    assert sha(salida.parent / "argentina.db.anterior.2") == shas[1]

    assert cli.main(["--restaurar", str(salida)]) == 0
    assert sha(salida) == shas[2]
    assert sha(salida.parent / "argentina.db.descartado") == shas[3]
    assert sha(salida.parent / "argentina.db.anterior") == shas[1]  # one more step back is there
    assert not (salida.parent / "argentina.db.anterior.2").exists()
    assert cli.main(["--restaurar", str(salida)]) == 0
    assert sha(salida) == shas[1]
    assert cli.main(["--restaurar", str(salida)]) == 1  # nothing left to restore
    assert sha(salida) == shas[1]
    err = capsys.readouterr().err
    # the error names the ways out: the build the last restore set aside, and a build from scratch
    assert f"no hay {salida}.anterior para restaurar" in err
    assert f"mv {salida}.descartado {salida}" in err and "build-db --sin-anterior" in err

    assert build(fuente, salida, "--force", "--conservar", 0) == 0
    assert not (salida.parent / "argentina.db.anterior").exists()


async def test_a_running_server_switches_to_the_restored_build(fuente, salida, monkeypatch, capsys):
    monkeypatch.setattr(recarga, "CHECK_EVERY", 0.0)
    assert build(fuente, salida) == 0
    ds = datasette_for(salida)
    assert (await ds.client.get("/" + UVA)).json() == UVA_ROWS
    write_file(fuente, UVA, UVA_ROWS[:1])
    assert build(fuente, salida) == 0
    assert (await ds.client.get("/" + UVA)).json() == UVA_ROWS[:1]
    assert cli.main(["--restaurar", str(salida)]) == 0
    assert (await ds.client.get("/" + UVA)).json() == UVA_ROWS


def test_a_truncated_previous_output_stops_the_build_and_stays(fuente, salida, capsys):
    assert build(fuente, salida) == 0
    data = salida.read_bytes()
    salida.write_bytes(data[: len(data) // 2])
    cut = sha(salida)
    capsys.readouterr()

    assert build(fuente, salida, "--force", "--keep-going") == 1
    err = capsys.readouterr().err
    assert f"error: no se puede leer la base anterior {salida}: está cortado" in err and "--sin-anterior" in err
    assert "--restaurar" not in err  # there is no ARCHIVO.anterior to put back: not offered
    assert sha(salida) == cut
    assert not (salida.parent / "argentina.db.anterior").exists()
    assert summary(salida)["resultado"] == "fallida" and str(salida) in summary(salida)["error"]

    assert build(fuente, salida, "--sin-anterior") == 0
    err = capsys.readouterr().err
    assert f"se construye de cero sin leer {salida}; se pierde" in err and "versiones acumuladas" in err
    assert rows(salida, "uva") == 2
    assert sha(salida.parent / "argentina.db.anterior") == cut  # the unreadable one is not thrown away


def test_the_previous_builds_readers_refuse_an_unreadable_file(tmp_path):
    broken = tmp_path / "rota.db"
    with sqlite3.connect(broken) as con:
        con.execute("CREATE TABLE x (a)")
    con.close()
    broken.write_bytes(broken.read_bytes()[:100] + b"\xff" * 4000)
    with pytest.raises(SourceError, match="la base anterior no se puede leer"):
        PreviousBuild(broken)
    db = sqlite3.connect(":memory:", isolation_level=None)
    store = historia.History(db, dt.date(2026, 3, 10))
    store.create(sqlite_utils.Database(db))
    # a store it has but cannot give whole: the build stops, and nothing of it is left half copied
    odd = tmp_path / "rara.db"
    lite = sqlite_utils.Database(odd)
    lite["fuentes"].create({"id": int, "ruta": str, "tabla": str, "sha256": str}, pk="id")
    propias.VERSIONES.create(lite)
    lite["versiones"].insert({"id": 1, **{f.name: "x" for f in propias.VERSIONES.fields()}})
    lite["versiones_registros"].create({"id": int}, pk="id")
    lite.close()
    with pytest.raises(PreviousUnreadable, match=f"{odd}: no se pueden leer las versiones"):
        store.carry(PreviousBuild(odd))
    assert db.execute("SELECT count(*) FROM versiones").fetchone()[0] == 0
    # a previous build that merely lacks the versions store: nothing to carry, no error
    fine = tmp_path / "vieja.db"
    with sqlite3.connect(fine) as con:
        con.execute("CREATE TABLE fuentes (id INTEGER PRIMARY KEY, ruta, tabla, sha256)")
    con.close()
    assert store.carry(PreviousBuild(fine)) is None
