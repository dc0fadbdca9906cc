"""A bad day upstream loses nothing (issue 24): with --keep-going, a file that cannot be read today
keeps the previous build's records and answer, is listed, is a `calidad` finding and is asked for
again by every later build until it is read; a first build without it answers 404 for its route.

The sources break files the ways upstream does: a list cut in half, an HTML page with status 200, a
500 — over real HTTP (tests/servidor_local.py) and in a directory."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import sqlite3
import time

import orjson
import pytest
from ayudas import DOLARES_DIAS, UVA_DIAS, answer, beside, write_file
from servidor_local import LocalServer

from argentina_datos.construccion import cli
from argentina_datos.construccion.fuentes import HttpSource, SourceError
from argentina_datos.web.v1.api import V1

TODAY = dt.date.today()
HTML = b"<!DOCTYPE html><html><body>Estamos en mantenimiento</body></html>"
DOLARES = "v1/cotizaciones/dolares"
UVA = "v1/finanzas/indices/uva"
RIESGO = "v1/finanzas/indices/riesgo-pais"
PLAZO_FIJO = "v1/finanzas/tasas/plazoFijo"
FILES = {
    DOLARES: DOLARES_DIAS,
    UVA: UVA_DIAS,
    RIESGO: [{"valor": 937, "fecha": "1999-01-22"}, {"valor": 790, "fecha": "1999-02-01"}],
    PLAZO_FIJO: [{"entidad": "BANCO A", "logo": None, "tnaClientes": 0.3, "tnaNoClientes": None, "enlace": None}],
    "v1/feriados/2025": [{"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}],
}
TABLES = {DOLARES: "cotizaciones_dolares", UVA: "uva", RIESGO: "riesgo_pais", PLAZO_FIJO: "plazo_fijo"}


@pytest.fixture
def fuente(tmp_path):
    root = tmp_path / "fuente"
    for route, data in FILES.items():
        write_file(root, route, data)
    return root


def build(out, source, *extra) -> str:
    import contextlib
    import io

    if str(source).startswith("http") and "--fci-desde" not in extra:
        # The FCI days of the last week only: from the default (2019) every build over HTTP would ask for
        # ~2,900 days of FCI lists these fixtures do not have (20 s of 404s a test).
        extra = ("--fci-desde", (TODAY - dt.timedelta(days=7)).isoformat(), *extra)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli.main(["--source", str(source), "--output", str(out), "--retries", "1", *extra])
    # 3: replaced, with files skipped (and listed); 0: everything read
    assert code == (3 if "Omitidos por error" in err.getvalue() else 0), err.getvalue()
    return err.getvalue()


def rows(db, table: str) -> int:
    with sqlite3.connect(db) as con:
        return con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]


def query(db, sql: str) -> list:
    with sqlite3.connect(db) as con:
        return con.execute(sql).fetchall()


def answers(db) -> dict:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        return {route: answer(V1(), con, "/" + route) for route in FILES}


def assert_kept(db, err: str, broken: list[str]) -> None:
    """Every route answers its good file; each broken one is listed, in calidad and in _fallidos."""
    for route, got in answers(db).items():
        assert got == (200, FILES[route]), route
    for route in broken:
        assert rows(db, TABLES[route]) == len(FILES[route])
    listed = err[err.index("Omitidos por error (--keep-going):") :]
    assert listed.count("se conservan sus") == len(broken), listed
    found = query(db, "SELECT ruta, detalle FROM calidad WHERE control = 'archivo ilegible' ORDER BY ruta")
    assert [r for r, _ in found] == sorted("/" + r for r in broken)
    assert all("se conservan sus" in d for _, d in found)
    assert sorted(r for (r,) in query(db, "SELECT ruta FROM _fallidos")) == sorted("/" + r for r in broken)


@pytest.mark.lento
def test_a_bad_day_over_http_keeps_yesterdays_rows_and_answers(tmp_path, fuente):
    out = tmp_path / "argentina.db"
    with LocalServer(fuente) as srv:
        build(out, srv.url)
        before = {t: rows(out, t) for t in TABLES.values()}
        assert all(before.values())
        srv.fail_next(f"/{DOLARES}", ("half",))
        srv.fail_next(f"/{UVA}", ("body", HTML))
        srv.fail_next(f"/{PLAZO_FIJO}", ("body", HTML))
        srv.fail_next(f"/{RIESGO}", 500)
        err = build(out, srv.url, "--keep-going")
        assert_kept(out, err, [DOLARES, UVA, PLAZO_FIJO, RIESGO])
        assert {t: rows(out, t) for t in TABLES.values()} == before

        # upstream is well again: every failed file is asked for and read, nothing is left failing
        srv.requested.clear()
        err = build(out, srv.url, "--keep-going")
        assert all(srv.requested[f"/{r}"] >= 1 for r in TABLES), srv.requested
        assert "Omitidos" not in err
        assert query(out, "SELECT count(*) FROM _fallidos") == [(0,)]
        assert query(out, "SELECT count(*) FROM calidad WHERE control = 'archivo ilegible'") == [(0,)]
        for route, got in answers(out).items():
            assert got == (200, FILES[route]), route


def test_a_bad_day_in_a_directory_keeps_yesterdays_rows_and_answers(tmp_path, fuente):
    out = tmp_path / "argentina.db"
    build(out, fuente)
    good = dolares = orjson.dumps(FILES[DOLARES])
    write_file(fuente, DOLARES, dolares[: len(dolares) // 2])
    write_file(fuente, UVA, HTML)
    err = build(out, fuente, "--keep-going")
    assert_kept(out, err, [DOLARES, UVA])

    # still broken the next day: still the same rows, and still not "up to date"
    err = build(out, fuente, "--keep-going")
    assert "ya está al día" not in err
    assert_kept(out, err, [DOLARES, UVA])
    assert query(out, "SELECT DISTINCT desde FROM _fallidos") == [(TODAY.isoformat(),)]
    write_file(fuente, DOLARES, good)
    write_file(fuente, UVA, FILES[UVA])
    build(out, fuente, "--keep-going")
    assert query(out, "SELECT count(*) FROM _fallidos") == [(0,)]


def test_a_previous_copy_that_cannot_be_given_back_stops_the_build(tmp_path, fuente):
    # The previous build has the file but cannot give it back (its store fails: here a column renamed away). Read
    # as "it had none", a bad day would drop the file's rows and calidad would say there was no previous copy: the
    # build stops instead, naming it, and the database stays as it was.
    out = tmp_path / "argentina.db"
    build(out, fuente)
    with sqlite3.connect(out) as con:
        con.execute("ALTER TABLE publicados RENAME COLUMN gzip TO g")
    con.close()
    before = out.read_bytes()
    write_file(fuente, UVA, HTML)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli.main(["--source", str(fuente), "--output", str(out), "--keep-going"])
    assert code == 1, err.getvalue()
    assert f"{out}: no puede dar su copia de /{UVA}" in err.getvalue()
    assert out.read_bytes() == before


def test_a_first_build_without_the_file_answers_404_not_an_empty_list(tmp_path, fuente):
    out = tmp_path / "argentina.db"
    write_file(fuente, UVA, HTML)
    err = build(out, fuente, "--keep-going")
    assert "uva:" in err[err.index("Omitidos por error") :]
    got = answers(out)
    assert got[UVA][0] == 404 and "error" in got[UVA][1]
    assert got[DOLARES] == (200, FILES[DOLARES])
    detail = query(out, "SELECT detalle FROM calidad WHERE control = 'archivo ilegible'")
    assert len(detail) == 1 and "la ruta no tiene datos" in detail[0][0]


def day(n: int) -> str:
    return (TODAY - dt.timedelta(days=n)).strftime("%Y/%m/%d")


def fund(fecha: str, vcp: float) -> dict:
    return {"fondo": "F", "horizonte": "corto", "fecha": fecha, "vcp": vcp, "ccp": 10, "patrimonio": 1000}


def test_a_dated_file_that_failed_is_asked_for_on_every_run_until_read(tmp_path, fuente):
    """An FCI day older than the 7 days an update asks for: once failed, every run (and --force) asks
    again; once read, it is settled like the others."""
    out = tmp_path / "argentina.db"
    old = f"v1/finanzas/fci/mercadoDinero/{day(30)}"
    for n in (30, 2):
        write_file(fuente, f"v1/finanzas/fci/mercadoDinero/{day(n)}", [fund(day(n).replace("/", "-"), 1.0 + n)])
    args = ("--keep-going", "--fci-desde", day(40).replace("/", "-"))
    with LocalServer(fuente, faults={f"/{old}": [500] * 3}) as srv:
        build(out, srv.url, *args)
        assert query(out, "SELECT ruta FROM _fallidos") == [(f"/{old}",)]
        for extra in ((), ("--force",)):
            srv.requested.clear()
            err = build(out, srv.url, *args, *extra)
            assert srv.requested[f"/{old}"] == 1, extra
            assert "ya está al día" not in err
        srv.requested.clear()
        err = build(out, srv.url, *args)  # the server answers it now
        assert srv.requested[f"/{old}"] == 1
        assert query(out, "SELECT count(*) FROM _fallidos") == [(0,)]
        assert query(out, "SELECT vcp FROM fci_valores WHERE fecha = '" + day(30).replace("/", "-") + "'") == [(31.0,)]
        srv.requested.clear()
        err = build(out, srv.url, *args)
        assert srv.requested[f"/{old}"] == 0 and "ya está al día" in err


def test_timeout_is_a_deadline_for_the_whole_answer(fuente):
    """A server that trickles a byte at a time never lets httpx's read timeout expire."""
    with LocalServer(fuente, faults={f"/{UVA}": [("trickle", 6.0)]}) as srv:
        start = time.monotonic()
        with pytest.raises(SourceError, match="tiempo de espera agotado"):
            HttpSource(srv.url, timeout=1.0, retries=1).get(UVA)
        assert time.monotonic() - start < 3.0


# ---- a full disk names the disk that is full -------------------------------------------------
@pytest.fixture
def tiny_disk(tmp_path):
    """A 1 MB tmpfs (root can mount one, as CI runs): where a build runs out of room."""
    import subprocess

    where = tmp_path / "chico"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(where)], capture_output=True).returncode:
        pytest.skip("no se puede montar un tmpfs (hace falta ser root)")
    yield where
    subprocess.run(["umount", str(where)], check=True)


def big_source(root):
    """A base of ~10 MB: the sorts of its indexes outgrow SQLite's page cache (~8 MB) and go to disk."""
    start = dt.date(1900, 1, 1)
    quotes = [
        {"casa": casa, "compra": 1000 + i, "venta": 1010 + i, "fecha": (start + dt.timedelta(days=i)).isoformat()}
        for i in range(50_000)
        for casa in ("blue", "oficial", "bolsa", "cripto")
    ]
    write_file(root, DOLARES, quotes)
    return root


def build_process(source, out, **env):
    import os
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "argentina_datos.construccion.cli", "--source", str(source), "--output", str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
    )


@pytest.mark.lento
def test_a_full_temporary_directory_is_named_not_the_output(tmp_path, tiny_disk):
    out = tmp_path / "salida" / "argentina.db"
    out.parent.mkdir()
    run = build_process(big_source(tmp_path / "grande"), out, SQLITE_TMPDIR=str(tiny_disk))
    assert run.returncode == 1, run.stderr
    error = next(line for line in run.stderr.splitlines() if line.startswith("error: "))
    assert f"no hay lugar en el disco de {tiny_disk} (el directorio temporal de SQLite" in error
    assert "$SQLITE_TMPDIR elige otro" in error and str(out.parent) not in error
    assert not out.exists() and os_listdir(out.parent) == []


@pytest.mark.lento
def test_a_full_output_disk_is_named(tmp_path, tiny_disk):
    out = tiny_disk / "argentina.db"
    run = build_process(big_source(tmp_path / "grande"), out)
    assert run.returncode == 1, run.stderr
    error = next(line for line in run.stderr.splitlines() if line.startswith("error: "))
    assert f"no hay lugar en el disco de {tiny_disk} (el directorio de la salida)" in error
    assert os_listdir(tiny_disk) == []


def os_listdir(path) -> list:
    return beside(path)


@pytest.mark.lento
def test_files_the_source_cannot_even_list_today_come_from_the_previous_build(tmp_path, fuente):
    """Each wallet's file is found through the list of wallets: with that list failing, the wallets'
    routes cannot be enumerated, and the dataset is loaded whole from the previous build."""
    out = tmp_path / "argentina.db"
    wallets = {
        "nexo": [{"moneda": "BTC", "apy": 6.25, "fecha": "2026-02-22"}],
        "belo": [{"moneda": "USD", "apy": 5.5, "fecha": "2026-02-22"}],
    }
    index = [{"entidad": name, "rendimientos": data} for name, data in wallets.items()]
    write_file(fuente, "v1/finanzas/rendimientos", index)
    for name, data in wallets.items():
        write_file(fuente, f"v1/finanzas/rendimientos/{name}", data)
    with LocalServer(fuente) as srv:
        build(out, srv.url)
        srv.fail_next("/v1/finanzas/rendimientos", 500)
        err = build(out, srv.url, "--keep-going")
    with sqlite3.connect(f"file:{out}?mode=ro", uri=True) as con:
        assert answer(V1(), con, "/v1/finanzas/rendimientos") == (200, index)
        for name, data in wallets.items():
            assert answer(V1(), con, f"/v1/finanzas/rendimientos/{name}") == (200, data)
    failed = {r for (r,) in query(out, "SELECT ruta FROM _fallidos")}
    assert failed == {"/v1/finanzas/rendimientos", *(f"/v1/finanzas/rendimientos/{n}" for n in wallets)}
    assert "HTTP 500" in err[err.index("Omitidos por error") :]
