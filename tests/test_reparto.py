"""The biggest dataset's files shared with a second process (construccion/reparto.py): the database is
the one a single process builds, row for row and id for id, also when a file of the other part is bad."""

import shutil
import sqlite3

import pytest
from ayudas import write_file

from argentina_datos.catalogo import BY_TABLE
from argentina_datos.construccion import reparto
from argentina_datos.construccion.cargador import BuildError
from argentina_datos.construccion.constructor import Builder
from argentina_datos.construccion.fuentes import DirectorySource

TABLES = ["fci_valores"]


def fila(fondo, fecha, vcp, horizonte="corto"):
    return {"fondo": fondo, "horizonte": horizonte, "fecha": fecha, "vcp": vcp, "ccp": 10.0, "patrimonio": vcp * 10}


@pytest.fixture
def fuente(tmp_path):
    """Listings of three categories: funds that come back in later files and other categories, values
    found only in the later files (a horizon, a fund), an aggregate «Moneda:» row, a record that does
    not fit (vcp as text), so that the later files' ids are not those their own process gave them."""
    root = tmp_path / "fuente"
    for categoria, fondos in [("mercadoDinero", ["A", "B"]), ("rentaFija", ["C", "A"]), ("rentaMixta", ["D", "C"])]:
        for day in range(2, 7):
            fecha = f"2024-01-{day:02d}"
            records = [fila("Moneda: Peso Argentina", None, 1.0, horizonte=None)]
            records += [fila(f, fecha, 100.0 + day) for f in fondos]
            if categoria == "rentaMixta" and day == 5:
                records.append(fila("E", fecha, 7.0, horizonte="largo"))
                records.append({**fila("F", fecha, 1.0), "vcp": "1,5"})
            write_file(root, f"v1/finanzas/fci/{categoria}/2024/01/{day:02d}", records)
        write_file(root, f"v1/finanzas/fci/{categoria}/ultimo", [fila(fondos[0], "2024-01-06", 1.0)])
    return root


def build(root, out, *, shared: bool, monkeypatch, keep_going=False):
    """A build of the listings, by one process or two; returns where the other process's files began and
    which derived tables it was asked for."""
    split = []
    original = reparto.split_at

    def spy(directory, routes):
        split.append(original(directory, routes))
        return split[-1]

    monkeypatch.setattr(reparto, "MIN_BYTES", 0)
    monkeypatch.setattr(reparto, "cores", lambda: 2 if shared else 1)
    monkeypatch.setattr(reparto, "split_at", spy)
    asked = reparto.OtherProcess.derive

    def derive(self, build, tables):
        split.append(tables)
        return asked(self, build, tables)

    monkeypatch.setattr(reparto.OtherProcess, "derive", derive)
    report = Builder(DirectorySource(root), out, datasets=[BY_TABLE[t] for t in TABLES], keep_going=keep_going).run(
        force=True
    )
    return report, split


def contents(path) -> dict:
    """Every table's rows in their stored order, and the schema; not the build's date."""
    with sqlite3.connect(path) as conn:
        names = [
            n
            for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        ]
        out = {"schema": conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()}
        for name in names:
            where = " WHERE clave <> 'construido'" if name == "_construccion" else ""
            out[name] = conn.execute(f'SELECT * FROM "{name}"{where}').fetchall()
    return out


def test_two_processes_build_the_same_database_as_one(fuente, tmp_path, monkeypatch):
    one, _ = build(fuente, tmp_path / "uno.db", shared=False, monkeypatch=monkeypatch)
    two, split = build(fuente, tmp_path / "dos.db", shared=True, monkeypatch=monkeypatch)
    assert split and 0 < split[0] < 18, split  # the other process had some of the files, not all
    assert split[1:] == [["fci_serie"]]  # and computed the derived table from the builder's file
    assert [(o.table, o.rows, o.files) for o in two.outcomes] == [(o.table, o.rows, o.files) for o in one.outcomes]
    assert [f.detalle for f in two.findings] == [f.detalle for f in one.findings]
    assert any("vcp" in f.detalle for f in two.findings)  # the record that does not fit, in the other part
    a, b = contents(tmp_path / "uno.db"), contents(tmp_path / "dos.db")
    assert a.keys() == b.keys()
    for table in a:
        assert b[table] == a[table], table
    # the ids the other process gave were changed: E and F are new there, A and C were not
    with sqlite3.connect(tmp_path / "dos.db") as conn:
        assert [f for (f,) in conn.execute("SELECT fondo FROM fci_valores_fondo ORDER BY id")] == [
            "Moneda: Peso Argentina",
            "A",
            "B",
            "C",
            "D",
            "E",
            "F",
        ]
    assert not list(tmp_path.glob("*.tmp-*")), "the other process's files are removed"


def test_a_bad_file_of_the_other_part_is_kept_from_the_previous_build_as_by_one_process(fuente, tmp_path, monkeypatch):
    build(fuente, tmp_path / "uno.db", shared=False, monkeypatch=monkeypatch)
    shutil.copy(tmp_path / "uno.db", tmp_path / "dos.db")
    (fuente / "v1/finanzas/fci/rentaMixta/2024/01/04/index.json").write_text("[{roto")
    one, _ = build(fuente, tmp_path / "uno.db", shared=False, monkeypatch=monkeypatch, keep_going=True)
    two, split = build(fuente, tmp_path / "dos.db", shared=True, monkeypatch=monkeypatch, keep_going=True)
    assert split[0] < 14  # rentaMixta/2024/01/04, the 15th file, is the other process's
    assert len(two.skipped_files) == 1 and "rentaMixta/2024/01/04" in two.skipped_files[0]
    assert two.skipped_files == one.skipped_files
    a, b = contents(tmp_path / "uno.db"), contents(tmp_path / "dos.db")
    for table in a:
        assert b[table] == a[table], table


def test_a_bad_file_of_the_other_part_stops_the_build_naming_it(fuente, tmp_path, monkeypatch):
    out = tmp_path / "base.db"
    build(fuente, out, shared=True, monkeypatch=monkeypatch)
    before = out.read_bytes()
    (fuente / "v1/finanzas/fci/rentaMixta/2024/01/04/index.json").write_text("[{roto")
    with pytest.raises(BuildError, match=r"rentaMixta/2024/01/04/index.json: no es JSON válido"):
        build(fuente, out, shared=True, monkeypatch=monkeypatch)
    assert out.read_bytes() == before
    assert not list(tmp_path.glob("base.db.tmp-*"))  # the build's and the other process's files


def test_a_small_dataset_or_one_core_is_not_shared(fuente, tmp_path):
    routes = [(BY_TABLE["fci_valores"].sources[0], r) for r in ["v1/finanzas/fci/mercadoDinero/ultimo"] * 3]
    assert reparto.split_at(DirectorySource(fuente), routes) is None  # far below MIN_BYTES
    assert reparto.split_at(DirectorySource(fuente), routes[:1]) is None


def test_the_build_leaves_wal_mode(fuente, tmp_path, monkeypatch):
    build(fuente, tmp_path / "dos.db", shared=True, monkeypatch=monkeypatch)
    with sqlite3.connect(tmp_path / "dos.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert not list(tmp_path.glob("dos.db*-wal")) and not list(tmp_path.glob("dos.db*-shm"))


def died(self):
    """The other process stops without an answer (killed, out of memory)."""
    self._process.terminate()
    self._process.join()
    raise reparto.HelperFailed("el proceso auxiliar de la construcción terminó sin responder (código -15)")


@pytest.mark.parametrize("stage", ["part", "derived"])
def test_when_the_other_process_dies_this_one_does_its_work(fuente, tmp_path, monkeypatch, stage):
    build(fuente, tmp_path / "uno.db", shared=False, monkeypatch=monkeypatch)
    monkeypatch.setattr(reparto.OtherProcess, stage, died)
    report, split = build(fuente, tmp_path / "dos.db", shared=True, monkeypatch=monkeypatch)
    assert split[0] and not report.skipped and not report.skipped_files
    a, b = contents(tmp_path / "uno.db"), contents(tmp_path / "dos.db")
    for table in a:
        assert b[table] == a[table], table
    with sqlite3.connect(tmp_path / "dos.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert not list(tmp_path.glob("*.tmp-*"))
