"""argentina-datos: the ArgentinaDatos public data in one SQLite file, served by Datasette."""

__version__ = "0.1.0"

__all__ = ["leer"]


def __getattr__(name: str):
    # argentina_datos.leer, without loading the catalogue (or pandas) on every import of the package.
    if name == "leer":
        from argentina_datos.lectura import leer

        return leer
    raise AttributeError(f"module 'argentina_datos' has no attribute {name!r}")
