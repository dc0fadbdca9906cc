"""Build every dataset of the catalogue into one SQLite file, atomically.

The database is written to a temporary file beside the output, checked, and
only then renamed over the output: a failed build leaves the previous file
exactly as it was.
"""
from __future__ import annotations

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

from . import __version__
from .catalogo import DATASETS
from .esquema import Dataset
from .fuentes import SourceError, partition_values
from .registros import BadRecord
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


@dataclass
class Outcome:
    table: str
    rows: int = 0
    files: int = 0
    seconds: float = 0.0
    missing: bool = False
    error: Optional[str] = None


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    unchanged: bool = False

    @property
    def skipped(self):
        return [o for o in self.outcomes if o.error]

    @property
    def missing(self):
        return [o for o in self.outcomes if o.missing]


def catalogue_fingerprint() -> str:
    """Changes whenever the code that decides the database's shape changes."""
    h = hashlib.sha256(__version__.encode())
    for p in sorted(Path(__file__).parent.glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()


class DatasetLoader:
    """Reads one dataset's files and writes its rows."""

    def __init__(self, db: sqlite3.Connection, dataset: Dataset, source, progress: Callable[[int], None]):
        self.db = db
        self.dataset = dataset
        self.layout = Layout(dataset)
        self.source = source
        self.progress = progress
        self.next_id = {c.table: 1 for c in self.layout.all_children()}
        self.next_id[self.layout.table] = 1
        self.lookup_ids: dict[str, dict] = {c: {} for c in self.layout.lookups}
        self.children_by_member = {id(c.member): c for c in self.layout.all_children()}
        self.fuentes: list[Fuente] = []

    def load(self, routes) -> int:
        for statement in self.layout.create_sql():
            self.db.execute(statement)
        total = 0
        for src, route in routes:
            total += self._load_file(src, route)
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
            if type(data) is not dict or type(data.get(list_key)) is not list:
                raise BuildError(f"{name}: se esperaba un objeto con la lista «{list_key}»")
            envelope = {k: v for k, v in data.items() if type(v) is not list}
            records = data[list_key]
        else:
            if type(data) is not list:
                raise BuildError(f"{name}: se esperaba una lista de registros y llegó {type(data).__name__}")
            records = data
        if not records:
            raise BuildError(f"{name}: la lista de registros está vacía")
        partitions = partition_values(self.dataset, src, route)
        try:
            self._insert(records, partitions)
        except BadRecord as e:
            raise BuildError(f"{name}: registro {self._at + 1}: {e}") from None
        if self.dataset.unique:
            # the unique index is only built at the end: here the record can still be named
            repeated = self._repeated_key(records)
            if repeated:
                raise BuildError(f"{name}: {repeated}")
        actualizado = None
        if envelope:
            actualizado = envelope.get("fechaActualizacion") or envelope.get("actualizado")
        self.fuentes.append(Fuente(
            "/" + route, self.layout.table, name, len(records), len(body), hashlib.sha256(body).hexdigest(),
            actualizado, orjson.dumps(envelope).decode() if envelope else None,
        ))
        return len(records)

    def _insert(self, records: list, partitions: dict) -> None:
        layout = self.layout
        prefix = []
        for p in layout.partition_only:
            value = partitions[p.name]
            prefix.append(self._lookup(p.name, value) if p.name in layout.lookups else value)
        shared = {p.name: partitions[p.name] for p in self.dataset.partitions if p not in layout.partition_only}
        if not layout.has_children and layout.codec is not None:
            columns = layout.codec.encode_columns(records)
            if columns is not None and self._insert_columns(records, prefix, shared, columns):
                return
        field_lookups = [i for i, c in enumerate(layout.field_columns) if c in layout.lookups]
        derived = list(self.dataset.derived.values())
        ordered = self.dataset.ordered
        rows = []
        child_rows: dict[str, list] = {}
        for i, record in enumerate(records):
            self._at = i
            if self.dataset.scalar_records:
                values = (self._scalar(record),)
                children = ()
            else:
                values, children = layout.codec.encode(record)
            for name, expected in shared.items():
                if record.get(name) != expected:
                    raise BadRecord(f"«{name}» vale {record.get(name)!r} pero el archivo es de {expected!r}", name)
            if field_lookups:
                values = list(values)
                for j in field_lookups:
                    values[j] = self._lookup(layout.field_columns[j], values[j])
            row = prefix + [i] if ordered else list(prefix)
            if layout.has_children:
                parent_id = self.next_id[layout.table]
                self.next_id[layout.table] += 1
                row.insert(0, parent_id)
                self._collect_children(children, parent_id, child_rows)
            row.extend(values)
            for fn in derived:
                row.append(fn(record))
            rows.append(row)
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

        Returns False, having written nothing, when a value needs that loop to
        name the record at fault.
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

    def _repeated_key(self, records: list) -> Optional[str]:
        key = self.dataset.unique
        seen: dict = {}
        for i, record in enumerate(records):
            k = tuple(record.get(c) for c in key)
            if k in seen:
                shown = ", ".join(f"{c}={v!r}" for c, v in zip(key, k))
                return f"registro {i + 1}: clave repetida ({shown}), ya estaba en el registro {seen[k] + 1}"
            seen[k] = i
        return None

    def _collect_children(self, children, parent_id, out) -> None:
        for member, items in children:
            child: ChildLayout = self.children_by_member[id(member)]
            for pos, item in enumerate(items):
                try:
                    values, grandchildren = child.codec.encode(item)
                except BadRecord as e:
                    raise BadRecord(f"{member.name}[{pos}]: {e}", e.path) from None
                own_id = self.next_id[child.table]
                self.next_id[child.table] += 1
                out.setdefault(child.table, []).append((own_id, parent_id, pos, *values))
                self._collect_children(grandchildren, own_id, out)

    def _scalar(self, value):
        kind = self.dataset.fields[0]
        if type(value) is not str:
            raise BadRecord(f"se esperaba texto y llegó {value!r}", kind.name)
        return value

    def _lookup(self, column: str, value):
        ids = self.lookup_ids[column]
        found = ids.get(value)
        if found is None:
            if value is None:
                if self.layout.lookup_nullable(column):
                    return None
                raise BadRecord(f"«{column}» no puede ser null", column)
            found = ids[value] = len(ids) + 1
        return found


# ---- the whole build -------------------------------------------------------------
class Builder:
    def __init__(self, source, output: str | os.PathLike, *, keep_going: bool = False,
                 datasets: list[Dataset] | None = None, reporter=None):
        self.source = source
        self.output = Path(output)
        self.keep_going = keep_going
        self.datasets = datasets or DATASETS
        self.reporter = reporter

    def plan(self) -> list[tuple[Dataset, list]]:
        plan = []
        self.plan_errors: dict[str, str] = {}
        if self.reporter and hasattr(self.source, "progress"):
            self.source.progress = self.reporter.download
        for ds in self.datasets:
            routes = []
            try:
                for src in ds.sources:
                    routes.extend((src, r) for r in self.source.expand(ds, src))
            except SourceError as e:
                if not self.keep_going:
                    raise BuildError(str(e)) from None
                self.plan_errors[ds.table] = str(e)
            plan.append((ds, routes))
        return plan

    def fingerprint(self, plan) -> str:
        h = hashlib.sha256(catalogue_fingerprint().encode())
        for ds, routes in plan:
            for src, route in routes:
                h.update(f"{ds.table}\0{route}\0".encode())
                try:
                    body = self.source.read(route, src.history)
                except SourceError as e:  # reported when the dataset is loaded
                    body = str(e).encode()
                h.update(hashlib.sha256(body).digest())
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
        plan = self.plan()
        if not any(routes for _, routes in plan) and not self.plan_errors:
            raise BuildError(f"{self.source.description}: la fuente no tiene ninguno de los conjuntos de datos del catálogo")
        fingerprint = self.fingerprint(plan)
        report = Report()
        if not force and fingerprint == self.existing_fingerprint():
            report.unchanged = True
            return report
        self.output.parent.mkdir(parents=True, exist_ok=True)
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
                loader = DatasetLoader(db, ds, self.source, self._progress_for(ds, len(routes)))
                db.execute("BEGIN")
                try:
                    outcome.rows = loader.load(routes)
                    loader.finish()
                    db.execute("COMMIT")
                except (BuildError, SourceError) as e:
                    db.execute("ROLLBACK")
                    if not self.keep_going:
                        raise BuildError(str(e)) from None
                    outcome.error = str(e)
                    self._say(outcome)
                    continue
                outcome.seconds = time.perf_counter() - start
                fuentes.extend(loader.fuentes)
                loaded.append(loader.layout)
                self._say(outcome)
            # a build that skipped datasets is incomplete: the next run must not call it up to date
            self._finish(db, loaded, fuentes, "" if report.skipped else fingerprint)
            self._check(db, loaded)
        finally:
            db.close()

    def _finish(self, db: sqlite3.Connection, layouts: list[Layout], fuentes: list[Fuente], fingerprint: str):
        db.execute("BEGIN")
        for layout in layouts:
            for statement in layout.index_sql():
                try:
                    db.execute(statement)
                except sqlite3.IntegrityError as e:  # a key repeated across files
                    raise BuildError(f"{layout.table}: clave repetida entre archivos ({e})") from None
            view = layout.view_sql()
            if view:
                db.execute(view)
        db.execute(
            "CREATE TABLE fuentes (id INTEGER PRIMARY KEY, ruta TEXT NOT NULL, tabla TEXT NOT NULL, "
            "archivo TEXT NOT NULL, registros INTEGER NOT NULL, bytes INTEGER NOT NULL, sha256 TEXT NOT NULL, "
            "actualizado TEXT, envoltorio TEXT, UNIQUE (ruta, tabla))"
        )
        db.executemany(
            "INSERT INTO fuentes (ruta, tabla, archivo, registros, bytes, sha256, actualizado, envoltorio) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(f.ruta, f.tabla, f.archivo, f.registros, f.bytes, f.sha256, f.actualizado, f.envoltorio) for f in fuentes],
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
        db.execute("ANALYZE")
        # Pages filled by inserts into a WITHOUT ROWID table are ~85% full; VACUUM
        # rewrites them full, about a tenth off the file, for a fraction of a second.
        db.execute("VACUUM")

    def _check(self, db: sqlite3.Connection, layouts: list[Layout]) -> None:
        result = db.execute("PRAGMA integrity_check").fetchone()[0]
        if result != "ok":
            raise BuildError(f"la base construida no pasa PRAGMA integrity_check: {result}")
        for layout in layouts:
            if not db.execute(f"SELECT 1 FROM {quote(layout.table)} LIMIT 1").fetchone():
                raise BuildError(f"{layout.table}: la fuente tiene archivos pero la tabla quedó vacía")

    # ---- reporting -------------------------------------------------------------
    def _progress_for(self, ds: Dataset, total: int):
        if self.reporter:
            return self.reporter.start(ds.table, total)
        return lambda n: None

    def _say(self, outcome: Outcome) -> None:
        if self.reporter:
            self.reporter.done(outcome)
