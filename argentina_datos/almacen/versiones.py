"""A route's file as upstream published it on a given version, rebuilt from its record versions (the
``versiones`` and ``versiones_registros`` tables, written by construccion/historia.py).

The records of version v are those with ``desde <= v`` and no ``hasta`` at or before v, each stored once per
distinct value.  Their order is the one of the last version that wrote it (``versiones.orden``), with the
records that appeared since then after it in the order they appeared; without any, the order they appeared
in: a list that only grows at its end, as most of upstream's do, never writes one.
"""

from __future__ import annotations

import sqlite3
from typing import Optional

import orjson

from argentina_datos.almacen.consultas import table_exists
from argentina_datos.almacen.propias import REGISTROS_VERSIONES, VERSIONES

LIST, ENVELOPE, DOCUMENT = "lista", "sobre", "documento"
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


def items(conn: sqlite3.Connection, route: str, version: int) -> list[tuple[int, str]]:
    """(elemento, registro as JSON text) of every record of ``version``, in the file's order."""
    alive = dict(
        conn.execute(
            f"SELECT elemento, registro FROM {REGISTROS_VERSIONES.name} "
            "WHERE ruta = ? AND desde <= ? AND (hasta IS NULL OR hasta > ?)",
            [route, version, version],
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


def document(conn: sqlite3.Connection, route: str, version: int) -> bytes:
    """The file of ``version`` as upstream published it (keys in its order, nulls and absent keys kept)."""
    forma, lista, envoltorio = conn.execute(
        f"SELECT forma, lista, envoltorio FROM {VERSIONES.name} WHERE id = ?", [version]
    ).fetchone()
    texts = [text for _, text in items(conn, route, version)]
    if forma == DOCUMENT:
        return texts[0].encode() if texts else b"null"
    records = [orjson.Fragment(text) for text in texts]
    if forma == ENVELOPE:
        envelope = orjson.loads(envoltorio)
        envelope[lista] = records
        return orjson.dumps(envelope)
    return orjson.dumps(records)
