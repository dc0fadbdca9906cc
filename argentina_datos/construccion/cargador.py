"""One dataset of the catalogue, from its files to its tables: the loader the builder runs per dataset.

It reads each file of the dataset from the source, turns its records into rows with the dataset's
codec, writes them with their child and lookup tables, and notes every file in `fuentes`.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field
from itertools import repeat
from typing import Callable, Iterable, Optional

import orjson

from argentina_datos.almacen import calidad
from argentina_datos.almacen.propias import Fuente
from argentina_datos.almacen.registros import keyed_records
from argentina_datos.almacen.tablas import ChildLayout, Layout, quote
from argentina_datos.catalogo import DATASETS
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.construccion.fuentes import (
    PreviousBuild,
    SourceError,
    SourceUnreachable,
    Upstream,
    partition_values,
)


class BuildError(RuntimeError):
    """Bad input: the message names the file or URL, the record and the problem."""


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


class DatasetLoader:
    """Reads one dataset's files and writes its rows.

    A record that does not fit the catalogue is kept as it came and reported
    (``findings``).  Only a file that cannot be read as a list of records stops
    the dataset; with ``keep_going`` that file alone is skipped, and the records
    the ``previous`` build had from it are kept in its place (``failed`` lists it,
    so that the next build asks for it again).  ``stale`` names why the source
    could not even list this dataset's files: every file then comes from ``previous``.
    """

    def __init__(
        self,
        db: sqlite3.Connection,
        dataset: Dataset,
        source: Upstream,
        progress: Callable[[int], None],
        *,
        keep_going: bool = False,
        dates: Optional[calidad.DateChecker] = None,
        previous: Optional[PreviousBuild] = None,
        stale: Optional[str] = None,
    ):
        self.db = db
        self.previous = previous
        self.stale = stale
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
        self.failed: list[tuple[str, str]] = []  # (route, why) of each file that could not be read
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
                if self.stale:
                    raise SourceError(self.stale)
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
        finding = calidad.unreadable(self.layout.table, self._route, problem, kept)
        self.findings.append(finding)
        self.skipped_files.append(problem if kept is None else f"{problem} — {finding.detalle.rsplit(': ', 1)[1]}")
        return kept or 0

    def finish(self) -> None:
        for column, ids in self.lookup_ids.items():
            self.db.executemany(
                f"INSERT INTO {quote(self.layout.lookup_table(column))} (id, {quote(column)}) VALUES (?, ?)",
                [(i, v) for v, i in ids.items()],
            )

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
        envelope = None
        list_key = self.dataset.envelope_list
        if list_key:
            keyed = self.dataset.keyed_by
            if type(data) is not dict or type(data.get(list_key)) is not (dict if keyed else list):
                what = "el objeto por id" if keyed else "la lista"
                raise BuildError(f"{name}: se esperaba un objeto con {what} «{list_key}»")
            envelope = envelope_of(data, list_key, self.claimed_lists)
            records = keyed_records(data[list_key], keyed) if keyed else data[list_key]
        elif self.dataset.single_record:
            if type(data) is not dict:
                raise BuildError(f"{name}: se esperaba un objeto (un registro) y llegó {type(data).__name__}")
            records = [data]
        else:
            if type(data) is not list:
                raise BuildError(f"{name}: se esperaba una lista de registros y llegó {type(data).__name__}")
            records = data
        self._insert(records, partition_values(self.dataset, src, route))
        actualizado = None
        if envelope:
            actualizado = envelope.get("fechaActualizacion") or envelope.get("actualizado")
        self.fuentes.append(
            Fuente(
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

    def _insert(self, records: list, partitions: dict) -> None:
        layout = self.layout
        prefix = [
            self._lookup(p.name, partitions[p.name]) if p.name in layout.lookups else partitions[p.name]
            for p in layout.partition_only
        ]
        shared = {p.name: partitions[p.name] for p in self.dataset.partitions if p not in layout.partition_only}
        if not layout.has_children:
            columns = layout.codec.encode_columns(records)
            if columns is not None and self._insert_columns(records, prefix, shared, columns):
                return
        field_lookups = [i for i, c in enumerate(layout.field_columns) if c in layout.lookups]
        derived = [c.compute for c in self.dataset.derived.values()]
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
                    self._report(
                        calidad.PARTITION_MISMATCH,
                        i,
                        name,
                        record.get(name),
                        f"«{name}» vale {record.get(name)!r} pero el archivo es de {expected!r}",
                    )
            if field_lookups:
                looked_up = list(values)
                for j in field_lookups:
                    looked_up[j] = self._lookup(layout.field_columns[j], looked_up[j])
                values = tuple(looked_up)
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
        head: list[Iterable] = [repeat(value, n) for value in prefix]
        if self.dataset.ordered:
            head.append(range(n))
        derived = [list(map(c.compute, records)) for c in self.dataset.derived.values()]
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
        self._report(
            calidad.IMPOSSIBLE_DATE,
            at,
            field,
            value,
            f"«{field}» = {value!r} no es una fecha del calendario AAAA-MM-DD",
        )

    def _report(self, control: str, at: Optional[int], field: Optional[str], value, detail: str) -> None:
        self.findings.append(
            calidad.Finding(
                self.layout.table,
                control,
                self._route,
                None if at is None else at + 1,
                field,
                calidad.as_json(value),
                detail,
            )
        )

    def _lookup(self, column: str, value):
        ids = self.lookup_ids[column]
        found = ids.get(value)
        if found is None:
            if value is None:
                return None
            found = ids[value] = len(ids) + 1
        return found


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


def _validators(source: Upstream, route: str, history: bool) -> tuple:
    return (None, None) if history else tuple(source.validators.get(route, (None, None)))


def _sha256(source: Upstream, route: str, body: bytes) -> str:
    """The file's checksum; a file an HTTP update took from the previous build keeps the one of its download."""
    return source.sha256(route) or hashlib.sha256(body).hexdigest()


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
