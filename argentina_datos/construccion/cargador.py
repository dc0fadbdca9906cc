"""One dataset of the catalogue, from its files to its tables: the loader the builder runs per dataset.

It reads each file of the dataset from the source, checks it is a list of records (or the object
that holds them), hands the records to the dataset's RowWriter (almacen/filas.py: records to rows),
notes every file in `fuentes` and reports what it could not read.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field
from typing import Callable, Optional, Protocol

import orjson

from argentina_datos.almacen import calidad, publicados
from argentina_datos.almacen.filas import RowWriter
from argentina_datos.almacen.propias import SourceFile
from argentina_datos.almacen.tablas import Layout
from argentina_datos.catalogo import DATASETS
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.construccion.fuentes import (
    PreviousBuild,
    SourceError,
    SourceUnreachable,
    partition_values,
)


class BuildError(RuntimeError):
    """Bad input: the message names the file or URL, the record and the problem."""


class Files(Protocol):
    """What a loader reads a dataset's files from: the build's ``Upstream``, or the versions the build stored
    (construccion/historia.py's ``StoredVersions``, the files of a *_historico dataset)."""

    validators: dict[str, tuple]  # route -> (ETag, Last-Modified) of the body read

    def read(self, route: str, history: bool = False) -> bytes: ...

    def name(self, route: str, history: bool = False) -> str: ...

    def sha256(self, route: str) -> Optional[str]: ...


@dataclass
class Outcome:
    table: str
    rows: int = 0
    files: int = 0
    seconds: float = 0.0
    missing: bool = False
    error: Optional[str] = None  # the whole dataset was skipped (--keep-going)
    skipped_files: list[str] = field(default_factory=list)  # files skipped (--keep-going), with why
    computed: bool = False  # a derived table: computed from other tables, read from no file
    kept: bool = False  # kept from the previous build (incremental.py): its files did not change
    added: int = 0  # files loaded after those kept from the previous build (incremental.py: extended)


class DatasetLoader:
    """Reads one dataset's files and writes its rows.

    A record that does not fit the catalogue is kept as it came and reported
    (``findings``).  Only a file that cannot be read as a list of records stops
    the dataset; with ``keep_going`` that file alone is skipped, and the records
    the ``previous`` build had from it are kept in its place (``failed`` lists it,
    so that the next build asks for it again).  ``unlisted`` names why the source
    could not even list this dataset's files: every file then comes from ``previous``.
    """

    def __init__(
        self,
        db: sqlite3.Connection,
        dataset: Dataset,
        source: Files,
        progress: Callable[[int], None],
        *,
        keep_going: bool = False,
        dates: Optional[calidad.DateChecker] = None,
        previous: Optional[PreviousBuild] = None,
        unlisted: Optional[str] = None,
        publishes: bool = True,
        created: bool = False,
    ):
        self.db = db
        # Its files go to the store of what upstream published (not the versions a *_historico dataset reads).
        self.publishes = publishes
        self.published: list[tuple[str, str, bytes]] = []  # (ruta, tabla, body) of each file read
        self.previous = previous
        self.unlisted = unlisted
        self.dataset = dataset
        self.layout = Layout(dataset)
        self.source = source
        self.progress = progress
        self.keep_going = keep_going
        self.rows = RowWriter(db, self.layout, dates or calidad.DateChecker())
        self.fuentes: list[SourceFile] = []
        self.skipped_files: list[str] = []
        self.failed: list[tuple[str, str]] = []  # (route, why) of each file that could not be read
        self._route = ""
        self.claimed_lists = _claimed_lists(dataset)
        self._created = created  # its tables are there (an incremental build extends them): load() does not create them

    @property
    def findings(self) -> list[calidad.Finding]:
        return self.rows.findings

    def load(self, routes) -> int:
        """Loads these files (more of them with a second call: the tables are created once)."""
        if not self._created:
            self.rows.create_tables()
            self._created = True
        total = 0
        for src, route in routes:
            self.db.execute("SAVEPOINT archivo")
            try:
                if self.unlisted:
                    raise SourceError(self.unlisted)
                total += self._load_file(src, route)
            except (BuildError, SourceError) as e:
                self.db.execute("ROLLBACK TO archivo")
                if not self.keep_going or isinstance(e, SourceUnreachable):
                    raise
                total += self._keep_previous(src, route, str(e))
            self.db.execute("RELEASE archivo")
            self.progress(1)
        return total

    def _keep_previous(self, src, route: str, problem: str) -> int:
        """A file that cannot be read today: the previous build's records of it, if it had them."""
        self._route = "/" + route
        self.failed.append((self._route, problem))
        body = None if src.history or self.previous is None else self.previous.body(route)
        kept = None
        if body is not None:
            self.db.execute("SAVEPOINT anterior")
            try:
                kept = self._load_file(src, route, previous_body=body)
            except (BuildError, SourceError):  # the previous build's copy does not load either
                self.db.execute("ROLLBACK TO anterior")
            self.db.execute("RELEASE anterior")
        self.rows.findings.append(calidad.unreadable(self.layout.table, self._route, problem, kept))
        self.skipped_files.append(problem if kept is None else f"{problem} — {calidad.kept_text(kept)}")
        return kept or 0

    def finish(self) -> None:
        self.rows.finish()
        publicados.write(self.db, self.published)

    # ---- one file --------------------------------------------------------------
    def _load_file(self, src, route: str, previous_body: Optional[bytes] = None) -> int:
        """Loads one file of the source or, given ``previous_body``, the previous build's copy of it."""
        self._route = "/" + route
        if previous_body is None:
            name = self.source.name(route, src.history)
            body = self.source.read(route, src.history)
            etag, modified = _validators(self.source, route, src.history)
            sha = _sha256(self.source, route, body)
        else:
            assert self.previous is not None
            name = f"{self.source.name(route, src.history)} (copia de la construcción anterior)"
            body = previous_body
            # its validators too: a conditional request then gets a 304 once upstream serves that file again
            etag, modified, sha = self.previous.files[route]
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError as e:
            raise BuildError(f"{name}: no es JSON válido ({e})") from None
        list_key, keyed = self.dataset.envelope_list, self.dataset.keyed_by
        records = publicados.records_of(data, list_key, keyed, self.dataset.single_record)
        if records is None:
            if list_key:
                what = "el objeto por id" if keyed else "la lista"
                raise BuildError(f"{name}: se esperaba un objeto con {what} «{list_key}»")
            expected = "un objeto (un registro)" if self.dataset.single_record else "una lista de registros"
            raise BuildError(f"{name}: se esperaba {expected} y llegó {type(data).__name__}")
        envelope = envelope_of(data, list_key, self.claimed_lists) if list_key else None
        self.rows.write(records, partition_values(self.dataset, src, route), self._route)
        if self.publishes and not src.history:
            self.published.append((self._route, self.layout.table, body))
        actualizado = None
        if envelope:
            actualizado = envelope.get("fechaActualizacion") or envelope.get("actualizado")
        self.fuentes.append(
            SourceFile(
                "/" + route,
                self.layout.table,
                name,
                len(records),
                len(body),
                sha,
                actualizado,
                orjson.dumps(envelope).decode() if envelope else None,
                etag,
                modified,
            )
        )
        return len(records)


def envelope_of(data: dict, list_key: str, claimed: set) -> dict:
    """What a file holds besides the lists datasets store.  When this dataset's list is not the file's
    last key, it stays in its place as null: the answer ``{**envelope, list_key: records}`` then keeps
    upstream's key order (/v1/diputados/recinto: asientos, then vacantes)."""
    envelope = {k: v for k, v in data.items() if k not in claimed}
    if list(data)[-1] != list_key and len(claimed & data.keys()) == 1:
        envelope = {k: (None if k == list_key else v) for k, v in data.items() if k not in claimed or k == list_key}
    return envelope


def _claimed_lists(dataset: Dataset) -> set:
    """The lists of a file that datasets store as their records: this one's and those of the other
    datasets reading the same files (the Senate's trips).  Everything else in the file, a list of
    vacant seats too, is its envelope."""
    routes = {s.route for s in dataset.sources}
    return {d.envelope_list for d in [dataset, *DATASETS] if d.envelope_list and routes & {s.route for s in d.sources}}


def _validators(source: Files, route: str, history: bool) -> tuple:
    return (None, None) if history else tuple(source.validators.get(route, (None, None)))


def _sha256(source: Files, route: str, body: bytes) -> str:
    """The file's checksum; a file an HTTP update took from the previous build keeps the one of its download."""
    return source.sha256(route) or hashlib.sha256(body).hexdigest()


# ---- the whole build -------------------------------------------------------------
