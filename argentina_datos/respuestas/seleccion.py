"""The records a computed answer selects (a day of /v1/cotizaciones/dolares, /ultimo, a fund, an acta, a senator's
trips; ``fecha``, ``desde`` and ``hasta`` on any list): chosen in SQL on the dataset's typed table, answered with
their text as published (almacen/publicados.py).

A typed row knows its file by its partition values (a dataset without partitions has one file) and its place in
that file by ``orden`` (without partitions, by its rowid): the query returns those, and the answer is those
records' bytes taken from the stored file.  A route's ``where`` names columns of the table: a record's field, a
column the builder computes from it (a fund's slug) or a value of its file's path (``listado``), compared as
SQLite compares them.  With ``publicado`` the same conditions are asked of the records of the version in force
that day (``versiones_registros``), as JSON.
"""

from __future__ import annotations

import functools
import itertools
import sqlite3
from dataclasses import dataclass
from typing import Optional, Sequence

import orjson

from argentina_datos.almacen import publicados, versiones
from argentina_datos.almacen.propias import FUENTES
from argentina_datos.almacen.publicados import Text
from argentina_datos.almacen.tablas import Layout, quote, table_exists
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.respuestas.respuesta import ApiError, BadQuery

ALL, FIRST, LAST = "all", "first", "last"
_ISO_DAY = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*"  # a fecha that is a day (GLOB), as consulta reads them


@dataclass(frozen=True)
class Dates:
    """``fecha``, ``desde`` and ``hasta``: the records whose fecha is a day within all three."""

    desde: str = ""
    hasta: str = ""
    period: str = ""  # what the day starts with: a day, a month or a year

    def __bool__(self) -> bool:
        return bool(self.desde or self.hasta or self.period)

    def conditions(self, column: str) -> tuple[list[str], list]:
        """As ranges of the text of ``column`` (an index on it serves them): its day, its first 10 characters, is
        at least ``desde``, at most ``hasta`` and starts with ``period``, exactly (``_after``)."""
        if not self:
            return [], []
        conds, args = [f"{column} GLOB '{_ISO_DAY}'"], []
        low = max(self.desde, self.period)
        high = min((_after(p) for p in (self.hasta, self.period) if p), default="")
        if low:
            conds.append(f"{column} >= ?")
            args.append(low)
        if high:
            conds.append(f"{column} < ?")
            args.append(high)
        return conds, args


def _after(prefix: str) -> str:
    """The first text after every text that starts with ``prefix`` (a day, a month, a year: digits last): those
    texts, and only those, are >= prefix and < this.  "" for no prefix."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1) if prefix else ""


ANY_DATE = Dates()


@dataclass(frozen=True)
class File:
    id: int
    route: str
    count: int  # its records
    values: dict  # its path's values


def select(
    conn: sqlite3.Connection,
    dataset: Dataset,
    where: dict,
    dates: Dates = ANY_DATE,
    take: str = ALL,
    on: Optional[str] = None,
) -> list[Text]:
    """The text of the records of ``dataset`` that match ``where`` (column -> value) and ``dates``, in the order
    its files were read and each file's own order (``take``: all of them, the first or the last); ``on``
    (AAAA-MM-DD): as published by the end of that day."""
    if on is not None:
        return _taken(_versioned(conn, dataset, where, dates, on), take)
    chosen = _taken(positions(conn, dataset, where, dates), take)
    out: list[Text] = []
    for file, found in itertools.groupby(chosen, key=lambda fp: fp[0]):
        out += _texts(conn, dataset, file, [place for _, place in found])
    return out


def exists(conn: sqlite3.Connection, dataset: Dataset, where: dict, nonzero: tuple[str, ...] = ()) -> bool:
    """Whether a record matches ``where`` (with one of the columns ``nonzero`` neither 0 nor null)."""
    query = _Query(conn, dataset, where)
    conds = [f"coalesce(t.{quote(c)}, 0) != 0" for c in nonzero]
    sql, args = query.sql("1", extra=[" OR ".join(conds)] if conds else [])
    return query.files != [] and conn.execute(sql + " LIMIT 1", args).fetchone() is not None


def span(conn: sqlite3.Connection, dataset: Dataset, where: dict) -> tuple[Optional[str], Optional[str]]:
    """The first and last day among the dates of the records that match ``where`` (None, None: none is dated)."""
    query = _Query(conn, dataset, where)
    if not query.exists or "fecha" not in query.layout.field_columns:
        return None, None
    sql, args = query.sql(
        "min(substr(t.fecha, 1, 10)), max(substr(t.fecha, 1, 10))", extra=[f"t.fecha GLOB '{_ISO_DAY}'"]
    )
    return conn.execute(sql, args).fetchone()


def distinct(conn: sqlite3.Connection, dataset: Dataset, where: dict, columns: Sequence[str]) -> list[tuple]:
    """The values of ``columns`` among the records that match ``where``, each combination once: the values a route
    answers (the static export's routes, chosen as the answers are)."""
    query = _Query(conn, dataset, where)
    if not query.exists:
        return []
    sql, args = query.sql("DISTINCT " + ", ".join(map(query.column, columns)))
    return conn.execute(sql, args).fetchall()


def positions(conn: sqlite3.Connection, dataset: Dataset, where: dict, dates: Dates = ANY_DATE) -> list[tuple]:
    """(file, position) of each matching record, in the order of ``select``."""
    query = _Query(conn, dataset, where)
    if not query.files:
        return []
    conds, args = dates.conditions("t.fecha")
    layout = query.layout
    if not dataset.partitions:  # one file: its rows in its order
        (file,) = query.files
        sql, more = query.sql("t.rowid - (SELECT min(rowid) FROM " + quote(layout.table) + ")", conds, "t.rowid")
        return [(file, p) for (p,) in conn.execute(sql, more + args)]
    names = [p.name for p in dataset.partitions]
    sql, more = query.sql(", ".join(map(query.column, names)) + ", t.orden", conds)
    by_values = {tuple(str(f.values[n]) for n in names): f for f in query.files}
    found = []
    for *values, place in conn.execute(sql, more + args):
        of = by_values.get(tuple(map(str, values)))
        if of is not None:
            found.append((of, place))
    found.sort(key=lambda fp: (fp[0].id, fp[1]))
    return found


def files(conn: sqlite3.Connection, dataset: Dataset, where: Optional[dict] = None, with_records: bool = False):
    """The dataset's files whose path values are ``where``'s (those it names), in the order they were read."""
    rows = conn.execute(
        f"SELECT id, ruta, registros FROM {FUENTES.name} WHERE tabla = ?{' AND registros > 0' if with_records else ''} "
        "ORDER BY id",
        [dataset.table],
    )
    out = []
    for fid, route, count in rows:
        values = dataset.path_values(route)
        if values is not None and all(str(values[c]) == str(v) for c, v in (where or {}).items() if c in values):
            out.append(File(fid, route, count, values))
    return out


def listings(conn: sqlite3.Connection, dataset: Dataset, where: dict, column: str) -> dict[str, str]:
    """The dataset's files with records whose path values are ``where``'s, by their value of the path value
    ``column`` (a category's listings of FCI by day: 2024-12-31 -> /v1/finanzas/fci/rentaFija/2024/12/31; not a
    weekend's empty one)."""
    named = [f for f in files(conn, dataset, where, with_records=True) if column in f.values]
    return {str(f.values[column]): f.route for f in named if all(c in f.values for c in where)}


class _Query:
    """The SELECT of a dataset's rows that match ``where``: lookups joined, a path value a condition too."""

    def __init__(self, conn: sqlite3.Connection, dataset: Dataset, where: dict):
        self.conn, self.dataset = conn, dataset
        self.layout = _layout(dataset.table)
        self.where = where
        self.joins: dict[str, str] = {}
        self.exists = table_exists(conn, dataset.table) and table_exists(conn, FUENTES.name)

    @functools.cached_property
    def files(self) -> list[File]:
        """The files the rows may be of (read only where a row's file matters: 2,441 paths parsed for the FCI's)."""
        return files(self.conn, self.dataset, self.where) if self.exists else []

    def column(self, name: str) -> str:
        if name not in self.layout.lookups:
            return f"t.{quote(name)}"
        alias = f"l{self.layout.lookups.index(name)}"
        self.joins.setdefault(name, self.layout.lookup_join(name, alias))
        return f"{alias}.{quote(name)}"

    def sql(self, what: str, extra: Sequence[str] = (), order: str = "") -> tuple[str, list]:
        conds = [f"{self.column(c)} = ?" for c in self.where] + list(extra)
        select = f"SELECT {what} FROM {quote(self.layout.table)} t"
        select += "".join(f" {j}" for j in self.joins.values())
        if conds:
            select += " WHERE " + " AND ".join(f"({c})" for c in conds)
        return select + (f" ORDER BY {order}" if order else ""), list(self.where.values())


@functools.lru_cache(maxsize=None)
def _layout(table: str) -> Layout:
    """A dataset's columns and lookups, made once (its codec takes milliseconds to make)."""
    return Layout(BY_TABLE[table])


def _taken(found: list, take: str) -> list:
    if take == ALL or not found:
        return found
    return [found[0] if take == FIRST else found[-1]]


def _texts(conn: sqlite3.Connection, dataset: Dataset, file: File, wanted: list[int]) -> list[Text]:
    """The published text of the records at ``wanted`` of ``file``; written from the parsed file when it is not
    written as upstream writes (a compact file, four spaces)."""
    stored = publicados.stored(conn, file.route)
    if stored is None:
        return []
    if dataset.single_record:
        return [(publicados.decompress(stored).rstrip(b"\n"), 0)]
    found = None if dataset.keyed_by else _records(file, stored, dataset.envelope_list)
    if found is not None:
        depth = 1 if dataset.envelope_list is None else 2
        return [(found[i], depth) for i in wanted]
    parsed = orjson.loads(publicados.decompress(stored))
    records = publicados.records_of(parsed, dataset.envelope_list, dataset.keyed_by) or []
    return [(publicados.written(records[i]), 0) for i in wanted if i < len(records)]


# The records of the last file cut, by its route and its gzip trailer (the CRC and the length of its bytes): a
# client walking a list day by day, or the export, reads and splits the file once, not once per day (8 ms each
# for the dollars' list of 28,857 records).  Kept from the second cut of the same file in a row, and one file only:
# a server asked once for each list holds none of them (the dollars' list kept is 2.9 MB).
_last: tuple[tuple, Optional[publicados.Records]] = ((), None)


def _records(file: File, stored: bytes, list_key: Optional[str]) -> Optional[publicados.Records]:
    global _last
    key = (file.route, stored[-8:], len(stored), file.count, list_key)
    last_key, kept = _last
    if last_key == key and kept is not None:
        return kept
    records = publicados.split_records(publicados.decompress(stored), file.count, list_key)
    _last = (key, records if last_key == key else None)
    return records


def _versioned(conn: sqlite3.Connection, dataset: Dataset, where: dict, dates: Dates, on: str) -> list[Text]:
    """The matching records of the dataset's files as published by the end of ``on``: the same conditions, on the
    records of each file's version in force that day."""
    versioned = versiones.versioned_routes(conn)
    routes = [f for f in files(conn, dataset) if f.route in versioned]
    if not routes:
        raise BadQuery("publicado", f"«publicado»: los archivos de {dataset.table} no tienen versiones guardadas")
    out: list[Text] = []
    found = False
    for file in routes:
        version = versiones.version_on(conn, file.route, on)
        if version is None:
            continue
        found = True
        if any(c in file.values and str(file.values[c]) != str(v) for c, v in where.items()):
            continue
        asked = {c: v for c, v in where.items() if c not in file.values}
        conds = [f"json_extract(registro, {versiones.json_path(c)}) = ?" for c in asked]
        more, args = dates.conditions(f"json_extract(registro, {versiones.json_path('fecha')})")
        texts = [t for _, t in versiones.items(conn, file.route, version, conds + more, [*asked.values(), *args])]
        out += [(publicados.written(orjson.loads(t)), 0) for t in texts]
    if not found:
        raise ApiError(
            404, f"no hay versiones guardadas de {', '.join(f.route for f in routes)} anteriores al {on}", "publicado"
        )
    return out
