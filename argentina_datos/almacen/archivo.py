"""Whether a file is a database this project built, checked before serving it.

A truncated file, random bytes, a text file, a directory or an empty file given to the server used to
start it, and then every request failed.  The checks read the SQLite header and the build's own table:
about a millisecond, so a running server can make them before switching to a new file too.  (A full
`PRAGMA quick_check` takes seconds on the whole base: the builder runs it before writing the file.)
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Optional
from urllib.parse import quote

from argentina_datos.almacen.propias import CONSTRUCCION

MAGIC = b"SQLite format 3\x00"


def problem(path: str | os.PathLike) -> Optional[str]:
    """What makes ``path`` unservable, in a few words; None for a complete build."""
    p = Path(path)
    if not p.exists():
        return "no existe; constrúyala antes con build-db"
    if p.is_dir():
        return "es un directorio, no un archivo de base de datos"
    size = p.stat().st_size
    if size == 0:
        return "está vacío (0 bytes)"
    with p.open("rb") as f:
        header = f.read(100)
    if not header.startswith(MAGIC):
        return f"no es una base SQLite (empieza con {header[:16]!r})"
    if len(header) < 100:
        return f"está cortado ({size} bytes: ni siquiera el encabezado de SQLite entero)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The page count in the header is valid when written by the same change as the version number.
    if header[24:28] == header[92:96] and size < pages * page_size:
        return f"está cortado: tiene {size:,} bytes y su encabezado dice {pages * page_size:,}"
    try:
        conn = sqlite3.connect(f"file:{quote(str(p))}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error as e:
        return f"no se puede abrir ({e})"
    try:
        conn.execute(f"SELECT valor FROM {CONSTRUCCION.name} WHERE clave = 'huella'").fetchone()
    except sqlite3.Error as e:
        if str(e).startswith("no such table"):
            return (
                f"no es una base de argentina-datos (le falta la tabla {CONSTRUCCION.name}); constrúyala con build-db"
            )
        return f"no se puede leer ({e})"
    finally:
        conn.close()
    return None
