"""The SQLite layout of a dataset, derived from its catalogue entry.

Shared by the builder (to create and fill tables) and the API (to query them),
so that a column is named in one place only.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import cached_property

from argentina_datos.almacen.registros import Codec
from argentina_datos.catalogo.esquema import (
    ORDER,
    ROW_ID,
    SQL_TYPES,
    Children,
    Dataset,
    children_with_paths,
)

# Written last by every build: its presence marks a database as an argentina-datos build.


def quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_exists(conn: sqlite3.Connection, table: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone() is not None


@dataclass(frozen=True)
class ChildLayout:
    table: str
    parent_table: str
    path: tuple  # member names from the parent record down to the array
    member: Children

    @property
    def parent_column(self) -> str:
        return f"{self.parent_table}_id"

    @cached_property
    def codec(self) -> Codec:
        return Codec(self.member.fields)

    @cached_property
    def child_layouts(self) -> list["ChildLayout"]:
        return [ChildLayout(c.table, self.table, p, c) for p, c in _children_of(self.member.fields)]

    def create_sql(self) -> list[str]:
        cols = [
            f"{ROW_ID} INTEGER PRIMARY KEY",
            f"{quote(self.parent_column)} INTEGER NOT NULL REFERENCES {quote(self.parent_table)}({ROW_ID})",
            f"{ORDER} INTEGER NOT NULL",
        ]
        cols += [column.sql() for column in value_columns(self.codec)]
        return [
            f"CREATE TABLE {quote(self.table)} (\n  " + ",\n  ".join(cols) + "\n)",
            f"CREATE INDEX {quote(self.table + '_' + self.parent_column)} ON {quote(self.table)}"
            f"({quote(self.parent_column)}, {ORDER})",
        ]

    @property
    def insert_columns(self) -> list[str]:
        return [ROW_ID, self.parent_column, ORDER] + self.codec.column_names


def _children_of(members):
    return list(children_with_paths(members))


@dataclass(frozen=True)
class Column:
    """One column of a CREATE TABLE: its name, SQL type and, for a lookup's id, the table it points to."""

    name: str
    sql_type: str
    references: str | None = None  # «tabla(columna)»

    def sql(self) -> str:
        out = f"{quote(self.name)} {self.sql_type}"
        if self.references:
            table, column = self.references.removesuffix(")").split("(")
            out += f" REFERENCES {quote(table)}({quote(column)})"
        return out


def value_columns(codec: Codec, lookups: dict[str, str] | None = None) -> list[Column]:
    """The columns a codec's rows fill; ``lookups`` maps a looked-up field to its table of values."""
    lookups = lookups or {}
    out = []
    for name, f in codec.columns:
        if name in lookups:
            out.append(Column(name + "_id", "INTEGER", f"{lookups[name]}(id)"))
        else:
            # Not f.references: Datasette follows a foreign key to the referenced table's primary key, and
            # senadores' is its rowid, not id; web/ links those rows itself (catalogo.references).
            out.append(Column(name, SQL_TYPES[f.kind]))
    return out


class Layout:
    """Table, columns and keys of one dataset."""

    def __init__(self, dataset: Dataset):
        self.dataset = dataset
        self.table = dataset.table
        self.codec = Codec(dataset.fields, scalar=dataset.scalar_records)
        self.field_columns = self.codec.column_names
        # Partition columns that are also record fields (a casa file's `casa`) are stored once.
        self.partition_only = [p for p in dataset.partitions if p.name not in self.field_columns]
        self.lookups = tuple(dataset.lookups)
        self.has_children = dataset.has_children
        self.children = [ChildLayout(c.table, self.table, path, c) for path, c in dataset.child_tables]
        self.derived = list(dataset.derived)

    # ---- names ---------------------------------------------------------------
    def stored(self, column: str) -> str:
        """The stored column name: lookups are stored as ``<column>_id``."""
        return column + "_id" if column in self.lookups else column

    def lookup_table(self, column: str) -> str:
        return f"{self.table}_{column}"

    def fts_targets(self) -> list[tuple[str, list[str]]]:
        """(table, columns) to index for full-text search: a searched lookup column is indexed
        in its table of distinct values, where each name is stored once."""
        own = [c for c in self.dataset.fts if c not in self.lookups]
        targets = [(self.table, own)] if own else []
        targets += [(self.lookup_table(c), [c]) for c in self.dataset.fts if c in self.lookups]
        return targets

    def lookup_nullable(self, column: str) -> bool:
        """A lookup on a field that may be null or absent: its id is then NULL."""
        return column in self._nullable_lookups

    @cached_property
    def _nullable_lookups(self) -> frozenset:
        fields = dict(self.codec.columns)
        return frozenset(c for c in self.lookups if c in fields and (fields[c].nullable or fields[c].optional))

    def lookup_join(self, column: str, alias: str, table_alias: str = "t") -> str:
        """The join that turns ``<column>_id`` back into the value (LEFT for nullable lookups,
        so that rows with a NULL id stay; inner otherwise, which lets SQLite start from the lookup)."""
        kind = "LEFT JOIN" if self.lookup_nullable(column) else "JOIN"
        return (
            f"{kind} {quote(self.lookup_table(column))} {alias} ON {alias}.id = {table_alias}.{quote(column + '_id')}"
        )

    @property
    def key(self) -> list[str]:
        return [self.stored(p.name) for p in self.dataset.partitions] + [ORDER]

    @property
    def without_rowid(self) -> bool:
        return self.dataset.ordered and not self.has_children

    @property
    def insert_columns(self) -> list[str]:
        cols = [ROW_ID] if self.has_children else []
        cols += [self.stored(p.name) for p in self.partition_only]
        if self.dataset.ordered:
            cols.append(ORDER)
        cols += [self.stored(c) for c in self.field_columns]
        cols += self.derived
        return cols

    # ---- DDL -----------------------------------------------------------------
    # SQL text, not sqlite-utils' Table.create: it cannot declare WITHOUT ROWID (4.2 takes strict=, no such option).
    def create_sql(self) -> list[str]:
        cols = [f"{ROW_ID} INTEGER PRIMARY KEY"] if self.has_children else []
        for p in self.partition_only:
            if p.name in self.lookups:
                cols.append(
                    f"{quote(p.name + '_id')} INTEGER NOT NULL REFERENCES {quote(self.lookup_table(p.name))}(id)"
                )
            else:
                cols.append(f"{quote(p.name)} {SQL_TYPES[p.kind]} NOT NULL")
        if self.dataset.ordered:
            cols.append(f"{ORDER} INTEGER NOT NULL")
        lookups = {c: self.lookup_table(c) for c in self.lookups}
        cols += [column.sql() for column in value_columns(self.codec, lookups)]
        cols += [f"{quote(name)} {SQL_TYPES[c.kind]}" for name, c in self.dataset.derived.items()]
        tail = ""
        if self.dataset.ordered:
            if self.without_rowid:
                cols.append("PRIMARY KEY (" + ", ".join(quote(c) for c in self.key) + ")")
                tail = " WITHOUT ROWID"
        statements = [f"{_lookup_sql(self, c)}" for c in self.lookups]
        statements.append(f"CREATE TABLE {quote(self.table)} (\n  " + ",\n  ".join(cols) + "\n)" + tail)
        if self.dataset.ordered and not self.without_rowid:
            # The key, before the rows: the loader relies on it (a rowid table's stand-in for a primary key).
            name = Index(self.table, tuple(self.key)).name
            statements.append(
                f"CREATE UNIQUE INDEX {quote(name)} ON {quote(self.table)} ({', '.join(map(quote, self.key))})"
            )
        for child in self.all_children():
            statements += child.create_sql()
        for link in self.dataset.links:
            statements.append(f"ALTER TABLE {quote(link.table)} ADD COLUMN {quote(link.column)} {SQL_TYPES[link.kind]}")
        return statements

    @property
    def tables(self) -> list[str]:
        """Every table the dataset's rows fill: its own, its lookups', its children's."""
        return [self.table, *map(self.lookup_table, self.lookups), *(c.table for c in self.all_children())]

    def link_key(self, link) -> str:
        """The column a Link's (row, value) pairs name their row by."""
        return ROW_ID if link.table != self.table or self.has_children else "rowid"

    def all_children(self) -> list[ChildLayout]:
        out, todo = [], list(self.children)
        while todo:
            c = todo.pop(0)
            out.append(c)
            todo.extend(c.child_layouts)
        return out

    def indexes(self, unique: bool = True) -> list[Index]:
        """Natural keys (a plain index when ``unique`` is False: the data repeats a key), declared
        indexes and the columns every route filters on."""
        out = []
        if self.dataset.unique:
            out.append(Index(self.table, tuple(self.stored(c) for c in self.dataset.unique), unique=unique))
        wanted = [list(ix) for ix in self.dataset.indexes]
        for route in self.dataset.routes:
            cols = [self.stored(c) for c in route.where]
            if cols and cols != self.key[: len(cols)]:
                wanted.append(cols)
        seen = set()
        for cols in wanted:
            cols = [self.stored(c) for c in cols]
            if tuple(cols) in seen or cols == list(self.dataset.unique):
                continue
            seen.add(tuple(cols))
            out.append(Index(self.table, tuple(cols)))
        out += [Index(link.table, (link.column,)) for link in self.dataset.links]
        return out

    @property
    def view_name(self) -> str:
        return self.table + "_vista"

    def view_select(self) -> str | None:
        """For tables with lookups, the SELECT of a view with the values instead of ids."""
        if not self.lookups:
            return None
        select, joins = [], []
        for col in (
            [p.name for p in self.partition_only]
            + ([ORDER] if self.dataset.ordered else [])
            + self.field_columns
            + self.derived
        ):
            if col in self.lookups:
                alias = f"l_{col}"
                select.append(f"{alias}.{quote(col)} AS {quote(col)}")
                joins.append(self.lookup_join(col, alias))
            else:
                select.append(f"t.{quote(col)}")
        return "SELECT " + ", ".join(select) + f" FROM {quote(self.table)} t " + " ".join(joins)


def _lookup_sql(layout: Layout, column: str) -> str:
    return (
        f"CREATE TABLE {quote(layout.lookup_table(column))} "
        f"(id INTEGER PRIMARY KEY, {quote(column)} TEXT NOT NULL UNIQUE)"
    )


@dataclass(frozen=True)
class Index:
    """An index for the builder to create (with sqlite-utils' create_index)."""

    table: str
    columns: tuple[str, ...]
    unique: bool = False

    @property
    def name(self) -> str:
        return f"idx_{self.table}_" + "_".join(self.columns)

    def create(self, db) -> None:
        """Creates it in ``db``, a sqlite_utils.Database."""
        db.table(self.table).create_index(list(self.columns), index_name=self.name, unique=self.unique)
