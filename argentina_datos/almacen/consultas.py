"""Reading the typed tables' rows as records, for our own extensions (the series, the conversions), which compute
from them; /v1 answers what upstream published from the store of its files (publicados.py), never from here."""

from __future__ import annotations

import sqlite3
from functools import lru_cache
from typing import Optional

import orjson

from argentina_datos.almacen import publicados
from argentina_datos.almacen.propias import FUENTES
from argentina_datos.almacen.tablas import ChildLayout, Layout, quote
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.esquema import Dataset


@lru_cache(maxsize=None)
def layout_of(table: str) -> Layout:
    return Layout(BY_TABLE[table])


class RecordQuery:
    """SELECTs the records of one dataset that match column = value conditions."""

    def __init__(self, dataset: Dataset):
        self.layout = layout_of(dataset.table)
        lay = self.layout
        # ROW_ID is the rowid (INTEGER PRIMARY KEY)
        select = ["t.rowid"] if lay.has_children else []
        joins: list[str] = []
        # A whole value of a NUMBER column reads back as an integer (Codec.ints_again), here in SQL, so that
        # the rows of a plain codec are the records' values as they are (Codec.plain).
        numbers = {lay.codec.columns[i][0] for i in lay.codec.number_columns}
        for col in lay.field_columns:
            if col in lay.lookups:
                select.append(f"l_{col}.{quote(col)}")
                joins.append(lay.lookup_join(col, f"l_{col}"))
            elif col in numbers:
                select.append(_int_if_whole(f"t.{quote(col)}"))
            else:
                select.append(f"t.{quote(col)}")
        self._select, self._joins = select, " ".join(joins)
        self.order = [f"t.{quote(c)}" if c != "rowid" else "t.rowid" for c in lay.order_columns]

    def _sql(self) -> str:
        return f"SELECT {', '.join(self._select)} FROM {quote(self.layout.table)} t {self._joins}"

    def _where(self, where: dict) -> tuple[str, list]:
        lay = self.layout
        clauses, args = [], []
        for col, value in where.items():
            if col in lay.lookups:
                clauses.append(
                    f"t.{quote(col + '_id')} = (SELECT id FROM {quote(lay.lookup_table(col))} WHERE {quote(col)} = ?)"
                )
            else:
                clauses.append(f"t.{quote(col)} = ?")
            args.append(value)
        return (" WHERE " + " AND ".join(clauses) if clauses else ""), args

    def records(self, conn: sqlite3.Connection, where: dict) -> list:
        lay = self.layout
        sql_where, args = self._where(where)
        rows = conn.execute(f"{self._sql()}{sql_where} ORDER BY {', '.join(self.order)}", args).fetchall()
        codec = lay.codec
        if codec.scalar:  # a list of bare values
            return [r[0] for r in rows]
        if codec.plain:
            names = codec.plain_names
            return [dict(zip(names, r)) for r in rows]
        if not lay.has_children:
            return [codec.decode(r) for r in rows]
        ids = [r[0] for r in rows]
        children = {c.path: _child_lists(conn, c, ids) for c in lay.children}
        return [codec.decode(r[1:], {path: lists.get(r[0], []) for path, lists in children.items()}) for r in rows]


def _int_if_whole(column: str) -> str:
    """SQL: the column's value, as an INTEGER when it is whole and within 2**53 (what a REAL holds exactly)."""
    return (
        f"CASE WHEN {column} = CAST({column} AS INTEGER) AND abs({column}) <= {2**53} "
        f"THEN CAST({column} AS INTEGER) ELSE {column} END"
    )


def _child_lists(conn: sqlite3.Connection, child: ChildLayout, parent_ids: list[int]) -> dict[int, list]:
    """Child records grouped by parent id, in list order."""
    if not parent_ids:
        return {}
    cols = ["t.rowid"] + [f"t.{quote(c)}" for c in [child.parent_column] + child.codec.column_names]
    # A temp list of ids can be long (thousands of funds); SQLite's json_each takes it as one parameter.
    rows = conn.execute(
        f"SELECT {', '.join(cols)} FROM {quote(child.table)} t WHERE t.{quote(child.parent_column)} IN "
        f"(SELECT value FROM json_each(?)) ORDER BY t.{quote(child.parent_column)}, t.orden",
        [orjson.dumps(parent_ids).decode()],
    ).fetchall()
    grand = {g.path: _child_lists(conn, g, [r[0] for r in rows]) for g in child.child_layouts}
    out: dict[int, list] = {}
    for r in rows:
        out.setdefault(r[1], []).append(
            child.codec.decode(r[2:], {p: lists.get(r[0], []) for p, lists in grand.items()})
        )
    return out


@lru_cache(maxsize=None)
def query_for(table: str) -> RecordQuery:
    return RecordQuery(BY_TABLE[table])


def envelope(conn: sqlite3.Connection, ruta: str) -> Optional[dict]:
    """The scalar fields of the envelope published at ``ruta`` (e.g. fechaActualizacion)."""
    row = conn.execute(f"SELECT envoltorio FROM {FUENTES.name} WHERE ruta = ? LIMIT 1", [ruta]).fetchone()
    if row is None:
        return None
    return orjson.loads(row[0]) if row[0] else {}


def published(conn: sqlite3.Connection, ruta: str) -> bool:
    """Whether upstream published a file at ``ruta`` (an empty list is an answer, not a 404)."""
    return publicados.stored(conn, ruta) is not None


def table_exists(conn: sqlite3.Connection, table: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone() is not None
