"""Bad input stops the build with a clear message and leaves the previous database alone.

Each test writes a tiny source in the upstream layout (two datasets: feriados 2025 and
UVA) and drives the real command line, capturing what a user would read on stderr.
"""

import datetime as dt
import hashlib
import os
import sqlite3
from pathlib import Path

import pytest
from ayudas import UVA_DIAS, beside, write_file
from servidor_local import LocalServer

from argentina_datos.catalogo import BY_TABLE
from argentina_datos.construccion import cli
from argentina_datos.construccion.constructor import Builder, BuildError
from argentina_datos.construccion.fuentes import DirectorySource

FERIADOS = [
    {"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"},
    {"fecha": "2025-03-03", "tipo": "inamovible", "nombre": "Carnaval"},
]
UVA = UVA_DIAS
UVA_RUTA = "v1/finanzas/indices/uva"


@pytest.fixture
def fuente(tmp_path) -> Path:
    root = tmp_path / "fuente"
    write_file(root, "v1/feriados/2025", FERIADOS)
    write_file(root, UVA_RUTA, UVA)
    return root


@pytest.fixture
def salida(tmp_path) -> Path:
    d = tmp_path / "salida"
    d.mkdir()
    return d / "argentina.db"


@pytest.fixture
def construir(capsys):
    """Run build-db; return (exit code, stderr)."""

    def run(*args):
        capsys.readouterr()
        code = cli.main([str(a) for a in args])
        err = capsys.readouterr().err
        assert "Traceback" not in err
        return code, err

    return run


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def filas(db: Path, table: str) -> int:
    with sqlite3.connect(db) as con:
        return con.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]


def tablas(db: Path) -> set:
    with sqlite3.connect(db) as con:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def buena_construccion(construir, fuente, salida):
    code, err = construir("--source", fuente, "--output", salida)
    assert code == 0, err
    assert filas(salida, "uva") == 2 and filas(salida, "feriados") == 2
    return sha256(salida)


# Only a file that cannot be read as a list of records stops a build; what is odd inside the
# records is kept (tests/test_datos_como_llegan.py).
MALOS = {
    "no es JSON": ('[{"fecha": "2016-03-31", "valor": 14.05},', ["no es JSON válido"]),
    "no es una lista": ({"fecha": "2016-03-31"}, ["se esperaba una lista de registros"]),
    "texto suelto": ("<html>mantenimiento</html>", ["no es JSON válido"]),
}


@pytest.mark.parametrize("caso", sorted(MALOS))
def test_bad_input_stops_the_build_and_keeps_the_previous_output(construir, fuente, salida, caso):
    antes = buena_construccion(construir, fuente, salida)
    contenido, esperado = MALOS[caso]
    archivo = write_file(fuente, UVA_RUTA, contenido)

    code, err = construir("--source", fuente, "--output", salida)

    assert code != 0
    error = next(line for line in err.splitlines() if line.startswith("error: "))
    assert str(archivo) in error
    for texto in esperado:
        assert texto in error
    assert sha256(salida) == antes
    assert beside(salida.parent) == [salida.name]  # no temporary file left behind


def test_keep_going_skips_only_the_bad_file_and_lists_it(construir, fuente, salida):
    buena_construccion(construir, fuente, salida)
    write_file(fuente, "v1/feriados/2026", [{"fecha": "2026-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}])
    archivo = write_file(fuente, "v1/feriados/2025", '[{"fecha": "2025-01-01",')

    code, err = construir("--source", fuente, "--output", salida, "--keep-going")

    assert code == 3, err
    assert filas(salida, "uva") == 2
    assert filas(salida, "feriados") == 3  # 2026's file is in, and 2025's rows of the previous build stay
    assert "feriados: 3 filas de 2 archivos" in err and "(1 archivo omitido)" in err
    final = err[err.index("Omitidos por error (--keep-going):") : err.index("Frescura de los datos")].splitlines()
    assert len(final) == 2
    assert final[1].strip().startswith(f"feriados: {archivo}: no es JSON válido")
    assert final[1].endswith("se conservan sus 2 registros de la construcción anterior")
    assert beside(salida.parent) == [salida.name]

    # a build that skipped something is not "up to date": the next run tries again
    code, err = construir("--source", fuente, "--output", salida, "--keep-going")
    assert code == 3 and "ya está al día" not in err
    write_file(fuente, "v1/feriados/2025", FERIADOS)
    code, err = construir("--source", fuente, "--output", salida)
    assert code == 0 and filas(salida, "feriados") == 3


def test_builder_api_with_a_subset_of_datasets(fuente, salida):
    write_file(fuente, UVA_RUTA, {"valor": True})
    builder = Builder(DirectorySource(fuente), salida, datasets=[BY_TABLE["feriados"], BY_TABLE["uva"]])
    with pytest.raises(BuildError, match=r"uva/index\.json: se esperaba una lista de registros y llegó dict"):
        builder.run()
    assert not salida.exists()
    assert beside(salida.parent) == []

    report = Builder(DirectorySource(fuente), salida, datasets=[BY_TABLE["uva"]], keep_going=True).run()
    assert [o.table for o in report.outcomes] == ["uva"]
    assert len(report.skipped_files) == 1 and not report.complete


def test_a_source_without_any_dataset_is_an_error(construir, tmp_path, salida):
    (tmp_path / "vacia" / "v1").mkdir(parents=True)
    code, err = construir("--source", tmp_path / "vacia", "--output", salida)
    assert code != 0
    assert "la fuente no tiene ninguno de los conjuntos de datos" in err
    code, err = construir("--source", tmp_path / "no-existe", "--output", salida)
    assert code != 0
    assert f"{tmp_path / 'no-existe'}: no es un directorio con el formato de upstream" in err
    assert not salida.exists()


def test_an_output_that_cannot_be_written_is_a_clear_error(construir, fuente, tmp_path):
    code, err = construir("--source", fuente, "--output", tmp_path)
    assert code != 0
    assert f"no se pudo escribir {tmp_path}" in err
    assert not [p for p in tmp_path.parent.iterdir() if p.name.startswith(tmp_path.name + ".tmp-")]


def test_an_unexpected_error_is_one_line_not_a_traceback(construir, fuente, salida, monkeypatch):
    def roto(self, force=False):
        raise ZeroDivisionError("división por cero")

    monkeypatch.setattr(Builder, "run", roto)
    code, err = construir("--source", fuente, "--output", salida)
    assert code != 0
    assert "error interno (ZeroDivisionError: división por cero) en test_build_errors.py:" in err


# ---- HTTP errors ---------------------------------------------------------------------
def http_args(srv, salida, *extra):
    # only today's FCI dates: these tests are about errors, not about the walk
    return ("--source", srv.url, "--output", salida, "--fci-desde", dt.date.today().isoformat(), *extra)


@pytest.mark.parametrize(
    "falla, problema",
    [
        (500, "HTTP 500 (tras 2 intento(s))"),
        (("slow", 2.0), "sin respuesta completa en 0.3 s (tiempo de espera agotado) (tras 2 intento(s))"),
    ],
)
def test_http_error_or_timeout_stops_the_build_naming_the_url(construir, fuente, salida, falla, problema):
    with LocalServer(fuente) as srv:
        code, err = construir(*http_args(srv, salida))
        assert code == 0, err
        antes = sha256(salida)
        srv.fail_next(f"/{UVA_RUTA}", falla, falla)

        code, err = construir(*http_args(srv, salida, "--timeout", "0.3", "--retries", "2", "--force"))

    assert code != 0
    assert f"error: {srv.url}/{UVA_RUTA}: {problema}" in err
    assert sha256(salida) == antes
    assert beside(salida.parent) == [salida.name]


def test_http_error_with_keep_going_skips_only_that_file(construir, fuente, salida):
    with LocalServer(fuente, faults={f"/{UVA_RUTA}": [503, 503]}) as srv:
        code, err = construir(*http_args(srv, salida, "--retries", "2", "--keep-going"))
    assert code == 3, err
    assert filas(salida, "feriados") == 2
    assert filas(salida, "uva") == 0
    assert f"  uva: {srv.url}/{UVA_RUTA}: HTTP 503 (tras 2 intento(s))" in err.splitlines()


# ---- rebuilds and the output file ----------------------------------------------------
def test_no_change_rebuild_does_not_rewrite_and_force_does(construir, fuente, salida):
    buena_construccion(construir, fuente, salida)
    antes = salida.stat()

    code, err = construir("--source", fuente, "--output", salida)
    assert code == 0
    assert "ya está al día" in err
    despues = salida.stat()
    assert (despues.st_ino, despues.st_mtime_ns) == (antes.st_ino, antes.st_mtime_ns)

    code, err = construir("--source", fuente, "--output", salida, "--force")
    assert code == 0 and "ya está al día" not in err
    assert salida.stat().st_ino != antes.st_ino
    assert filas(salida, "uva") == 2

    write_file(fuente, UVA_RUTA, UVA + [{"fecha": "2016-04-02", "valor": 14.06}])
    code, err = construir("--source", fuente, "--output", salida)
    assert code == 0 and filas(salida, "uva") == 3


def test_a_copied_source_updates_by_content_not_by_file_times(construir, fuente, salida, tmp_path):
    """A directory source's files are compared by their checksums, kept beside the database: a copy made with
    ``cp -r`` (the same bytes, new times and inodes) is no change, and a file changed in it re-reads its dataset
    alone."""
    import subprocess

    buena_construccion(construir, fuente, salida)
    antes = salida.stat()
    copia = tmp_path / "copia"
    subprocess.run(["cp", "-r", str(fuente), str(copia)], check=True)
    assert (copia / UVA_RUTA / "index.json").stat().st_mtime_ns != (fuente / UVA_RUTA / "index.json").stat().st_mtime_ns
    code, err = construir("--source", copia, "--output", salida)
    assert code == 0 and "ya está al día" in err, err
    despues = salida.stat()
    assert (despues.st_ino, despues.st_mtime_ns) == (antes.st_ino, antes.st_mtime_ns)
    assert salida.with_name(salida.name + ".huellas.json").is_file()

    write_file(copia, UVA_RUTA, UVA + [{"fecha": "2016-04-02", "valor": 14.06}])
    code, err = construir("--source", copia, "--output", salida)
    assert code == 0 and "construcción incremental" in err and "se releen 1: uva\n" in err, err
    assert filas(salida, "uva") == 3


def test_output_gets_normal_permissions(construir, fuente, salida):
    viejo = os.umask(0o022)
    try:
        buena_construccion(construir, fuente, salida)
    finally:
        os.umask(viejo)
    assert salida.stat().st_mode & 0o777 == 0o644

    # a rebuild keeps whatever mode the owner gave the file
    salida.chmod(0o640)
    code, err = construir("--source", fuente, "--output", salida, "--force")
    assert code == 0, err
    assert salida.stat().st_mode & 0o777 == 0o640


# ---- two builds, killed builds -------------------------------------------------------
def test_a_second_build_of_the_same_output_is_refused_while_the_first_runs(construir, fuente, salida):
    from argentina_datos.construccion.constructor import BuildLock

    antes = buena_construccion(construir, fuente, salida)
    with BuildLock(salida):
        code, err = construir("--source", fuente, "--output", salida, "--force")
    assert code != 0
    assert f"error: {salida}: otra construcción está en curso (pid {os.getpid()})" in err
    assert sha256(salida) == antes
    # once the first is done, the lock is gone with it
    assert beside(salida.parent) == [salida.name]
    code, err = construir("--source", fuente, "--output", salida, "--force")
    assert code == 0, err


def test_temporary_files_of_a_killed_build_are_removed_by_the_next(construir, fuente, salida):
    restos = [salida.with_name(salida.name + ".tmp-abc123"), salida.with_name(salida.name + ".tmp-zz")]
    for resto in restos:
        resto.write_bytes(b"SQLite format 3\0 a medias")
    otro = salida.with_name("otra.db.tmp-1")
    otro.write_bytes(b"")
    buena_construccion(construir, fuente, salida)
    assert beside(salida.parent) == sorted([salida.name, otro.name])


def test_the_new_file_reaches_the_disk_before_it_replaces_the_old(fuente, tmp_path, monkeypatch):
    """The build writes with synchronous=OFF; its file is fsync'd once before the rename (a power cut after the
    rename must not leave a damaged database where a good one was)."""
    out = tmp_path / "a.db"
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append("fsync " + os.path.basename(os.readlink(f"/proc/self/fd/{fd}")))
        return real_fsync(fd)

    def replace(src, dst):
        events.append(f"replace {os.path.basename(src)}")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    Builder(DirectorySource(fuente), out).run()
    temporary = next(e.split()[1] for e in events if e.startswith("replace a.db.tmp-"))
    assert events.index(f"fsync {temporary}") < events.index(f"replace {temporary}"), events
