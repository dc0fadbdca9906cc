"""Every table of the database as ``DIRECTORIO/<tabla>.parquet``, for analysts (pandas, DuckDB, Spark...).

The types are the ones ``argentina_datos.leer`` gives (lectura.py): the columns the catalogue declares as
dates (text ``AAAA-MM-DD``) are Parquet dates, its dates and times (diputados, ISO 8601 with an offset) UTC
timestamps, the booleans (``arrastrado``) are booleans, and the rest keep their SQLite type: measures ``REAL`` -> double,
counts and ids ``INTEGER`` -> int64, text -> string.  The build's own tables (``_construccion``,
``_fallidos``, ...), the files as published (``publicados``) and the full-text search indexes are left out; the views that name a table's ids (``fci_valores_vista``,
``fci_serie_vista``) are exported as tables.  A table with ``fecha`` is sorted by it (then by its own order),
and its file says so (``sorting_columns``): a date filter skips the row groups outside its days.  Each column carries its description from the catalogue (the one
Datasette shows) in the Parquet field metadata (key ``description``), and each file the table's title,
description and origin in its schema metadata.

Nothing is lost: a date column with a value that is not a calendar date ``AAAA-MM-DD`` (a time, an empty
text, 2025-02-30), or a typed column holding a value of another type (which the build does not write: such
its column is NULL, and the file as published keeps it), is exported as text, and the export names it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Collection, Optional, Sequence

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from argentina_datos.almacen.propias import PUBLICADOS
from argentina_datos.documentacion.metadatos import DATABASE, build as build_metadata
from argentina_datos.lectura import as_datetime, dates_and_booleans, datetimes

BATCH_ROWS = 128 * 1024
COMPRESSION = "zstd"
# SQLite's declared type -> the Arrow type, and the typeof() values a column of it may hold.
DECLARED = {
    "INTEGER": (pa.int64(), ("integer",)),
    "REAL": (pa.float64(), ("real", "integer")),
    "TEXT": (pa.string(), ("text",)),
}
DATE_GLOB = "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]"


@dataclass
class Report:
    tables: int = 0
    rows: int = 0
    bytes: int = 0
    seconds: float = 0.0
    as_text: list[str] = field(default_factory=list)  # tabla.columna kept as text (see column_types)

    def summary(self) -> str:
        text = (
            f"{self.tables} tablas, {self.rows:,} filas, {self.bytes / 1024 / 1024:,.1f} MB en Parquet; "
            f"{self.seconds:.1f} s"
        )
        if self.as_text:
            text += (
                f"; quedan como texto (valores de otro tipo, o fechas que no son AAAA-MM-DD): {', '.join(self.as_text)}"
            )
        return text


VIEW_SUFFIX = "_vista"  # the views that name a table's ids (fci_valores_vista: its four lookups joined)
DATE = "fecha"


def tables(conn: sqlite3.Connection) -> list[str]:
    """The tables to export: not SQLite's, not the build's own (``_...``), not the files as published (compressed
    bytes: the static /v1 tree is their export), not full-text indexes; and the views that name a table's ids
    (``<tabla>_vista``), so an analyst reads fci_valores without four joins."""
    rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall()
    virtual = [name for name, sql in rows if (sql or "").upper().startswith("CREATE VIRTUAL")]
    views = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name")]
    return sorted(
        [
            name
            for name, _ in rows
            if not name.startswith(("sqlite_", "_"))
            and name != PUBLICADOS.name
            and not any(name == v or name.startswith(v + "_") for v in virtual)
        ]
        + [name for name in views if name.endswith(VIEW_SUFFIX)]
    )


def order_by(conn: sqlite3.Connection, table: str, names: list[str]) -> str:
    """The order of a table's rows in its file: by ``fecha`` where it has one (each row group's statistics then
    cover a stretch of days, and a date filter skips the others), then the table's own order (its rowid, or
    its primary key: a list's order, for /v1's tables)."""
    keys = [f'"{DATE}"'] if DATE in names else []
    if has_rowid(conn, table):
        keys.append("rowid")
    else:
        pk = sorted((r[5], r[1]) for r in conn.execute(f'PRAGMA table_info("{table}")') if r[5])
        keys += [f'"{c}"' for _, c in pk if c != DATE]
    return " ORDER BY " + ", ".join(keys) if keys else ""


def column_types(conn: sqlite3.Connection, table: str) -> tuple[list[str], list[pa.DataType], list[str]]:
    """The exported columns, their Arrow types, and those kept as text: a typed column holding values of
    another type, or a catalogue date column with values that are not calendar dates AAAA-MM-DD (a time,
    an empty text): text loses nothing."""
    dates, booleans = dates_and_booleans()
    declared = [(r[1], r[2].upper()) for r in conn.execute(f'PRAGMA table_info("{table}")')]
    # One scan counts, per column, the values its type cannot hold.
    checks = []
    for name, kind in declared:
        col = f'"{name}"'
        if name in dates and kind == "TEXT":
            # With a modifier date() normalizes an impossible day (2025-02-30 -> 2025-03-02): equal = a calendar date.
            checks.append(
                f"sum({col} IS NOT NULL AND NOT ({col} GLOB '{DATE_GLOB}' AND date({col}, '+0 days') IS {col}))"
            )
        elif kind in DECLARED:
            checks.append(f"sum(typeof({col}) NOT IN ('null', {', '.join(repr(t) for t in DECLARED[kind][1])}))")
        else:
            checks.append("0")
    odd = conn.execute(f'SELECT {", ".join(checks)} FROM "{table}"').fetchone() if checks else ()
    with_time = datetimes()
    names, types, as_text = [], [], []
    for (name, kind), bad in zip(declared, odd):
        names.append(name)
        if name in with_time and kind == "TEXT" and (name not in dates or bad):
            # A date and time (diputados): a timestamp when every value is one with its offset, else named text.
            if all_datetimes(conn, table, name):
                types.append(TIMESTAMP)
            else:
                types.append(pa.string())
                as_text.append(f"{table}.{name}")
        elif kind not in DECLARED or bad:
            types.append(pa.string())
            if bad:
                as_text.append(f"{table}.{name}")
        elif name in dates and kind == "TEXT":
            types.append(pa.date32())
        elif name in booleans and kind == "INTEGER":
            types.append(pa.bool_())
        else:
            types.append(DECLARED[kind][0])
    return names, types, as_text


TIMESTAMP = pa.timestamp("ms", tz="UTC")


def all_datetimes(conn: sqlite3.Connection, table: str, column: str) -> bool:
    values = conn.execute(f'SELECT DISTINCT "{column}" FROM "{table}" WHERE "{column}" IS NOT NULL')
    return all(as_datetime(v) is not None for (v,) in values)


def to_array(values: list, kind: pa.DataType) -> pa.Array:
    if kind == TIMESTAMP:
        return pa.array([None if v is None else as_datetime(v) for v in values], TIMESTAMP)
    if kind == pa.date32():
        stamps = pc.strptime(pa.array(values, pa.string()), format="%Y-%m-%d", unit="s", error_is_null=True)
        return stamps.cast(pa.date32())
    if kind == pa.bool_():
        return pa.array([None if v is None else bool(v) for v in values], pa.bool_())
    if kind == pa.string():
        return pa.array([v if v is None or isinstance(v, str) else str(v) for v in values], pa.string())
    return pa.array(values, kind)


def schema_for(table: str, names: list[str], types: list[pa.DataType], meta: dict) -> pa.Schema:
    described = meta.get("columns") or {}
    fields = [
        pa.field(n, t, metadata={"description": described[n]} if n in described else None) for n, t in zip(names, types)
    ]
    about = {k: meta[k] for k in ("title", "description", "source", "source_url", "license") if meta.get(k)}
    return pa.schema(fields, metadata={"tabla": table, **about})


def parquet_description(table: str, description: str, names: list[str], exported: set[str]) -> str:
    """The table's description as it holds for its Parquet file. Views are not exported: a sentence that
    sends the reader to the table's view (`<tabla>_vista`) gives way to the files that hold the names."""
    view = f"{table}_vista"
    if view not in description:
        return description
    kept = [s for s in re.split(r"(?<=\.)\s+", description) if view not in s]
    lookups = [(n, f"{table}_{n[:-3]}") for n in names if n.endswith("_id") and f"{table}_{n[:-3]}" in exported]
    if lookups:
        kept.append(
            "Los nombres de "
            + ", ".join(f"{column}" for column, _ in lookups)
            + " están en "
            + ", ".join(f"{lookup}.parquet" for _, lookup in lookups)
            + " (columnas id y el nombre)."
        )
    return " ".join(kept)


def export_table(
    conn: sqlite3.Connection, table: str, path: Path, meta: dict, report: Report, exported: Collection[str] = ()
) -> None:
    names, types, as_text = column_types(conn, table)
    report.as_text += as_text
    if meta.get("description"):
        meta = dict(meta, description=parquet_description(table, meta["description"], names, set(exported)))
    schema = schema_for(table, names, types, meta)
    columns = ", ".join(f'"{n}"' for n in names)
    cursor = conn.execute(f'SELECT {columns} FROM "{table}"{order_by(conn, table, names)}')
    # SQLite's ORDER BY puts NULLs first (fci_valores has 203,202 rows without fecha): the file says so.
    sorting = [pq.SortingColumn(names.index(DATE), nulls_first=True)] if DATE in names else None
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with pq.ParquetWriter(tmp, schema, compression=COMPRESSION, sorting_columns=sorting) as writer:
            while True:
                rows = cursor.fetchmany(BATCH_ROWS)
                if not rows:
                    break
                arrays = [to_array(list(values), kind) for values, kind in zip(zip(*rows), types)]
                writer.write_batch(pa.record_batch(arrays, schema=schema))
                report.rows += len(rows)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    report.bytes += path.stat().st_size


def has_rowid(conn: sqlite3.Connection, table: str) -> bool:
    kind, sql = conn.execute("SELECT type, sql FROM sqlite_master WHERE name = ?", [table]).fetchone()
    return kind == "table" and "WITHOUT ROWID" not in (sql or "").upper()


def export(
    db: Path,
    out: Path,
    progress: Optional[Callable[[int], Callable[[], None]]] = None,
    only: Optional[Sequence[str]] = None,
) -> Report:
    """One Parquet file per table of ``db`` under ``out`` (or of the tables in ``only``); ``progress(total)``
    gives a function called per table."""
    started = time.perf_counter()
    report = Report()
    out.mkdir(parents=True, exist_ok=True)
    described = build_metadata()["databases"][DATABASE]["tables"]
    conn = sqlite3.connect(f"file:{Path(db).resolve()}?mode=ro", uri=True)
    try:
        todo = [t for t in tables(conn) if only is None or t in only]
        step = progress(len(todo)) if progress else (lambda: None)
        for table in todo:
            export_table(conn, table, out / f"{table}.parquet", described.get(table, {}), report, set(todo))
            report.tables += 1
            step()
    finally:
        conn.close()
    report.seconds = time.perf_counter() - started
    return report
