"""How the database is served: the Datasette settings the tests and `serve-datos` share."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
METADATA = REPO / "metadata.yml"
PLUGINS = REPO / "plugins"
TEMPLATES = REPO / "templates"
DATABASE_NAME = "argentina"  # the database name metadata.yml describes

SETTINGS = {
    "sql_time_limit_ms": 3000,
    "max_returned_rows": 5000,
    "default_page_size": 100,
    "facet_time_limit_ms": 400,
    "num_sql_threads": 3,
    "default_cache_ttl": 3600,
    "allow_download": True,
    "allow_csv_stream": True,
    # Suggesting facets probes every column: 2.3 s per page of the 850,000-row fci_valores, 0.17 s
    # without. Facets set in metadata.yml still show, and any column can be faceted from its menu.
    "suggest_facets": False,
}


def datasette_for(db_path, **kwargs):
    """A Datasette instance configured exactly as `serve-datos` runs it (for tests and scripts)."""
    import yaml
    from datasette.app import Datasette

    metadata = yaml.safe_load(METADATA.read_text()) if METADATA.exists() else {}
    ds = Datasette(
        immutables=[str(db_path)], metadata=metadata, plugins_dir=str(PLUGINS),
        template_dir=str(TEMPLATES) if TEMPLATES.is_dir() else None, settings=SETTINGS, **kwargs,
    )
    # metadata.yml (descriptions, canned queries) is keyed by database name, which Datasette takes
    # from the file stem: serve any file (build/argentina-test.db too) under the one name it documents.
    stem = Path(db_path).stem
    if stem != DATABASE_NAME and stem in ds.databases:
        db = ds.databases[stem]
        ds.remove_database(stem)
        ds.add_database(db, name=DATABASE_NAME)
    return ds


def serve_command(db_path: str, host: str, port: int) -> list[str]:
    cmd = ["datasette", "serve", "-i", db_path, "--plugins-dir", str(PLUGINS), "-h", host, "-p", str(port)]
    if METADATA.exists():
        cmd += ["--metadata", str(METADATA)]
    if TEMPLATES.is_dir():
        cmd += ["--template-dir", str(TEMPLATES)]
    for name, value in SETTINGS.items():
        cmd += ["--setting", name, str(value).lower() if isinstance(value, bool) else str(value)]
    return cmd


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="serve-datos", description="Sirve la base con Datasette y la API /v1.")
    p.add_argument("db", nargs="?", default="argentina.db", help="archivo SQLite (por defecto %(default)s)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8001)
    args = p.parse_args(argv)
    if not Path(args.db).exists():
        print(f"error: no existe {args.db}; constrúyalo antes con build-db", file=sys.stderr)
        return 1
    cmd = serve_command(args.db, args.host, args.port)
    exe = Path(sys.executable).with_name("datasette")
    cmd[0] = str(exe) if exe.exists() else "datasette"
    os.execv(cmd[0], cmd) if exe.exists() else os.execvp(cmd[0], cmd)
    return 0


if __name__ == "__main__":
    sys.exit(main())
