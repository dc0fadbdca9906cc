"""scripts/update.sh and scripts/serve.sh as an operator runs them, with no package index and no
source reachable: they install only what changed, and serve the database there is.

Each test runs the real scripts in a checkout of their own (the scripts, pyproject.toml, the package
linked) whose .venv is this one's, linked, with its own install stamp."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from ayudas import write_file
from paths import REPO
from servidor_datos import free_port

from argentina_datos.construccion import cli

pytestmark = pytest.mark.lento

UVA = "v1/finanzas/indices/uva"
UVA_ROWS = [{"fecha": "2016-03-31", "valor": 14.05}]
# The day the scripts run on ($ARGENTINA_DATOS_HOY): the day after UVA_ROWS', so their data is on time.
ON_TIME = "2016-04-01"
STAMP = ".venv/argentina-datos.instalado"
# No package index at all: not the configured ones, not the local wheels; pip fails at once.
OFFLINE = {
    "PIP_INDEX_URL": "http://127.0.0.1:9/",
    "PIP_EXTRA_INDEX_URL": "",
    "PIP_FIND_LINKS": "",
    "PIP_CONFIG_FILE": os.devnull,
    "PIP_RETRIES": "0",
    "PIP_DEFAULT_TIMEOUT": "3",
}
UNREACHABLE = "http://127.0.0.1:9"


@pytest.fixture
def checkout(tmp_path) -> Path:
    co = tmp_path / "checkout"
    (co / "scripts").mkdir(parents=True)
    for name in ("instalar.sh", "update.sh", "serve.sh", "publicar.sh"):
        shutil.copy(REPO / "scripts" / name, co / "scripts" / name)
    shutil.copy(REPO / "pyproject.toml", co / "pyproject.toml")
    (co / "argentina_datos").symlink_to(REPO / "argentina_datos")
    venv = co / ".venv"
    venv.mkdir()
    shutil.copy(REPO / ".venv" / "pyvenv.cfg", venv / "pyvenv.cfg")
    for part in ("bin", "lib", "lib64", "include"):
        if (REPO / ".venv" / part).exists():
            (venv / part).symlink_to(REPO / ".venv" / part)
    return co


def installed_now(co: Path) -> None:
    (co / STAMP).write_text(hashlib.sha256((co / "pyproject.toml").read_bytes()).hexdigest() + "\n")


def env(**extra) -> dict:
    out = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    out.update(OFFLINE)
    out["ARGENTINA_DATOS_HOY"] = ON_TIME
    out.update(extra)
    return out


@pytest.fixture
def fuente(tmp_path) -> Path:
    write_file(tmp_path / "fuente", UVA, UVA_ROWS)
    return tmp_path / "fuente"


def run(co: Path, script: str, timeout=300, **extra) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(co / "scripts" / script)],
        env=env(**extra),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def test_update_with_no_package_index_updates(checkout, fuente):
    db = checkout / "argentina.db"
    installed_now(checkout)
    done = run(checkout, "update.sh", ARGENTINA_DATOS_SOURCE=str(fuente))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "pip" not in done.stderr and "aviso" not in done.stderr  # nothing installed: nothing asked
    assert json.loads((checkout / "argentina.db.resumen.json").read_text())["resultado"] == "completa"

    # pyproject.toml changed (a new version): the install is tried, fails with no index, and the update goes on
    (checkout / STAMP).write_text("otra\n")
    write_file(fuente, UVA, UVA_ROWS + [{"fecha": "2016-04-01", "valor": 14.06}])
    done = run(checkout, "update.sh", ARGENTINA_DATOS_SOURCE=str(fuente))
    assert done.returncode == 0, done.stderr[-3000:]
    assert "aviso: no se pudo instalar argentina-datos (¿sin acceso al índice de paquetes?)" in done.stderr
    assert (checkout / "argentina.db.anterior").exists()
    assert (checkout / STAMP).read_text() == "otra\n"  # still to be installed next time
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM uva").fetchone()[0] == 2
    con.close()


def test_update_reads_the_mirror_beside_the_checkout_as_serve_does(checkout, fuente):
    """One source rule for both scripts (instalar.sh, choose_source): without $ARGENTINA_DATOS_SOURCE, the mirror at
    ../shared/upstream, not the network (a new user's update.sh went to the network right after serve.sh)."""
    (checkout.parent / "shared").mkdir()
    (checkout.parent / "shared" / "upstream").symlink_to(fuente)
    installed_now(checkout)
    extra = env()
    extra.pop("ARGENTINA_DATOS_SOURCE", None)
    done = subprocess.run(
        ["bash", str(checkout / "scripts" / "update.sh")], env=extra, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    with sqlite3.connect(checkout / "argentina.db") as con:
        assert con.execute("SELECT count(*) FROM uva").fetchone()[0] == len(UVA_ROWS)
    con.close()


def test_serve_with_the_source_down_serves_the_database_there_is(checkout, fuente):
    installed_now(checkout)
    assert cli.main(["--source", str(fuente), "--output", str(checkout / "argentina.db")]) == 0
    port = free_port()
    err = checkout / "serve.err"
    with open(err, "w") as stderr:
        proc = subprocess.Popen(
            ["bash", str(checkout / "scripts" / "serve.sh")],
            env=env(ARGENTINA_DATOS_SOURCE=UNREACHABLE, PORT=str(port)),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        deadline, body = time.monotonic() + 180, None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/{UVA}", timeout=2) as r:
                    body = json.loads(r.read())
                break
            except OSError:
                time.sleep(0.5)
        log = err.read_text()
        assert body == UVA_ROWS, log[-3000:]
        warnings = [line for line in log.splitlines() if line.startswith("aviso: no se pudo actualizar")]
        assert len(warnings) == 1 and UNREACHABLE in warnings[0] and "se sirve la que ya estaba" in warnings[0]
        assert "error" not in log.replace(warnings[0], "")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)


def test_serve_with_the_source_down_and_no_database_fails(checkout):
    installed_now(checkout)
    done = run(checkout, "serve.sh", ARGENTINA_DATOS_SOURCE=UNREACHABLE, PORT=str(free_port()))
    assert done.returncode == 1
    assert f"error: {UNREACHABLE}" in done.stderr
    assert not (checkout / "argentina.db").exists()


def test_update_fails_loudly_when_the_source_publishes_nothing_new(checkout, fuente):
    """The same source weeks later: the database is kept as it is, build-db's own code would be 0, and the daily
    job exits 4 for cron and systemd; publicar.sh still exports what there is and says why it fails."""
    installed_now(checkout)
    late = {"ARGENTINA_DATOS_SOURCE": str(fuente), "ARGENTINA_DATOS_HOY": "2016-05-01"}
    done = run(checkout, "update.sh", **late)
    assert done.returncode == 4, done.stderr[-3000:]
    assert "uva: último dato del 2016-03-31, hace 31 días (ATRASADO" in done.stderr
    said = json.loads((checkout / "argentina.db.resumen.json").read_text())
    assert said["resultado"] == "completa" and said["codigo"] == 4 and said["frescura"]["atrasada"] is True
    done = run(checkout, "publicar.sh", ARGENTINA_DATOS_PUBLICADO=str(checkout / "publicado"), **late)
    assert done.returncode == 4 and "aviso: publicada, pero los datos principales están atrasados" in done.stderr
    assert json.loads((checkout / "publicado" / UVA / "index.json").read_text()) == UVA_ROWS
    with sqlite3.connect(checkout / "argentina.db") as con:
        assert con.execute("SELECT count(*) FROM uva").fetchone()[0] == 1
    con.close()


def test_publish_updates_exports_and_syncs(checkout, fuente, tmp_path):
    installed_now(checkout)
    tree, marker = tmp_path / "publicado", tmp_path / "sincronizado"
    extra = {
        "ARGENTINA_DATOS_SOURCE": str(fuente),
        "ARGENTINA_DATOS_PUBLICADO": str(tree),
        "ARGENTINA_DATOS_SINCRONIZAR": f"cp -r {tree}/v1 {marker}",
    }
    done = run(checkout, "publicar.sh", **extra)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads((tree / UVA / "index.json").read_text()) == UVA_ROWS
    assert json.loads((marker / UVA.removeprefix("v1/") / "index.json").read_text()) == UVA_ROWS

    # a file that cannot be read today: published with yesterday's rows, and exit 3 for the timer to tell
    write_file(fuente, "v1/feriados/2025", "<html>")
    shutil.rmtree(marker)
    done = run(checkout, "publicar.sh", **extra)
    assert done.returncode == 3, done.stderr[-3000:]
    assert "aviso: publicada, pero la actualización omitió archivos" in done.stderr
    assert marker.exists()

    # nothing replaced: nothing exported, nothing synced
    shutil.rmtree(marker)
    done = run(checkout, "publicar.sh", **dict(extra, ARGENTINA_DATOS_SOURCE=str(tmp_path / "no-existe")))
    assert done.returncode == 1
    assert "error: la actualización falló (código 1): no se exporta ni se sincroniza" in done.stderr
    assert not marker.exists()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="sin systemd-analyze")
def test_the_systemd_units_are_valid(tmp_path):
    for unit in ("argentina-datos.service", "argentina-datos-publicar.service", "argentina-datos-publicar.timer"):
        # the units name /srv/argentina-datos: here, this checkout
        text = (REPO / "deploy" / unit).read_text().replace("/srv/argentina-datos", str(REPO))
        (tmp_path / unit).write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", *sorted(str(p) for p in tmp_path.iterdir())],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
