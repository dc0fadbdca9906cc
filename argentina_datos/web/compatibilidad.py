"""Every place the project reaches into Datasette's internals, each measured and each tested
(tests/test_compatibilidad.py), written for the 0.65 series.

A move to Datasette 1.0 touches this module (and the copied templates listed in web/paginas): the
rest of the package uses Datasette's documented plugin hooks only.

- ``served_datasette_class``: a Datasette that caches ``_table_permission_allows`` and
  ``plugin_config`` (0.65 deep-copies the whole metadata on each call: 1.4 s of event loop per home
  page);
- ``ServedDatabase``: a Database whose threads keep their connections per Database object (0.65 keys
  them by name only, so a new build's Database would read the old file), and which releases a failed
  query's cursor in the thread that ran it (see ``execute_fn``);
- ``ServedDatabase.execute``: without Datasette's own log line for each failed query (0.65's
  ``log_sql_errors``, on by default);
- ``ServedDatabase.primary_keys``: a table whose records carry their own id (a senator's ``id``, a count's
  ``senadorId``) is named by it in Datasette's URLs and links, not by its rowid (``/argentina/senadores/471`` is
  the senator whose id is 471): 0.65 takes a table's key only from its SQLite schema;
- ``replace_execute``: a wrapper around ``Datasette.execute`` (the facets' shared time budget);
- ``check_version``: refuses to run these on a Datasette they were not written for;
- ``COPIED_TEMPLATES``: the Datasette page templates that web/paginas/templates/ holds translated
  copies of (the pages in Spanish), with a digest of each original; ``changed_templates`` names those
  whose original the installed Datasette no longer has. On an upgrade, copy each again from
  datasette/templates/ and translate only its text (the git history shows each translation as a diff
  against the original), then update its digest.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import traceback
from pathlib import Path
from typing import TYPE_CHECKING

import datasette
from datasette.database import Database, connections

if TYPE_CHECKING:
    from datasette.app import Datasette

SERIES = "0.65."  # the Datasette versions these internals were read from


# Datasette's template -> sha256 (first 16 hex digits) of the Datasette 0.65.5 original translated.
COPIED_TEMPLATES = {
    "_crumbs.html": "882c9d69e13363b4",
    "_description_source_license.html": "13fcf73b733dadc5",
    "_facet_results.html": "622d3c764aa14f17",
    "_footer.html": "d190d9e7dc5046c1",
    "_suggested_facets.html": "da43051a548a47be",
    "_table.html": "f75a8872713f28fd",
    "base.html": "bb22df33caea147e",
    "error.html": "c2115d1fdbff1a48",
    "index.html": "ed57b14bb5656bcd",
    "query.html": "bc3559df0e209da9",
    "row.html": "ff5dde41541c39dd",
    "table.html": "81cec4b0f7948bf0",
}
DATASETTE_TEMPLATES = Path(datasette.__file__).parent / "templates"


def template_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def changed_templates(templates: Path = DATASETTE_TEMPLATES) -> list[str]:
    """The copied templates whose original in ``templates`` is not the one translated (or is gone)."""
    return [
        name
        for name, digest in COPIED_TEMPLATES.items()
        if not (templates / name).exists() or template_digest(templates / name) != digest
    ]


class UntestedDatasette(RuntimeError):
    pass


def check_version(version: str = datasette.__version__) -> None:
    if not version.startswith(SERIES):
        raise UntestedDatasette(
            f"argentina-datos usa partes internas de Datasette {SERIES}x y el instalado es {version}: "
            "revise argentina_datos/web/compatibilidad.py (y las plantillas de web/paginas) antes de usarlo"
        )


@functools.cache
def served_datasette_class() -> type[Datasette]:
    # Imported here: datasette.app loads the plugins (this package's among them) when imported.
    from datasette.app import Datasette

    check_version()

    class ServedDatasette(Datasette):
        def _table_permission_allows(self, database, table):
            # Datasette 0.65.5 deep-copies the whole metadata (every table's description, the canned
            # queries) for each table it checks: the home and database pages spent 1.4 s of event loop
            # on it. The metadata does not change while served, so each answer is computed once.
            cache = self.__dict__.setdefault("_permissions_by_table", {})
            key = (database, table)
            if key not in cache:
                cache[key] = super()._table_permission_allows(database, table)
            return cache[key]

        def plugin_config(self, plugin_name, database=None, table=None, fallback=True):
            # Plugins ask for their configuration for every cell they render, and each call merges all
            # the metadata again: a quarter of a table page's time on the event loop, for an answer
            # that cannot change while served.
            cache = self.__dict__.setdefault("_plugin_configs", {})
            key = (plugin_name, database, table, fallback)
            if key not in cache:
                cache[key] = super().plugin_config(plugin_name, database=database, table=table, fallback=fallback)
            return cache[key]

    return ServedDatasette


def own_keys() -> dict[str, list[str]]:
    """The tables whose records carry their own id, as the catalogue declares it (their natural key is that one
    field: ``id`` or ``...Id``) -> that column.  Not the tables with child tables: their rows are named by
    ``fila``, which the child tables point to."""
    from argentina_datos.catalogo import DATASETS

    return {
        d.table: list(d.unique)
        for d in DATASETS
        if len(d.unique) == 1 and (d.unique[0] == "id" or d.unique[0].endswith("Id")) and not d.has_children
    }


OWN_KEYS = own_keys()


class ServedDatabase(Database):
    """A read-only Database for the file a path names now."""

    async def primary_keys(self, table):
        own = OWN_KEYS.get(table)
        return list(own) if own else await super().primary_keys(table)

    async def execute(self, sql, params=None, truncate=False, custom_time_limit=None, page_size=None, **kwargs):
        # A query that fails is the user's SQL (?sql=, _where=), answered as a 400 page, or a bug, a 500
        # whose traceback web/complementos/errores.py logs. Datasette also wrote an `ERROR: conn=...`
        # line for each, so every mistyped query read as an error of the server.
        kwargs["log_sql_errors"] = False
        return await super().execute(
            sql, params, truncate=truncate, custom_time_limit=custom_time_limit, page_size=page_size, **kwargs
        )

    async def execute_fn(self, fn):
        if self.ds.executor is None:
            return await super().execute_fn(fn)
        # Datasette keeps one connection per thread keyed by the database's name only, so a new
        # Database of the same name (a new build, web/recarga.py) would go on reading the old file.
        key = f"{self.name}\0{id(self)}"

        def in_thread():
            conn = getattr(connections, key, None)
            if not conn:
                conn = self.connect()
                self.ds._prepare_connection(conn, self.name)
                setattr(connections, key, conn)
            try:
                return fn(conn)
            except BaseException as e:
                # The error's traceback keeps the query's frames, and with them its cursor, in a
                # reference cycle; the garbage collector then finalizes that cursor on the event loop,
                # where sqlite3_reset waits, holding the GIL, for this thread's connection to finish
                # whatever query it runs next: every request of the server stalled up to the SQL time
                # limit (3 s). Clearing the frames here releases the cursor now, in its own thread.
                traceback.clear_frames(e.__traceback__)
                raise

        return await asyncio.get_running_loop().run_in_executor(self.ds.executor, in_thread)


def serve_file(ds: Datasette, path: str, name: str) -> ServedDatabase:
    """``path`` as the immutable database ``name`` of ``ds``, in place of the one Datasette opened."""
    db = ServedDatabase(ds, path=path, is_mutable=False)
    if name in ds.databases:
        ds.remove_database(name)
    return ds.add_database(db, name=name)


def replace_execute(ds: Datasette, wrapper) -> None:
    """``ds.execute`` becomes ``wrapper(original)``: Datasette's facets call it by attribute, per query."""
    ds.execute = wrapper(ds.execute)
