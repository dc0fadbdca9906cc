"""What upstream published: each file a source gave, its bytes exactly as they came, gzip-compressed once at
build time (the ``publicados`` table).  /v1 answers a route upstream has a file for with these bytes, and a client
that accepts gzip with the stored compressed bytes as they are; the typed tables are a projection of them for SQL.
"""

from __future__ import annotations

import gzip
import sqlite3
import zlib
from typing import Iterable, Optional

import sqlite_utils

from argentina_datos.almacen.propias import PUBLICADOS

TABLE = PUBLICADOS.name
DOCUMENTS = "documentos"  # the ``tabla`` of a file no catalogue dataset describes yet
CUTS = "cortes"  # ... of a file no dataset reads, whose route the catalogue answers as a cut of a list
LEVEL = 6


def compress(body: bytes) -> bytes:
    """gzip with no timestamp: the same file gives the same bytes (and the same ETag) in every build."""
    return gzip.compress(body, compresslevel=LEVEL, mtime=0)


def decompress(stored: bytes) -> bytes:
    return zlib.decompress(stored, 16 + zlib.MAX_WBITS)


def create(conn: sqlite3.Connection) -> None:
    db = sqlite_utils.Database(conn)
    if not db[TABLE].exists():
        PUBLICADOS.create(db)


def write(conn: sqlite3.Connection, files: Iterable[tuple[str, str, bytes]]) -> None:
    """(ruta, tabla, body) of each file read; a file read by two datasets (the Senate's trips) is stored once."""
    create(conn)
    conn.executemany(
        f'INSERT OR REPLACE INTO "{TABLE}" (ruta, tabla, gzip) VALUES (?, ?, ?)',
        ((ruta, tabla, compress(body)) for ruta, tabla, body in files),
    )


def stored(conn: sqlite3.Connection, ruta: str) -> Optional[bytes]:
    """The compressed file published at ``ruta`` (with its leading slash), or None."""
    try:
        row = conn.execute(f'SELECT gzip FROM "{TABLE}" WHERE ruta = ?', [ruta]).fetchone()
    except UnicodeEncodeError:  # a path with bytes that were not UTF-8: no file has that name
        return None
    except sqlite3.OperationalError:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [TABLE]).fetchone():
            raise  # the table is there and fails: not "no such file"
        return None  # a build of part of the catalogue that read no file
    return row[0] if row else None


def body(conn: sqlite3.Connection, ruta: str) -> Optional[bytes]:
    """The file published at ``ruta``, as it came, or None."""
    found = stored(conn, ruta)
    return None if found is None else decompress(found)


def routes(conn: sqlite3.Connection) -> list[str]:
    return [r for (r,) in conn.execute(f'SELECT ruta FROM "{TABLE}" ORDER BY ruta')]


def parse_check(name: str, body: bytes) -> int:
    """How many records a file no dataset describes holds (1 for an object); raises ValueError naming the file
    when it is not JSON or not UTF-8."""
    import orjson

    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise ValueError(f"{name}: no es JSON válido ({e})") from None
    return len(data) if isinstance(data, list) else 1
