"""argentina-datos: the ArgentinaDatos public data in one SQLite file, served by Datasette."""

__version__ = "0.1.0"
