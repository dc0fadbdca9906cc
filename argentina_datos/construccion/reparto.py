"""The biggest dataset's files shared with a second process, on a machine with a second core.

The FCI listings are nine tenths of a build's rows.  While the builder loads the other datasets and the
first part of the listings, another process loads the rest of them into a scratch SQLite file with the
same loader (construccion/cargador.py).  The builder then copies those rows into its own table
(almacen/filas.RowWriter.adopt), giving each looked-up value the id it would have had had one process
read every file in order; what the other process noted (fuentes, findings, files kept from the previous
build) follows the builder's own, in the same order.  The database is the same as a build in one process.

Only a directory source is shared (a process reads its files on its own); an HTTP source is read by the
builder alone, as are the datasets that come from the previous build when the source cannot list them.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from argentina_datos.almacen import calidad
from argentina_datos.almacen.propias import SourceFile
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.esquema import Dataset, Source
from argentina_datos.construccion.cargador import DatasetLoader
from argentina_datos.construccion.fuentes import DirectorySource, PreviousBuild, Upstream
from argentina_datos.construccion.versiones import VersionedSource

# A dataset is shared when its files add up to this much: below it, starting a process costs more
# than it saves (about 0.4 s to start and import, against ~0.25 s of loading per 10 MB of listings).
MIN_BYTES = 48 * 2**20
# The other process's share of the dataset's bytes: the builder loads the datasets before it while the
# other process starts, so the halves end together when the other one takes a little more.
SHARE = 0.5


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
    """The cores this process may run on (a container's share, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def directory_of(source: Upstream, dataset: Dataset) -> Optional[DirectorySource]:
    """The directory another process can read this dataset's files from, or None (HTTP, versions)."""
    if isinstance(source, VersionedSource) and not dataset.versions_of:
        source = source.source
    return source if isinstance(source, DirectorySource) else None


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
    """A process loading the files ``routes[at:]`` of ``dataset``; ``part()`` waits for what it loaded."""

    def __init__(
        self,
        dataset: Dataset,
        routes: list[tuple[Source, str]],
        directory: DirectorySource,
        scratch_dir: Path,
        *,
        keep_going: bool,
        previous: Optional[PreviousBuild],
    ):
        self.files = len(routes)
        fd, self.path = tempfile.mkstemp(prefix=".parte-", suffix=".db", dir=scratch_dir)
        os.close(fd)
        indexes = [(dataset.sources.index(src), route) for src, route in routes]
        context = multiprocessing.get_context("spawn")  # not fork: the builder may have threads (progress bars)
        self._receive, send = context.Pipe(duplex=False)
        previous_path = str(previous.path) if previous is not None else None
        self._process = context.Process(
            target=_load,
            args=(
                send,
                dataset.table,
                indexes,
                directory.root,
                directory.history,
                self.path,
                keep_going,
                previous_path,
            ),
            name=f"argentina-datos: {dataset.table}",
            daemon=True,
        )
        self._process.start()
        send.close()

    def part(self) -> Part:
        """The other process's part; raises what stopped it, as the builder's own loader would."""
        try:
            outcome, value = self._receive.recv()
        except EOFError:
            self._process.join()
            raise RuntimeError(
                f"el proceso que cargaba una parte terminó sin responder (código {self._process.exitcode})"
            )
        self._process.join()
        if outcome == "error":
            raise value
        if outcome == "failure":
            raise RuntimeError(f"el proceso que cargaba una parte falló:\n{value}")
        return value

    def close(self) -> None:
        """Stops the process if it still runs (the build failed before asking for its part), removes its file."""
        if self._process.is_alive():
            self._process.terminate()
        self._process.join()
        self._receive.close()
        for suffix in ("", "-journal"):
            Path(self.path + suffix).unlink(missing_ok=True)


def _load(send, table, indexes, root, history, path, keep_going, previous_path) -> None:
    """In the other process: the loader over its files, into the scratch file; the Part, or what stopped it."""
    try:
        dataset = BY_TABLE[table]
        routes = [(dataset.sources[i], route) for i, route in indexes]
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA synchronous = OFF")
        previous = PreviousBuild(previous_path) if previous_path else None
        directory = DirectorySource(root, history)  # its files only: the builder's has progress bars
        loader = DatasetLoader(db, dataset, directory, lambda n: None, keep_going=keep_going, previous=previous)
        db.execute("BEGIN")
        rows = loader.load(routes)
        db.execute("COMMIT")
        db.close()
        part = Part(path, rows, loader.fuentes, loader.findings, loader.skipped_files, loader.failed)
        part.lookup_ids = loader.rows.lookup_ids
        send.send(("ok", part))
    except Exception as e:  # noqa: BLE001 - everything goes back to the builder, which decides
        try:
            send.send(("error", e))
        except Exception:  # noqa: BLE001 - an exception that does not pickle: its text
            send.send(("failure", traceback.format_exc()))
    finally:
        send.close()
