"""The biggest dataset's files shared with a second process, on a machine with a second core.

The FCI listings are nine tenths of a build's rows.  While the builder loads the other datasets and the
first part of the listings, another process loads the rest of them with the same loader
(construccion/cargador.py).  Both parts go to scratch SQLite files written through apsw, whose binding of
parameters is cheaper than sqlite3's.  The builder copies its own part into its empty table as it is
(almacen/filas.RowWriter.take), then the other one (RowWriter.adopt), giving each looked-up value the id it
would have had had one process read every file in order; what the other process noted (fuentes, findings,
files kept from the previous build) follows the builder's own, in the same order.  The tables are the same,
row for row, as a build's in one process.  The same process then computes the derived tables (``derive``).

Only a directory source is shared (a process reads its files on its own); an HTTP source is read by the
builder alone, as are the datasets that come from the previous build when the source cannot list them.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, cast

import apsw

from argentina_datos.almacen import calidad
from argentina_datos.almacen.propias import SourceFile
from argentina_datos.catalogo import BY_TABLE, DERIVED_TABLES
from argentina_datos.catalogo.esquema import Dataset, Source
from argentina_datos.construccion import derivadas
from argentina_datos.construccion.cargador import DatasetLoader
from argentina_datos.construccion.fuentes import DirectorySource, PreviousBuild, Upstream
from argentina_datos.construccion.versiones import VersionedSource

# A dataset is shared when its files add up to this much: below it, starting a process costs more
# than it saves (about 0.4 s to start and import, against ~0.25 s of loading per 10 MB of listings).
MIN_BYTES = 48 * 2**20
# The other process's share of the dataset's bytes: it starts (~0.3 s) while the builder loads the datasets
# before this one (~1.5 s on the mirror); with this share the builder found its part ready, waiting ~0 s.
SHARE = 0.53
DERIVED = {d.table: d for d in DERIVED_TABLES}


class HelperFailed(RuntimeError):
    """The other process stopped without an answer, or with one that does not travel back: the builder does
    its work itself."""


@dataclass
class Part:
    """What the other process loaded: its rows are in the scratch file ``path``."""

    path: str
    rows: int = 0
    fuentes: list[SourceFile] = field(default_factory=list)
    findings: list[calidad.Finding] = field(default_factory=list)
    skipped_files: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    lookup_ids: dict[str, dict] = field(default_factory=dict)  # column -> value -> the id it has in the file


def cores() -> int:
    """The cores this process may run on (its CPU affinity; a cgroup's CPU quota is not seen)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def directory_of(source: Upstream, dataset: Dataset) -> Optional[DirectorySource]:
    """The directory another process can read this dataset's files from, or None (HTTP, versions)."""
    if isinstance(source, VersionedSource) and not dataset.versions_of:
        source = source.source
    # The other process rebuilds both from names: a dataset or a source of the builder's own would not be the same.
    if type(source) is not DirectorySource or BY_TABLE.get(dataset.table) is not dataset:
        return None
    assert isinstance(source, DirectorySource)  # for mypy, which does not narrow on type() is
    return source


def split_at(directory: DirectorySource, routes: list[tuple[Source, str]]) -> Optional[int]:
    """Where the other process's files begin, or None when the dataset is too small to share."""
    if len(routes) < 2:
        return None
    sizes = []
    for src, route in routes:
        try:
            sizes.append(os.path.getsize(directory.path(route, src.history)))
        except OSError:  # reported, with its route, when the file is loaded
            sizes.append(0)
    total = sum(sizes)
    if total < MIN_BYTES:
        return None
    mine, at = 0, 0
    while at < len(routes) - 1 and mine + sizes[at] <= total * (1 - SHARE):
        mine += sizes[at]
        at += 1
    return max(at, 1)


class OtherProcess:
    """A process loading the files ``routes`` (the later ones) of ``dataset``; ``part()`` waits for what it
    loaded.  It then computes, on request, derived tables from the builder's file (``derive``).  Its files
    are named ``scratch`` + a random tail (the builder's temporaries: a killed build's are removed by the next)."""

    def __init__(
        self,
        dataset: Dataset,
        routes: list[tuple[Source, str]],
        directory: DirectorySource,
        scratch: Path,
        *,
        keep_going: bool,
        previous: Optional[PreviousBuild],
    ):
        self.files = len(routes)
        self._scratch_prefix = scratch
        self.path = self._scratch()
        self.derived_path: Optional[str] = None
        self.first_path: Optional[str] = None
        self._first: Optional[sqlite3.Connection] = None
        self._waiting = True  # the process works and does not read the pipe until it sends its answer
        indexes = [(dataset.sources.index(src), route) for src, route in routes]
        context = multiprocessing.get_context("spawn")  # not fork: the builder may have threads (progress bars)
        self._conn, theirs = context.Pipe()
        previous_path = str(previous.path) if previous is not None else None
        task = (dataset.table, indexes, directory.root, directory.history, self.path, keep_going, previous_path)
        self._process = context.Process(target=_serve, args=(theirs, task), name=f"argentina-datos: {dataset.table}")
        self._process.daemon = True
        self._process.start()
        theirs.close()

    def _scratch(self) -> str:
        fd, path = tempfile.mkstemp(prefix=self._scratch_prefix.name, suffix=".db", dir=self._scratch_prefix.parent)
        os.close(fd)
        return path

    def first_part(self) -> sqlite3.Connection:
        """A scratch file for the builder's own first files: written, as the other part, through apsw (the
        builder then copies them into its empty table as they are, which SQLite does fastest)."""
        self.first_path = self._scratch()
        self._first = _connect(self.first_path)
        return self._first

    def first_done(self) -> str:
        """The builder's first files are written: their file, closed."""
        assert self._first is not None and self.first_path is not None
        self._first.close()
        self._first = None
        return self.first_path

    def part(self) -> Part:
        """The other process's part; raises what stopped it, as the builder's own loader would."""
        try:
            return self._answer()
        finally:
            self._waiting = False

    def derive(self, build: str, tables: list[str]) -> None:
        """Asks for the derived ``tables`` (catalogue names), computed from the builder's file ``build`` into a
        file of their own (``derived_path``): the builder goes on meanwhile, in WAL mode, so both can read it."""
        self.derived_path = self._scratch()
        try:
            self._conn.send(("derive", build, tables, self.derived_path))
        except OSError as e:
            raise HelperFailed(f"el proceso auxiliar de la construcción no recibe pedidos ({e})") from None
        self._waiting = True

    def derived(self) -> list[tuple[str, float]]:
        """Waits for the derived tables: (table, seconds it took) of each, in the order asked."""
        try:
            return self._answer()
        finally:
            self._waiting = False

    def _answer(self):
        try:
            outcome, value = self._conn.recv()
        except (EOFError, OSError):
            self._process.join()
            raise HelperFailed(
                f"el proceso auxiliar de la construcción terminó sin responder (código {self._process.exitcode})"
            ) from None
        if outcome == "error":
            raise value
        if outcome == "failure":
            raise HelperFailed(f"el proceso auxiliar de la construcción falló:\n{value}")
        return value

    def close(self) -> None:
        """Ends the process (stops it if it still works: the build failed), removes its files."""
        if self._process.is_alive() and not self._waiting:
            try:
                self._conn.send(("stop",))
            except OSError:
                pass
            self._process.join(timeout=2)
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._conn.close()
        if self._first is not None:
            self._first.close()
        for path in filter(None, (self.path, self.derived_path, self.first_path)):
            for suffix in ("", "-journal"):
                Path(path + suffix).unlink(missing_ok=True)


def _serve(conn, task) -> None:
    """In the other process: its part of the dataset, then derived tables until the builder says stop."""
    try:
        _answer(conn, lambda: _load(*task))
        while True:
            request = conn.recv()
            if request[0] != "derive":
                return
            _answer(conn, lambda: _derive(*request[1:]))
    except (EOFError, OSError, KeyboardInterrupt):  # the builder is gone, or stops (Ctrl-C reaches both)
        return
    finally:
        conn.close()


def _answer(conn, work) -> None:
    try:
        conn.send(("ok", work()))
    except Exception as e:  # noqa: BLE001 - everything goes back to the builder, which decides
        if isinstance(e, apsw.Error):  # as the builder's own SQLite errors (a full disk is named by its text)
            e = sqlite3.OperationalError(str(e))
        try:
            conn.send(("error", e))
        except Exception:  # noqa: BLE001 - an exception that does not pickle: its text
            conn.send(("failure", traceback.format_exc()))


def _connect(path: str) -> sqlite3.Connection:
    """A scratch file, written through apsw: it binds parameters in less time than sqlite3 (the 1.6 M listing
    rows: 1.77 s against 3.05 s); its own SQLite writes the same file format, which the builder attaches."""
    db = apsw.Connection(path)
    # apsw waits for no lock by default (sqlite3 waits 5 s): reading the builder's file in WAL mode can meet
    # one for a moment (a checkpoint, the switch to WAL), which was "database is locked" once in the tests.
    db.execute("PRAGMA busy_timeout = 10000")
    db.execute("PRAGMA journal_mode = OFF")  # a scratch file: a failed build discards it
    db.execute("PRAGMA synchronous = OFF")
    # What the loader and the derived tables' fills use of a connection (execute, executemany, fetchall on
    # the cursor) apsw's has too.
    return cast(sqlite3.Connection, db)


def _load(table, indexes, root, history, path, keep_going, previous_path) -> Part:
    """The loader over the other process's files, into the scratch file ``path``."""
    dataset = BY_TABLE[table]
    routes = [(dataset.sources[i], route) for i, route in indexes]
    db = _connect(path)
    previous = PreviousBuild(previous_path) if previous_path else None
    directory = DirectorySource(root, history)  # its files only: the builder's has progress bars
    loader = DatasetLoader(db, dataset, directory, lambda n: None, keep_going=keep_going, previous=previous)
    db.execute("BEGIN")
    rows = loader.load(routes)
    db.execute("COMMIT")
    db.close()
    return Part(
        path, rows, loader.fuentes, loader.findings, loader.skipped_files, loader.failed, loader.rows.lookup_ids
    )


def _derive(build: str, tables: list[str], path: str) -> list[tuple[str, float]]:
    """The derived tables, filled in ``path`` from the tables of the builder's file ``build`` (attached: the
    catalogue's SQL names them unqualified, and SQLite finds them there)."""
    db = _connect(path)
    db.execute("ATTACH DATABASE ? AS construida", (build,))
    out = []
    for table in tables:
        start = time.perf_counter()
        db.execute("BEGIN")
        derivadas.fill(db, DERIVED[table])
        db.execute("COMMIT")
        out.append((table, time.perf_counter() - start))
    db.close()
    return out
