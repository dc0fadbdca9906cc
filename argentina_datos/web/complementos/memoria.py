"""Datasette plugin: what one query may hold in memory, whatever SQL anyone types.

The SQL time limit bounds time, not memory: `select randomblob(1e9)` answered 200 after 21 s with a
1.33 GB body and left the server at 1.35 GB of RSS. Each connection Datasette opens gets three bounds:

- no value longer than MAX_VALUE_BYTES (SQLite's SQLITE_LIMIT_LENGTH): `randomblob(1e9)`, `zeroblob`,
  `hex`, `replace`... fail at once with «string or blob too big», a 400;
- no query bringing more than MAX_QUERY_BYTES of values into Python (a row factory counts them as the
  rows are fetched): 5,000 rows of 8 MB each is refused before it is 40 GB;
- `printf` / `format` answer NULL at once for a width or precision above MAX_VALUE_BYTES, as SQLite's
  own do once the text is built: SQLite builds `%.*c` with a huge count a character at a time inside
  one function call, where the time limit (checked between virtual-machine steps) cannot stop it:
  4 s for 1e9.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import weakref

from datasette import hookimpl

MAX_VALUE_BYTES = 8 * 1024 * 1024  # the largest value stored is a few MB (a whole upstream file in documentos)
MAX_QUERY_BYTES = 32 * 1024 * 1024
ROW_OVERHEAD = 16  # counted per value that is not text or bytes (a number, a null)
LIMIT_LENGTH = 0  # SQLite's SQLITE_LIMIT_LENGTH (sqlite3.SQLITE_LIMIT_LENGTH from Python 3.11)


class ResultTooLarge(sqlite3.DatabaseError):
    """A query whose rows would hold more than MAX_QUERY_BYTES: Datasette shows it as the query's error."""


class _Fetching(threading.local):
    """The cursor whose rows this thread is fetching, and the bytes they hold so far."""

    cursor: "weakref.ref | None" = None
    used = 0


_fetching = _Fetching()


def bounded_row(cursor: sqlite3.Cursor, values: tuple) -> sqlite3.Row:
    """Datasette's own row type, once the query's rows so far fit the bound."""
    if _fetching.cursor is None or _fetching.cursor() is not cursor:
        _fetching.cursor, _fetching.used = weakref.ref(cursor), 0
    _fetching.used += sum(len(v) if isinstance(v, (str, bytes)) else ROW_OVERHEAD for v in values)
    if _fetching.used > MAX_QUERY_BYTES:
        raise ResultTooLarge(
            f"la respuesta pasa de {MAX_QUERY_BYTES // 2**20} MB: pida menos filas o columnas (LIMIT, otras columnas)"
        )
    return sqlite3.Row(cursor, values)


# A conversion of SQLite's printf: flags, width, precision (digits or *), type.
_CONVERSION = re.compile(r"%([-+ 0#!,]*)(\*|[0-9]+)?(?:\.(\*|[0-9]+))?([a-zA-Z%])")
_plain = threading.local()  # per thread: a connection whose printf is SQLite's own


def checked_printf():
    def printf(fmt, *args):
        if fmt is None:
            return None
        position = 0
        for flags, width, precision, kind in _CONVERSION.findall(str(fmt)):
            for part in (width, precision):
                if part == "*":
                    value = args[position] if position < len(args) else 0
                    position += 1
                else:
                    value = part or 0
                try:
                    size = abs(int(value))
                except (TypeError, ValueError):
                    size = 0
                if size > MAX_VALUE_BYTES:
                    return None  # what SQLite answers for a text over the length limit, without building it
            if kind != "%":
                position += 1
        plain = getattr(_plain, "conn", None)
        if plain is None:
            plain = _plain.conn = sqlite3.connect(":memory:")
            if hasattr(plain, "setlimit"):
                plain.setlimit(LIMIT_LENGTH, MAX_VALUE_BYTES)
        placeholders = ", ".join("?" * (len(args) + 1))
        return plain.execute(f"SELECT printf({placeholders})", (fmt, *args)).fetchone()[0]

    return printf


def bound(conn: sqlite3.Connection) -> None:
    """The three bounds of the module docstring, on one connection."""
    if hasattr(conn, "setlimit"):  # Python 3.11+; on 3.10 only the rows' bound and printf's apply
        conn.setlimit(LIMIT_LENGTH, MAX_VALUE_BYTES)
    conn.row_factory = bounded_row
    for name in ("printf", "format"):
        conn.create_function(name, -1, checked_printf(), deterministic=True)


@hookimpl
def prepare_connection(conn):
    bound(conn)
