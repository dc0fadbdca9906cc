"""The ``build-db`` command's process (``python -m argentina_datos.construccion.comando``, ``build_db.py``).

sqlite-utils imports pandas and numpy whenever they are installed (``argentina_datos.leer`` installs pandas), only
to map their types for a DataFrame inserted, which a build never does: 0.6 s of each build's start, a fifth of a
one-day update (docs/construir.md).  The command's own process imports it first with both seen as absent.  Only
here, never on an import of the package (tests/test_importar.py): a notebook's sqlite-utils keeps taking numpy.
"""

from __future__ import annotations

import sys


def main() -> int:
    if "sqlite_utils" not in sys.modules:
        absent = [name for name in ("pandas", "numpy") if name not in sys.modules]
        for name in absent:
            sys.modules[name] = None  # type: ignore[assignment]  # an import of it raises ImportError
        try:
            import sqlite_utils  # noqa: F401
        finally:
            for name in absent:
                del sys.modules[name]
    from argentina_datos.construccion.cli import main as build_db

    return build_db()


if __name__ == "__main__":
    sys.exit(main())
