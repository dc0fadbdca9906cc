"""A route's file as upstream published it on a given version, rebuilt from its record versions (the
``versiones`` and ``versiones_registros`` tables, written by construccion/historia.py).

The records of version v are those with ``desde <= v`` and no ``hasta`` at or before v, each stored once per
distinct value.  Their order is the one of the last version that wrote it (``versiones.orden``), with the
records that appeared since then after it in the order they appeared; without any, the order they appeared
in: a list that only grows at its end, as most of upstream's do, never writes one.
"""

from __future__ import annotations

import sqlite3
from typing import Optional, Sequence

import orjson

from argentina_datos.almacen.propias import REGISTROS_VERSIONES, VERSIONES
from argentina_datos.almacen.publicados import written
from argentina_datos.almacen.tablas import table_exists

LIST, ENVELOPE, DOCUMENT = "lista", "sobre", "documento"
INDENTED, COMPACT, FINAL_NEWLINE = "sangría", "compacta", ", con salto final"  # versiones.escritura
END_OF_DAY = "T23:59:59Z"


def versioned_routes(conn: sqlite3.Connection) -> frozenset[str]:
    """The /v1 routes (with the leading slash) that have stored versions; none in a database without the table."""
    if not table_exists(conn, VERSIONES.name):
        return frozenset()
    return frozenset(r for (r,) in conn.execute(f"SELECT DISTINCT ruta FROM {VERSIONES.name}"))


def version_on(conn: sqlite3.Connection, route: str, day: str) -> Optional[int]:
    """The last version of ``route`` published up to the end of ``day`` (UTC); None before the first."""
    row = conn.execute(
        f"SELECT id FROM {VERSIONES.name} WHERE ruta = ? AND publicado <= ? ORDER BY publicado DESC, id DESC LIMIT 1",
        [route, day + END_OF_DAY],
    ).fetchone()
    return row[0] if row else None


def items(
    conn: sqlite3.Connection, route: str, version: int, conditions: Sequence[str] = (), args: Sequence = ()
) -> list[tuple[int, str]]:
    """(elemento, registro as JSON text) of every record of ``version`` that meets the SQL ``conditions`` (on its
    column ``registro``, with ``args``), in the file's order."""
    alive = dict(
        conn.execute(
            f"SELECT elemento, registro FROM {REGISTROS_VERSIONES.name} "
            "WHERE ruta = ? AND desde <= ? AND (hasta IS NULL OR hasta > ?)"
            + "".join(f" AND ({c})" for c in conditions),
            [route, version, version, *args],
        ).fetchall()
    )
    row = conn.execute(
        f"SELECT orden FROM {VERSIONES.name} WHERE ruta = ? AND id <= ? AND orden IS NOT NULL ORDER BY id DESC LIMIT 1",
        [route, version],
    ).fetchone()
    ordered = [i for i in orjson.loads(row[0]) if i in alive] if row else []
    placed = set(ordered)
    ordered += sorted(i for i in alive if i not in placed)
    return [(i, alive[i]) for i in ordered]


def writing(body: bytes) -> str:
    """How a file is written (versiones.escritura): indented or compact, and whether it ends with a newline."""
    how = INDENTED if body[1:2] == b"\n" else COMPACT
    return how + FINAL_NEWLINE if body.endswith(b"\n") else how


def document(conn: sqlite3.Connection, route: str, version: int) -> bytes:
    """The file of ``version`` as upstream published it: its records and envelope (keys in its order, nulls and
    absent keys kept), written as that file was (``escritura``; a store from before the column: indented)."""
    cursor = conn.execute(f"SELECT * FROM {VERSIONES.name} WHERE id = ?", [version])
    row = dict(zip([d[0] for d in cursor.description], cursor.fetchone()))
    texts = [text for _, text in items(conn, route, version)]
    if row["forma"] == DOCUMENT:
        data = orjson.loads(texts[0]) if texts else None
    else:
        data = orjson.loads("[" + ",".join(texts) + "]")
        if row["forma"] == ENVELOPE:
            envelope = orjson.loads(row["envoltorio"])
            envelope[row["lista"]] = data
            data = envelope
    how = row.get("escritura") or INDENTED
    body = orjson.dumps(data) if how.startswith(COMPACT) else written(data)
    return body + b"\n" if how.endswith(FINAL_NEWLINE) else body
