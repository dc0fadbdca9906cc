"""Records to rows, in one place: the rows of a dataset's main table, of its child tables (nested lists)
and of its lookup tables (repeated texts as ids), and what each record did not fit (a finding for the
calidad table).  The builder's loader reads the files (and stores them as they came); this writes their
projection for SQL.

The column-at-a-time path (Codec.encode_columns, _insert_columns) is what makes the big datasets fast
(benchmarks/bench_codificador.py: about 1.5-2x on fci_valores); tests/test_registros_columnas.py pins it to the
record-by-record one.
"""

from __future__ import annotations

import operator
import sqlite3
from itertools import compress, repeat
from typing import Optional, Sequence

from argentina_datos.almacen import calidad
from argentina_datos.almacen.tablas import ChildLayout, Layout, quote


class RowWriter:
    """Writes the rows of one dataset's files, numbering child rows and lookup values across files."""

    def __init__(self, db: sqlite3.Connection, layout: Layout, dates: calidad.DateChecker):
        self.db = db
        self.layout = layout
        self.dates = dates
        self.next_id = {c.table: 1 for c in layout.all_children()}
        self.next_id[layout.table] = 1
        self.lookup_ids: dict[str, dict] = {c: {} for c in layout.lookups}
        self.children_by_member = {id(c.member): c for c in layout.all_children()}
        self.findings: list[calidad.Finding] = []
        self._date_columns = _date_positions(layout.codec)
        self._route = ""

    def create_tables(self) -> None:
        for statement in self.layout.create_sql():
            self.db.execute(statement)

    def finish(self) -> None:
        """The lookup tables, once every file is written."""
        for column, ids in self.lookup_ids.items():
            self.db.executemany(
                f"INSERT INTO {quote(self.layout.lookup_table(column))} (id, {quote(column)}) VALUES (?, ?)",
                [(i, v) for v, i in ids.items()],
            )

    def write(self, records: list, partitions: dict, route: str) -> None:
        """The rows of one file's records (its path values in ``partitions``); ``route`` names it in findings."""
        self._route = route
        layout = self.layout
        prefix = [
            self._lookup(p.name, partitions[p.name]) if p.name in layout.lookups else partitions[p.name]
            for p in layout.partition_only
        ]
        shared = {p.name: partitions[p.name] for p in self.layout.dataset.partitions if p not in layout.partition_only}
        if not layout.has_children:
            columns = layout.codec.encode_columns(records)
            if columns is not None and self._insert_columns(records, prefix, shared, columns):
                return
        field_lookups = [i for i, c in enumerate(layout.field_columns) if c in layout.lookups]
        derived = [c.compute for c in self.layout.dataset.derived.values()]
        ordered = self.layout.dataset.ordered
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
        derived = [list(map(c.compute, records)) for c in self.layout.dataset.derived.values()]
        # Python's sqlite3 binds every parameter of every row (~0.3 µs each, a third of the insert of
        # fci_valores): the file's own values go into the statement as text, a column that is NULL in
        # every row is left to its default, and the rows with no value in the mostly-NULL columns
        # are inserted without them.
        cols = layout.insert_columns
        names = cols[: len(prefix)]
        constants = [_literal(value) for value in prefix]
        dense: list[tuple[str, Sequence]] = []
        sparse: list[tuple[str, Sequence]] = []
        if self.layout.dataset.ordered:
            dense.append((cols[len(prefix)], range(n)))
        for name, column in zip(cols[len(names) + len(dense) :], [*columns, *derived]):
            nulls = column.count(None)
            if nulls != n:
                # Rows go apart only where a column keeps their order (elsewhere the rowid is the order).
                (sparse if 2 * nulls > n and self.layout.dataset.ordered else dense).append((name, column))
        if not sparse:
            self._insert_rows(names, constants, dense, None, n)
        else:
            lean = [True] * n
            for _, values in sparse:
                lean = list(map(operator.and_, lean, map(operator.is_, values, repeat(None))))
            self._insert_rows(names, constants, dense, lean, n)
            self._insert_rows(names, constants, dense + sparse, list(map(operator.not_, lean)), n)
        return True

    def _insert_rows(self, names, constants, columns, rows: Optional[list], n: int) -> None:
        """One INSERT of the rows ``rows`` selects (all n without it): the constants, then each column."""
        data = [list(compress(column, rows)) if rows is not None else column for _, column in columns]
        count = n if rows is None else sum(rows)
        if not count:
            return
        placeholders = constants + ["?"] * len(columns)
        statement = (
            f"INSERT INTO {quote(self.layout.table)} ({', '.join(map(quote, names + [c for c, _ in columns]))}) "
            f"VALUES ({', '.join(placeholders)})"
        )
        self.db.executemany(statement, zip(*data) if data else repeat((), count))

    def _collect_children(self, children, parent_id, out, prefix: tuple, record_at: int) -> None:
        for member, items in children:
            child: ChildLayout = self.children_by_member[id(member)]
            encoded = []
            for pos, item in enumerate(items):
                values, grandchildren, deviations = child.codec.encode(item)
                encoded.append(values)
                own_id = self.next_id[child.table]
                where = prefix + (f"{'.'.join(child.path)}[{pos}]",)
                for d in deviations:
                    field = ".".join(where + d.path)
                    self._report(d.problem, record_at, field, d.value, f"{'.'.join(where)}: {d.describe()}")
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
                tabla=self.layout.table,
                control=control,
                ruta=self._route,
                registro=None if at is None else at + 1,
                campo=field,
                valor=calidad.as_json(value),
                detalle=detail,
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


def _literal(value) -> str:
    """A path value as SQL text: an id or a text of the file's path, the same for all its rows."""
    if value is None:
        return "NULL"
    if type(value) is int:
        return str(value)
    if type(value) is str:
        return "'" + value.replace("'", "''") + "'"
    raise TypeError(f"valor de ruta inesperado: {value!r}")


def _date_positions(codec) -> list[tuple[int, str]]:
    return [(j, name) for j, (name, f) in enumerate(codec.columns) if f.is_date]


def _derive(fn, record):
    """A derived column of a record that is not what the catalogue expects is NULL (the record
    itself is kept, and reported, by the codec)."""
    try:
        return fn(record)
    except (KeyError, TypeError, AttributeError, ValueError):
        return None
