"""Small questions about a built database: which tables it has, what a route's file published, its envelope."""

from __future__ import annotations

import sqlite3
from typing import Optional

import orjson

from argentina_datos.almacen import publicados
from argentina_datos.almacen.propias import FUENTES


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
