"""argentina-datos: the ArgentinaDatos public data in one SQLite file, served by Datasette."""

import sys as _sys

__version__ = "0.1.0"


def _sqlite_utils_without_pandas() -> None:
    """sqlite-utils imports pandas and numpy when they are installed (with pyarrow, 0.37 s of each build-db
    process and of its second process: two thirds of their start) only to store their timestamps and numbers,
    which this package never hands it.  Imported first here with them hidden, then shown again: an
    ``import pandas`` works as ever."""
    hidden = ("pandas", "numpy")
    if "sqlite_utils" in _sys.modules or any(name in _sys.modules for name in hidden):
        return
    for name in hidden:
        _sys.modules[name] = None  # type: ignore[assignment]  # an import of it raises ImportError meanwhile
    try:
        import sqlite_utils  # noqa: F401
    finally:
        for name in hidden:
            del _sys.modules[name]


_sqlite_utils_without_pandas()

__all__ = ["leer"]


def __getattr__(name: str):
    # argentina_datos.leer, without loading the catalogue (or pandas) on every import of the package.
    if name == "leer":
        from argentina_datos.lectura import leer

        return leer
    raise AttributeError(f"module 'argentina_datos' has no attribute {name!r}")
