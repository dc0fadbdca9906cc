"""Reading records back out of the database, exactly as the API published them: a row's columns, and its
extra (the ``_extra`` table) where its record is not exactly as the catalogue declares it."""

from __future__ import annotations

import sqlite3
from functools import lru_cache
from typing import Optional

import orjson

from argentina_datos.almacen.propias import EXTRAS, FUENTES
from argentina_datos.almacen.tablas import ChildLayout, Layout, quote
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.esquema import ROW_ID, Dataset


@lru_cache(maxsize=None)
def layout_of(table: str) -> Layout:
    return Layout(BY_TABLE[table])


class RecordQuery:
    """SELECTs the records of one dataset that match column = value conditions."""

    def __init__(self, dataset: Dataset):
        self.layout = layout_of(dataset.table)
        lay = self.layout
        # ROW_ID is the rowid (INTEGER PRIMARY KEY): read as rowid, it is also the _id of a database of the old shape
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
        self.base = self._sql(["NULL"])  # the query of a table none of whose rows has an extra
        self.order = [f"t.{quote(c)}" if c != "rowid" else "t.rowid" for c in lay.order_columns]

    def _sql(self, tail: list[str], join: str = "") -> str:
        return f"SELECT {', '.join(self._select + tail)} FROM {quote(self.layout.table)} t {self._joins} {join}"

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

    def records(
        self, conn: sqlite3.Connection, where: dict, *, last: bool = False, limit: Optional[int] = None
    ) -> list:
        lay = self.layout
        extra, join, legacy = _extra_read(conn, lay.table, lay.row_key)
        sql_where, args = self._where(where)
        order = ", ".join(f"{c} DESC" if last else c for c in self.order)
        sql = f"{self._sql(extra, join)}{sql_where} ORDER BY {order}"
        if last:
            limit = 1
        if limit:
            sql += f" LIMIT {int(limit)}"
        rows = conn.execute(sql, args).fetchall()
        if legacy:
            rows = _legacy_rows(rows)
        codec = lay.codec
        if codec.scalar:  # a list of bare values
            return [r[0] if r[1] is None else codec.decode(r) for r in rows]
        if codec.plain:
            names = codec.plain_names
            # zip stops at the last name, before the row's extra
            return [dict(zip(names, r)) if r[-1] is None else codec.decode(r) for r in rows]
        if not lay.has_children:
            return [codec.decode(r) for r in rows]
        ids = [r[0] for r in rows]
        children = {c.path: _child_lists(conn, c, ids) for c in lay.children}
        return [codec.decode(r[1:], {path: lists.get(r[0], []) for path, lists in children.items()}) for r in rows]


def _deviating(conn: sqlite3.Connection, table: str) -> Optional[bool]:
    """Whether some row of ``table`` has an extra; None for a database written before the extras left the
    data tables, which has no ``_extra`` table."""
    try:
        return (
            conn.execute(f"SELECT 1 FROM {quote(EXTRAS.name)} WHERE tabla = ? LIMIT 1", [table]).fetchone() is not None
        )
    except sqlite3.OperationalError:
        if table_exists(conn, EXTRAS.name):
            raise
        return None


def _extra_read(conn: sqlite3.Connection, table: str, key: list[str]) -> tuple[list[str], str, bool]:
    """How a query of ``table`` (alias t, rows named by ``key``) reads each row's extra: the columns that end its
    select, the join they need, and whether the rows are of the old shape (``_legacy_rows`` makes them of this)."""
    deviating = _deviating(conn, table)
    if deviating is None:
        return _legacy_columns(conn, table), "", True
    if deviating:
        # Joined by the row's key: measured in process against looking the rows read up afterwards,
        # /v1/cotizaciones took 26 ms against 61, an FCI day whose funds omit «horizonte» 11 against 20.
        return ["x.extra"], _extra_join(table, key), False
    return ["NULL"], "", False  # no row of the table has one: the common case, and the fastest


def _extra_join(table: str, key: list[str]) -> str:
    """The LEFT JOIN of a row (alias t) to its extra (alias x): by the JSON list of its key, as filas.py wrote it."""
    columns = ", ".join("t.rowid" if c == "rowid" else f"t.{quote(c)}" for c in key)
    table_text = "'" + table.replace("'", "''") + "'"
    return f"LEFT JOIN {quote(EXTRAS.name)} x ON x.tabla = {table_text} AND x.fila = json_array({columns})"


# A database written before the extras left the data tables (by a build of an earlier version) kept them
# in two columns of each table, _omitidas (the keys a record omits, dotted paths, comma separated) and
# _extra.  A build still reads one: its previous build (construccion/fuentes.py's PreviousBuild, the
# history of the latest-only routes) answers the files it cannot read today.
LEGACY_OMITTED, LEGACY_EXTRA = "_omitidas", "_extra"


def _legacy_columns(conn: sqlite3.Connection, table: str) -> list[str]:
    names = {r[1] for r in conn.execute(f"PRAGMA table_info({quote(table)})")}
    return [f"t.{quote(c)}" if c in names else "NULL" for c in (LEGACY_OMITTED, LEGACY_EXTRA)]


def _legacy_rows(rows: list) -> list:
    """The rows of a database of the old shape, ending with _omitidas and _extra, as rows ending with their
    extra: the omitted keys first, as [path] entries (what they meant: remove the key)."""
    out = []
    for r in rows:
        omitted, extra = r[-2], r[-1]
        if omitted:
            entries = [[path.split(".")] for path in omitted.split(",")] + (orjson.loads(extra) if extra else [])
            extra = orjson.dumps(entries).decode()
        out.append((*r[:-2], extra))
    return out


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
    extra, join, legacy = _extra_read(conn, child.table, [ROW_ID])
    cols = ["t.rowid"] + [f"t.{quote(c)}" for c in [child.parent_column] + child.codec.column_names] + extra
    # A temp list of ids can be long (thousands of funds); SQLite's json_each takes it as one parameter.
    rows = conn.execute(
        f"SELECT {', '.join(cols)} FROM {quote(child.table)} t {join} WHERE t.{quote(child.parent_column)} IN "
        f"(SELECT value FROM json_each(?)) ORDER BY t.{quote(child.parent_column)}, t.orden",
        [orjson.dumps(parent_ids).decode()],
    ).fetchall()
    if legacy:
        rows = _legacy_rows(rows)
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
    return conn.execute(f"SELECT 1 FROM {FUENTES.name} WHERE ruta = ? LIMIT 1", [ruta]).fetchone() is not None


def table_exists(conn: sqlite3.Connection, table: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone() is not None
