"""Files no catalogue dataset describes yet, kept verbatim and served as they are.

Upstream publishes more routes than the catalogue knows, and gains new ones: every file of a
directory source that no dataset claims is stored here whole (its JSON text, byte for byte) and
/v1 answers its route with it, so that a client never gets a 404 for a file upstream has.  A
dataset entry in the catalogue is still the goal for each: it gives researchers a table.
"""

from __future__ import annotations

import hashlib
import sqlite3
from typing import Optional

import orjson

from argentina_datos.almacen.consultas import table_exists
from argentina_datos.almacen.propias import DOCUMENTOS

TABLE = DOCUMENTOS.name


def parse_check(name: str, body: bytes) -> int:
    """How many records the document holds (1 for an object); raises ValueError naming the file
    when it is not JSON or not UTF-8."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise ValueError(f"{name}: no es JSON válido ({e})") from None
    return len(data) if isinstance(data, list) else 1


def sha256(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def document(conn: sqlite3.Connection, ruta: str) -> Optional[bytes]:
    """The stored file published at ``ruta``, or None."""
    try:
        row = conn.execute(f"SELECT json FROM {TABLE} WHERE ruta = ?", [ruta]).fetchone()
    except sqlite3.OperationalError:
        if table_exists(conn, TABLE):  # the table is there and fails: not "no such file"
            raise
        return None  # a database built before this table existed
    except UnicodeEncodeError:  # a path with bytes that were not UTF-8: no file has that name
        return None
    return row[0].encode() if row else None
