"""Build every dataset of the catalogue into one SQLite file, atomically.

The database is written to a temporary file beside the output, checked, and
only then renamed over the output: a failed build leaves the previous file
exactly as it was.
"""
from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Callable, Optional

import orjson
import sqlite_utils

from . import __version__, calidad, documentos, versiones
from .catalogo import DATASETS
from .esquema import Dataset
from .fuentes import ABSENT_TABLE, DirectorySource, SourceError, SourceUnreachable, partition_values
from .registros import keyed_records
from .rutas import Router
from .tablas import ChildLayout, Layout, quote

FTS_TOKENIZE = "unicode61 remove_diacritics 2"
# Written last by every build: its presence marks a database as an argentina-datos build.
BUILD_TABLE = "_construccion"


class BuildError(RuntimeError):
    """Bad input: the message names the file or URL, the record and the problem."""


@dataclass
class Fuente:
    ruta: str
    tabla: str
    archivo: str
    registros: int
    bytes: int
    sha256: str
    actualizado: Optional[str]
    envoltorio: Optional[str]
    etag: Optional[str] = None
    modificado: Optional[str] = None  # HTTP Last-Modified


@dataclass
class Outcome:
    table: str
    rows: int = 0
    files: int = 0
    seconds: float = 0.0
    missing: bool = False
    error: Optional[str] = None  # the whole dataset was skipped (--keep-going)
    skipped_files: list[str] = field(default_factory=list)  # files skipped (--keep-going), with why


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    unchanged: bool = False
    findings: list[calidad.Finding] = field(default_factory=list)

    @property
    def skipped(self):
        return [o for o in self.outcomes if o.error]

    @property
    def skipped_files(self) -> list[str]:
        return [f for o in self.outcomes for f in o.skipped_files]

    @property
    def complete(self) -> bool:
        return not (self.skipped or self.skipped_files)

    @property
    def missing(self):
        return [o for o in self.outcomes if o.missing]


def catalogue_fingerprint() -> str:
    """Changes whenever the code that decides the database's shape changes."""
    h = hashlib.sha256(__version__.encode())
    for p in sorted(Path(__file__).parent.rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()


class DatasetLoader:
    """Reads one dataset's files and writes its rows.

    A record that does not fit the catalogue is kept as it came and reported
    (``findings``).  Only a file that cannot be read as a list of records stops
    the dataset; with ``keep_going`` that file alone is skipped.
    """

    def __init__(self, db: sqlite3.Connection, dataset: Dataset, source, progress: Callable[[int], None],
                 *, keep_going: bool = False, dates: Optional[calidad.DateChecker] = None):
        self.db = db
        self.dataset = dataset
        self.layout = Layout(dataset)
        self.source = source
        self.progress = progress
        self.keep_going = keep_going
        self.dates = dates or calidad.DateChecker()
        self.next_id = {c.table: 1 for c in self.layout.all_children()}
        self.next_id[self.layout.table] = 1
        self.lookup_ids: dict[str, dict] = {c: {} for c in self.layout.lookups}
        self.children_by_member = {id(c.member): c for c in self.layout.all_children()}
        self.fuentes: list[Fuente] = []
        self.findings: list[calidad.Finding] = []
        self.skipped_files: list[str] = []
        self._date_columns = _date_positions(self.layout.codec)
        self._route = ""
        self.claimed_lists = _claimed_lists(dataset)

    def load(self, routes) -> int:
        for statement in self.layout.create_sql():
            self.db.execute(statement)
        total = 0
        for src, route in routes:
            self.db.execute("SAVEPOINT archivo")
            try:
                total += self._load_file(src, route)
            except (BuildError, SourceError) as e:
                self.db.execute("ROLLBACK TO archivo")
                if not self.keep_going or isinstance(e, SourceUnreachable):
                    raise
                self.skipped_files.append(str(e))
            self.db.execute("RELEASE archivo")
            self.progress(1)
        return total

    def finish(self) -> None:
        for column, ids in self.lookup_ids.items():
            self.db.executemany(
                f"INSERT INTO {quote(self.layout.lookup_table(column))} (id, {quote(column)}) VALUES (?, ?)",
                [(i, v) for v, i in ids.items()],
            )

    # ---- one file --------------------------------------------------------------
    def _load_file(self, src, route: str) -> int:
        name = self.source.name(route, src.history)
        body = self.source.read(route, src.history)
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError as e:
            raise BuildError(f"{name}: no es JSON válido ({e})") from None
        envelope = None
        list_key = self.dataset.envelope_list
        if list_key:
            keyed = self.dataset.keyed_by
            if type(data) is not dict or type(data.get(list_key)) is not (dict if keyed else list):
                what = "el objeto por id" if keyed else "la lista"
                raise BuildError(f"{name}: se esperaba un objeto con {what} «{list_key}»")
            envelope = {k: v for k, v in data.items() if k not in self.claimed_lists}
            records = keyed_records(data[list_key], keyed) if keyed else data[list_key]
        elif self.dataset.single_record:
            if type(data) is not dict:
                raise BuildError(f"{name}: se esperaba un objeto (un registro) y llegó {type(data).__name__}")
            records = [data]
        else:
            if type(data) is not list:
                raise BuildError(f"{name}: se esperaba una lista de registros y llegó {type(data).__name__}")
            records = data
        self._route = "/" + route
        self._insert(records, partition_values(self.dataset, src, route))
        actualizado = None
        if envelope:
            actualizado = envelope.get("fechaActualizacion") or envelope.get("actualizado")
        etag, modified = _validators(self.source, route, src.history)
        self.fuentes.append(Fuente(
            "/" + route, self.layout.table, name, len(records), len(body), _sha256(self.source, route, body),
            actualizado, orjson.dumps(envelope).decode() if envelope else None, etag, modified,
        ))
        return len(records)

    def _insert(self, records: list, partitions: dict) -> None:
        layout = self.layout
        prefix = [self._lookup(p.name, partitions[p.name]) if p.name in layout.lookups else partitions[p.name]
                  for p in layout.partition_only]
        shared = {p.name: partitions[p.name] for p in self.dataset.partitions if p not in layout.partition_only}
        if not layout.has_children:
            columns = layout.codec.encode_columns(records)
            if columns is not None and self._insert_columns(records, prefix, shared, columns):
                return
        field_lookups = [i for i, c in enumerate(layout.field_columns) if c in layout.lookups]
        derived = list(self.dataset.derived.values())
        ordered = self.dataset.ordered
        rows = []
        child_rows: dict[str, list] = {}
        encoded = []
        for i, record in enumerate(records):
            values, children, deviations = layout.codec.encode(record)
            encoded.append(values)
            for d in deviations:
                self._report(d.problem, i, d.field or None, d.value, d.describe())
            for name, expected in shared.items():
                if type(record) is dict and record.get(name) != expected:
                    self._report(calidad.PARTITION_MISMATCH, i, name, record.get(name),
                                 f"«{name}» vale {record.get(name)!r} pero el archivo es de {expected!r}")
            if field_lookups:
                values = list(values)
                for j in field_lookups:
                    values[j] = self._lookup(layout.field_columns[j], values[j])
            row = prefix + [i] if ordered else list(prefix)
            if layout.has_children:
                parent_id = self.next_id[layout.table]
                self.next_id[layout.table] += 1
                row.insert(0, parent_id)
                self._collect_children(children, parent_id, child_rows, (), i)
            row.extend(values)
            for fn in derived:
                row.append(_derive(fn, record))
            rows.append(row)
        self._check_dates(layout.codec, encoded, None)
        cols = layout.insert_columns
        self.db.executemany(
            f"INSERT INTO {quote(layout.table)} ({', '.join(map(quote, cols))}) VALUES ({', '.join('?' * len(cols))})",
            rows,
        )
        for child in layout.all_children():
            if child.table in child_rows:
                cols = child.insert_columns
                self.db.executemany(
                    f"INSERT INTO {quote(child.table)} ({', '.join(map(quote, cols))}) "
                    f"VALUES ({', '.join('?' * len(cols))})",
                    child_rows[child.table],
                )

    def _insert_columns(self, records: list, prefix: list, shared: dict, columns: list[list]) -> bool:
        """What the record-by-record loop of ``_insert`` does, a column at a time.

        Returns False, having written nothing, when a record needs that loop to
        be reported.
        """
        layout = self.layout
        n = len(records)
        for name, expected in shared.items():
            if columns[layout.field_columns.index(name)].count(expected) != n:
                return False
        for j, column_name in enumerate(layout.field_columns):
            if column_name in layout.lookups:
                ids = self.lookup_ids[column_name]
                for value in dict.fromkeys(columns[j]):  # ids in order of first appearance
                    if value not in ids and value is not None:
                        ids[value] = len(ids) + 1
                columns[j] = list(map(ids.get, columns[j]))
        for j, column_name in self._date_columns:
            for i in self.dates.bad_positions(columns[j]):
                self._report_date(i, column_name, columns[j][i])
        head = [repeat(value, n) for value in prefix]
        if self.dataset.ordered:
            head.append(range(n))
        derived = [list(map(fn, records)) for fn in self.dataset.derived.values()]
        cols = layout.insert_columns
        self.db.executemany(
            f"INSERT INTO {quote(layout.table)} ({', '.join(map(quote, cols))}) VALUES ({', '.join('?' * len(cols))})",
            zip(*head, *columns, *derived),
        )
        return True

    def _collect_children(self, children, parent_id, out, prefix: tuple, record_at: int) -> None:
        for member, items in children:
            child: ChildLayout = self.children_by_member[id(member)]
            encoded = []
            for pos, item in enumerate(items):
                values, grandchildren, deviations = child.codec.encode(item)
                encoded.append(values)
                where = prefix + (f"{'.'.join(child.path)}[{pos}]",)
                for d in deviations:
                    field = ".".join(where + d.path)
                    self._report(d.problem, record_at, field, d.value, f"{'.'.join(where)}: {d.describe()}")
                own_id = self.next_id[child.table]
                self.next_id[child.table] += 1
                out.setdefault(child.table, []).append((own_id, parent_id, pos, *values))
                self._collect_children(grandchildren, own_id, out, where, record_at)
            self._check_dates(child.codec, encoded, record_at, ".".join(prefix + child.path))

    def _check_dates(self, codec, rows: list[tuple], record_at: Optional[int], prefix: str = "") -> None:
        for j, column_name in _date_positions(codec):
            column = [r[j] for r in rows]
            for i in self.dates.bad_positions(column):
                field = f"{prefix}[{i}].{column_name}" if prefix else column_name
                self._report_date(i if record_at is None else record_at, field, column[i])

    def _report_date(self, at: int, field: str, value) -> None:
        self._report(calidad.IMPOSSIBLE_DATE, at, field, value,
                     f"«{field}» = {value!r} no es una fecha del calendario AAAA-MM-DD")

    def _report(self, control: str, at: Optional[int], field: Optional[str], value, detail: str) -> None:
        self.findings.append(calidad.Finding(
            self.layout.table, control, self._route, None if at is None else at + 1, field,
            calidad.as_json(value), detail,
        ))

    def _lookup(self, column: str, value):
        ids = self.lookup_ids[column]
        found = ids.get(value)
        if found is None:
            if value is None:
                return None
            found = ids[value] = len(ids) + 1
        return found


def _claimed_lists(dataset: Dataset) -> set:
    """The lists of a file that datasets store as their records: this one's and those of the other
    datasets reading the same files (the Senate's trips).  Everything else in the file, a list of
    vacant seats too, is its envelope."""
    routes = {s.route for s in dataset.sources}
    return {d.envelope_list for d in [dataset, *DATASETS]
            if d.envelope_list and routes & {s.route for s in d.sources}}


def _validators(source, route: str, history: bool) -> tuple:
    validators = getattr(source, "validators", {})
    return (None, None) if history else tuple(validators.get(route, (None, None)))


def _sha256(source, route: str, body: bytes) -> str:
    """The file's checksum; a file an HTTP update took from the previous build keeps the one of its download."""
    known = getattr(source, "sha256", None)
    return (known(route) if callable(known) else None) or hashlib.sha256(body).hexdigest()


def _date_positions(codec) -> list[tuple[int, str]]:
    return [(j, name) for j, (name, f) in enumerate(codec.columns) if f.is_date]


def _derive(fn, record):
    """A derived column of a record that is not what the catalogue expects is NULL (the record
    itself is kept, and reported, by the codec)."""
    try:
        return fn(record)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None


# ---- the whole build -------------------------------------------------------------
class Builder:
    def __init__(self, source, output: str | os.PathLike, *, keep_going: bool = False,
                 datasets: list[Dataset] | None = None, reporter=None, today: Optional[dt.date] = None):
        self.source = source
        self.output = Path(output)
        self.keep_going = keep_going
        self.datasets = datasets or DATASETS
        self.today = today or dt.datetime.now(dt.timezone.utc).date()
        # Files no dataset claims are kept as documents only in a build of the whole catalogue.
        self.all_datasets = datasets is None
        # ... and its table is there even empty when the source lists its files (a directory, not HTTP):
        # a mirror the catalogue describes whole has an empty documents table, not a missing one.
        self.keeps_documents = self.all_datasets and isinstance(source, DirectorySource)
        self.documents: list[str] = []
        self.reporter = reporter

    def plan(self) -> list[tuple[Dataset, list]]:
        plan = []
        self.plan_errors: dict[str, str] = {}
        if self.reporter and hasattr(self.source, "progress"):
            self.source.progress = self.reporter.download
        self.changes: list[tuple] = []
        versions: dict[str, versiones.Version] = {}
        for ds in self.datasets:
            routes = []
            try:
                for src in ds.sources:
                    routes.extend((src, r) for r in self.source.expand(ds, src))
                if ds.versions_of:
                    found = versiones.plan_versions(ds, [r for _, r in routes], self.source, self.output, self.today)
                    versions.update((v.route, v) for v in found)
                    routes = [(ds.sources[0], v.route) for v in found]
                    self.changes += versiones.changes(ds, found, self.source)
            except SourceError as e:
                if not self.keep_going or isinstance(e, SourceUnreachable):
                    raise BuildError(str(e)) from None
                self.plan_errors[ds.table] = str(e)
            plan.append((ds, routes))
        self.source = versiones.VersionedSource(self.source, versions) if versions else self.source
        claimed = {route for _, routes in plan for src, route in routes if not src.history}
        self.documents = []
        if self.all_datasets:
            # Routes a /v1 endpoint derives from stored rows (a senator's trips) are not documents.
            router = Router()
            self.documents = [r for r in self.source.unclaimed(claimed) if router.match_strict("/" + r) is None]
        return plan

    def fingerprint(self, plan) -> str:
        h = hashlib.sha256(catalogue_fingerprint().encode())
        for ds, routes in plan:
            for src, route in routes:
                h.update(f"{ds.table}\0{route}\0".encode())
                try:
                    stamp = self.source.stamp(route, src.history)
                except SourceError as e:  # reported when the dataset is loaded
                    stamp = str(e).encode()
                h.update(stamp)
        for route in self.documents:
            h.update(f"{documentos.TABLE}\0{route}\0".encode() + self.source.stamp(route))
        return h.hexdigest()

    def existing_fingerprint(self) -> Optional[str]:
        if not self.output.exists():
            return None
        try:
            with sqlite3.connect(f"file:{self.output}?mode=ro", uri=True) as con:
                row = con.execute(f"SELECT valor FROM {BUILD_TABLE} WHERE clave = 'huella'").fetchone()
            return row[0] if row else None
        except sqlite3.Error:
            return None

    def run(self, force: bool = False) -> Report:
        self.output.parent.mkdir(parents=True, exist_ok=True)
        with BuildLock(self.output):
            self._remove_stale_temporaries()
            return self._run(force)

    def _remove_stale_temporaries(self) -> None:
        """Left by a build that was killed: under the lock no other build can be writing them."""
        for stale in self.output.parent.glob(self.output.name + ".tmp-*"):
            stale.unlink(missing_ok=True)

    def _run(self, force: bool) -> Report:
        plan = self.plan()
        if not any(routes for _, routes in plan) and not self.plan_errors:
            raise BuildError(f"{self.source.description}: la fuente no tiene ninguno de los conjuntos de datos del catálogo")
        fingerprint = self.fingerprint(plan)
        report = Report()
        if not force and fingerprint == self.existing_fingerprint():
            report.unchanged = True
            return report
        fd, tmp = tempfile.mkstemp(prefix=self.output.name + ".tmp-", dir=self.output.parent)
        os.close(fd)
        try:
            self._build(tmp, plan, fingerprint, report)
            os.chmod(tmp, self._mode())
            os.replace(tmp, self.output)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        return report

    def _mode(self) -> int:
        """mkstemp makes the file private (0600): keep the previous output's mode, else follow the umask."""
        try:
            return self.output.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            return 0o666 & ~umask

    def _build(self, path: str, plan, fingerprint: str, report: Report) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = MEMORY")
            db.execute("PRAGMA synchronous = OFF")
            db.execute("PRAGMA foreign_keys = OFF")
            fuentes: list[Fuente] = []
            loaded: list[Layout] = []
            dates = calidad.DateChecker()
            for ds, routes in plan:
                outcome = Outcome(ds.table, files=len(routes))
                report.outcomes.append(outcome)
                if ds.table in self.plan_errors:
                    outcome.error = self.plan_errors[ds.table]
                    self._say(outcome)
                    continue
                if not routes:
                    outcome.missing = True
                    self._say(outcome)
                    continue
                start = time.perf_counter()
                loader = DatasetLoader(db, ds, self.source, self._progress_for(ds, len(routes)),
                                       keep_going=self.keep_going, dates=dates)
                db.execute("BEGIN")
                try:
                    outcome.rows = loader.load(routes)
                    loader.finish()
                    db.execute("COMMIT")
                except (BuildError, SourceError) as e:
                    db.execute("ROLLBACK")
                    if not self.keep_going or isinstance(e, SourceUnreachable):
                        raise BuildError(str(e)) from None
                    outcome.error = str(e)
                    self._say(outcome)
                    continue
                outcome.seconds = time.perf_counter() - start
                outcome.skipped_files = loader.skipped_files
                fuentes.extend(loader.fuentes)
                report.findings.extend(loader.findings)
                loaded.append(loader.layout)
                self._say(outcome)
                self._warn(loader.findings)
            self._link(db, loaded)
            if self.documents:
                self._load_documents(db, fuentes, report)
            elif self.keeps_documents:
                db.execute(documentos.create_sql())
            # a build that skipped anything is incomplete: the next run must not call it up to date
            self._finish(db, loaded, fuentes, fingerprint if report.complete else "", report)
            self._check(db, loaded)
        finally:
            db.close()

    @staticmethod
    def _link(db: sqlite3.Connection, layouts: list[Layout]) -> None:
        """Columns the records do not carry (Dataset.links), now that every table they read is built."""
        db.execute("BEGIN")
        for layout in layouts:
            for link in layout.dataset.links:
                db.executemany(
                    f"UPDATE {quote(link.table)} SET {quote(link.column)} = ? WHERE {layout.link_key(link)} = ?",
                    [(value, row) for row, value in link.resolve(db) if value is not None])
        db.execute("COMMIT")

    def _load_documents(self, db: sqlite3.Connection, fuentes: list[Fuente], report: Report) -> None:
        outcome = Outcome(documentos.TABLE, files=len(self.documents))
        report.outcomes.append(outcome)
        start = time.perf_counter()
        advance = self._progress_for_table(documentos.TABLE, len(self.documents))
        db.execute("BEGIN")
        db.execute(documentos.create_sql())
        for route in self.documents:
            name = self.source.name(route)
            try:
                body = self.source.read(route)
                count = documentos.parse_check(name, body)
                text = body.decode("utf-8")
            except (SourceError, ValueError) as e:
                if not self.keep_going:
                    db.execute("ROLLBACK")
                    raise BuildError(str(e)) from None
                outcome.skipped_files.append(str(e))
                continue
            db.execute(f"INSERT INTO {documentos.TABLE} (ruta, json) VALUES (?, ?)", ["/" + route, text])
            fuentes.append(Fuente("/" + route, documentos.TABLE, name, count, len(body), documentos.sha256(body),
                                  None, None))
            outcome.rows += 1
            advance(1)
        db.execute("COMMIT")
        outcome.seconds = time.perf_counter() - start
        self._say(outcome)

    def _finish(self, db: sqlite3.Connection, layouts: list[Layout], fuentes: list[Fuente], fingerprint: str,
                report: Report):
        db.execute("BEGIN")
        for layout in layouts:
            repeated = _repeated_keys(db, layout)
            report.findings.extend(repeated)
            self._warn(repeated)
            for statement in layout.index_sql(unique=not repeated):
                db.execute(statement)
            view = layout.view_sql()
            if view:
                db.execute(view)
        db.execute(calidad.create_sql())
        calidad.insert(db, report.findings)
        db.execute(f"CREATE TABLE {ABSENT_TABLE} (ruta TEXT PRIMARY KEY, consultado TEXT NOT NULL)")
        db.executemany(f"INSERT INTO {ABSENT_TABLE} VALUES (?, ?)", sorted(getattr(self.source, "absent", {}).items()))
        db.execute(versiones.create_sql())
        db.executemany(f"INSERT INTO {versiones.TABLE} (tabla, fecha, anterior, agregados, quitados, cambiados, clave) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)", self.changes)
        db.execute(
            "CREATE TABLE fuentes (id INTEGER PRIMARY KEY, ruta TEXT NOT NULL, tabla TEXT NOT NULL, "
            "archivo TEXT NOT NULL, registros INTEGER NOT NULL, bytes INTEGER NOT NULL, sha256 TEXT NOT NULL, "
            "actualizado TEXT, envoltorio TEXT, etag TEXT, modificado TEXT, UNIQUE (ruta, tabla))"
        )
        db.executemany(
            "INSERT INTO fuentes (ruta, tabla, archivo, registros, bytes, sha256, actualizado, envoltorio, etag, "
            "modificado) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(f.ruta, f.tabla, f.archivo, f.registros, f.bytes, f.sha256, f.actualizado, f.envoltorio, f.etag,
              f.modificado) for f in fuentes],
        )
        db.execute(f"CREATE TABLE {BUILD_TABLE} (clave TEXT PRIMARY KEY, valor TEXT)")
        db.executemany(f"INSERT INTO {BUILD_TABLE} VALUES (?, ?)", [
            ("huella", fingerprint),
            ("fuente", self.source.description),
            ("construido", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
            ("version", __version__),
        ])
        db.execute("COMMIT")
        lite = sqlite_utils.Database(db)
        for layout in layouts:
            for table, columns in layout.fts_targets():
                lite[table].enable_fts(columns, tokenize=FTS_TOKENIZE)
                lite[table].populate_fts(columns)
        # Statistics from a sample of each index are as good for our few queries, at a fraction of the time.
        db.execute("PRAGMA analysis_limit = 1000")
        db.execute("ANALYZE")
        # Pages filled by inserts into a WITHOUT ROWID table are ~85% full; VACUUM
        # rewrites them full, about a tenth off the file, for a fraction of a second.
        # Without a journal: in MEMORY mode VACUUM kept a copy of every page in RAM (peak RSS
        # 183 MB -> 737 MB for twice the FCI dates); a failed build discards this file anyway.
        db.execute("PRAGMA journal_mode = OFF")
        db.execute("PRAGMA temp_store = FILE")
        db.execute("VACUUM")

    def _check(self, db: sqlite3.Connection, layouts: list[Layout]) -> None:
        # quick_check: every page and record well formed (0.3 s); integrity_check would also match each
        # index against its table (0.7 s), which a file written in one go by SQLite itself does not need.
        result = db.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            raise BuildError(f"la base construida no pasa PRAGMA quick_check: {result}")

    # ---- reporting -------------------------------------------------------------
    def _progress_for(self, ds: Dataset, total: int):
        return self._progress_for_table(ds.table, total)

    def _progress_for_table(self, table: str, total: int):
        if self.reporter:
            return self.reporter.start(table, total)
        return lambda n: None

    def _say(self, outcome: Outcome) -> None:
        if self.reporter:
            self.reporter.done(outcome)

    def _warn(self, findings: list[calidad.Finding]) -> None:
        if self.reporter and findings:
            for line in calidad.summary(findings):
                self.reporter.warn(line)


def _repeated_keys(db: sqlite3.Connection, layout: Layout) -> list[calidad.Finding]:
    """Records sharing the natural key (in one file or across files): kept, and reported."""
    key = layout.dataset.unique
    if not key:
        return []
    stored = ", ".join(quote(layout.stored(c)) for c in key)
    # NULL keys are no key (a UNIQUE index allows them): records that lack one are reported as such.
    present = " AND ".join(f"{quote(layout.stored(c))} IS NOT NULL" for c in key)
    rows = db.execute(
        f"SELECT {stored}, count(*) FROM {quote(layout.table)} WHERE {present} GROUP BY {stored} HAVING count(*) > 1"
    ).fetchall()
    return [
        calidad.Finding(layout.table, calidad.REPEATED_KEY, None, None, ", ".join(key),
                        calidad.as_json(list(r[:-1])),
                        f"{r[-1]} registros comparten la clave ("
                        + ", ".join(f"{c}={v!r}" for c, v in zip(key, r[:-1])) + ")")
        for r in rows
    ]


class BuildLock:
    """One build at a time per output file: a second one is refused, naming the first."""

    def __init__(self, output: Path):
        self.path = output.with_name(output.name + ".lock")
        self.fd: Optional[int] = None

    def __enter__(self):
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
                os.close(fd)
                raise BuildError(f"{self.path.with_suffix('')}: otra construcción está en curso (pid {holder}); "
                                 "espere a que termine") from None
            # The previous holder may have removed the file between our open and our lock.
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc):
        self.path.unlink(missing_ok=True)
        os.close(self.fd)
        return False
