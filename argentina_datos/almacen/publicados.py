"""What upstream published: each file a source gave, its bytes exactly as they came, gzip-compressed once at
build time (the ``publicados`` table).  /v1 answers a route upstream has a file for with these bytes, and a client
that accepts gzip with the stored compressed bytes as they are; the typed tables are a projection of them for SQL.

An answer upstream has no file for is written as upstream writes its files (two-space indentation, its key order
and number text, no final newline): from each record's own text in its file (``split_records``), placed at the depth
the answer puts it (``list_text``, ``at_depth``).
"""

from __future__ import annotations

import gzip
import re
import sqlite3
import zlib
from array import array
from typing import Any, Iterable, Optional

import orjson

from argentina_datos.almacen.propias import FUENTES, PUBLICADOS
from argentina_datos.almacen.registros import keyed_records

TABLE = PUBLICADOS.name
DOCUMENTS = "documentos"  # the ``tabla`` of a file no catalogue dataset describes yet
CUTS = "cortes"  # ... of a file no dataset reads, whose route the catalogue answers as a cut of a list
# Level 6, not 9: a third of the time for 4 % more bytes (20 MB of FCI and dollar files: 0.41 s against 1.22 s).
LEVEL = 6


def compress(body: bytes) -> bytes:
    """gzip with no timestamp: the same file gives the same bytes (and the same ETag) in every build."""
    return gzip.compress(body, compresslevel=LEVEL, mtime=0)


def decompress(stored: bytes) -> bytes:
    return zlib.decompress(stored, 16 + zlib.MAX_WBITS)


def create(conn: sqlite3.Connection) -> None:
    import sqlite_utils  # the builder's, not the server's: it imports pandas

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


def published(conn: sqlite3.Connection, ruta: str) -> bool:
    """Whether upstream published a file at ``ruta`` (an empty list is an answer, not a 404)."""
    return stored(conn, ruta) is not None


def envelope(conn: sqlite3.Connection, ruta: str) -> Optional[dict]:
    """The scalar fields of the envelope published at ``ruta`` (e.g. fechaActualizacion), as the build noted them."""
    row = conn.execute(f"SELECT envoltorio FROM {FUENTES.name} WHERE ruta = ? LIMIT 1", [ruta]).fetchone()
    if row is None:
        return None
    return orjson.loads(row[0]) if row[0] else {}


def body(conn: sqlite3.Connection, ruta: str) -> Optional[bytes]:
    """The file published at ``ruta``, as it came, or None."""
    found = stored(conn, ruta)
    return None if found is None else decompress(found)


def parse_check(name: str, body: bytes) -> int:
    """How many records a file no dataset describes holds (1 for an object); raises ValueError naming the file
    when it is not JSON or not UTF-8."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as e:
        raise ValueError(f"{name}: no es JSON válido ({e})") from None
    return len(data) if isinstance(data, list) else 1


# ---- records as text ----------------------------------------------------------------------------------------
INDENT = b"  "  # upstream's: JSON.stringify(data, null, 2)
Text = tuple[bytes, int]  # a record's bytes as its file has them, and how many INDENTs deep its inner lines are


def records_of(data: Any, list_key: Optional[str] = None, keyed_by: Optional[str] = None, single: bool = False):
    """The records a parsed file holds: the list itself, its envelope's list ``list_key`` (an object keyed by id,
    with ``keyed_by``: its entries as records), or the file as one record; None when the file is not of that shape.
    The one reader of a file into records (the builder's loader and the answers read files with it)."""
    if list_key:
        inner = data.get(list_key) if type(data) is dict else None
        if keyed_by:
            return keyed_records(inner, keyed_by) if type(inner) is dict else None
        return inner if type(inner) is list else None
    if single:
        return [data] if type(data) is dict else None
    return data if type(data) is list else None


class Records:
    """The records of a file written with two-space indentation, one object per record: record ``i``'s text is the
    slice of the file's bytes it is (its number text, key order and spacing as published).  It keeps the file and
    where each record starts, not a bytes object per record: 3 MB for the dollars' list, given back whole."""

    def __init__(self, body: bytes, first: int, starts: array, end: int, gap: int = 0):
        # first: where the first record starts; starts: where each other one does; end: where the last one ends;
        # gap: the comma and the indentation before each record after the first
        self._body, self._first, self._starts, self._end, self._gap = body, first, starts, end, gap

    def __len__(self) -> int:
        return len(self._starts) + 1 if self._end > self._first else 0

    def __getitem__(self, i: int) -> bytes:
        if not 0 <= i < len(self):
            raise IndexError(i)
        begin = self._starts[i - 1] if i else self._first
        return self._body[begin : self._starts[i] - self._gap if i < len(self._starts) else self._end]


def split_records(body: bytes, count: int, list_key: Optional[str] = None) -> Optional[Records]:
    """The ``count`` records of a file, each as its text (``Records``): its inner lines are 1 INDENT deep in a
    list, 2 in an envelope's list ``list_key``.  None when the file is not written with two-space indentation, one
    object per record (a compact file, four spaces, a record that is no object): the caller then writes them from
    the parsed file."""
    depth = 1 if list_key is None else 2
    closing = b"\n" + INDENT * (depth - 1) + b"]"
    if list_key is None:
        start, end = (0, body.rfind(closing)) if body[:1] == b"[" else (-1, -1)
    else:
        mark = b"\n" + INDENT + orjson.dumps(list_key) + b": ["
        start = body.find(mark)
        start, end = (start + len(mark) - 1, body.find(closing, start)) if start >= 0 else (-1, -1)
    pad = b"\n" + INDENT * depth
    if start < 0 or body[start + 1 : start + 2 + len(pad)] != pad + b"{" or end < 0:
        empty = start >= 0 and body[start + 1 : start + 2] == b"]" and count == 0
        return Records(body, 0, array("q"), 0) if empty else None
    # where each record after the first starts: its «{», after the comma and the indentation that part them (a
    # record's own inner lines are deeper); C, one pass (28,857 records in ~5 ms)
    separator = re.compile(re.escape(b"," + pad + b"{"))
    starts = array("q", (m.end() - 1 for m in separator.finditer(body, start, end)))
    if len(starts) + 1 != count:
        return None
    return Records(body, start + len(pad) + 1, starts, end, len(pad) + 1)


def at_depth(text: Text, depth: int) -> bytes:
    """A record's text with its inner lines ``depth`` INDENTs deep (0: the answer is the record)."""
    body, was = text
    if was == depth:
        return body
    if was > depth:
        return body.replace(b"\n" + INDENT * was, b"\n" + INDENT * depth)
    return body.replace(b"\n", b"\n" + INDENT * (depth - was))


def list_text(texts: Iterable[Text], depth: int = 1) -> bytes:
    """A list of records as upstream writes it, its records' lines ``depth`` INDENTs deep (1: the answer is the list)."""
    pad = b"\n" + INDENT * depth
    items = [at_depth(t, depth) for t in texts]
    return b"[" + pad + (b"," + pad).join(items) + b"\n" + INDENT * (depth - 1) + b"]" if items else b"[]"


def written(data: Any) -> bytes:
    """An answer no file holds (an envelope around selected lists, a record with empty lists), as upstream writes
    its files; ``orjson.Fragment`` values (lists of published records, from ``list_text(.., 2)``) go as they are."""
    return orjson.dumps(data, option=orjson.OPT_INDENT_2)
