"""The build: sources (a directory or HTTP), the per-dataset loader, history and `build-db`."""

import sys


def _sqlite_utils_without_pandas() -> None:
    """sqlite-utils imports pandas and numpy whenever they are installed (``argentina_datos.leer`` installs pandas),
    only to map their types for a DataFrame inserted, which a build never does: 0.6 s of every build's start, a
    fifth of a one-day update (docs/construir.md).  Imported here first, it sees them as absent; an import of pandas
    afterwards loads it as usual."""
    if "sqlite_utils" in sys.modules:
        return
    absent = [name for name in ("pandas", "numpy") if name not in sys.modules]
    for name in absent:
        sys.modules[name] = None  # type: ignore[assignment]  # an import of it raises ImportError
    try:
        import sqlite_utils  # noqa: F401
    finally:
        for name in absent:
            del sys.modules[name]


_sqlite_utils_without_pandas()
