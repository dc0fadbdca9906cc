"""An incremental build: the new database starts as a copy of the previous one and only what changed is built.

The previous build is reused when the same code wrote it (its ``esquema`` fact: ``catalogue_fingerprint``) and the
whole catalogue is built.  Each dataset whose files have the stamps the previous build stored for it (its entry in
the ``conjuntos`` fact; a dataset with a file it could not read has none) is kept as it is, with its rows of
``fuentes`` and ``calidad``; a dataset whose previous files are all still there, unchanged and first, with new files
after them (the daily case of a per-date dataset: ``extendable``), keeps its rows and loads only the new files; every
other dataset is dropped and loaded again.  The derived tables and the link columns that read a dataset loaded again
or extended, the audit of what they touch, and the build's own tables are written again.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import sqlite_utils

from argentina_datos import __version__
from argentina_datos.almacen import propias, publicados
from argentina_datos.almacen.tablas import Layout, quote
from argentina_datos.catalogo import DERIVED_TABLES
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.construccion.fuentes import PreviousBuild

SCHEMA = "esquema"  # the _construccion fact: the fingerprint of the code that wrote the database
DATASETS_FACT = "conjuntos"  # the _construccion fact: {table: [stamp of its files, rows]} of each dataset read whole
# The versions store, which an incremental build carries in place (construccion/historia.py adds to it).
VERSIONS = [t.name for t in (propias.VERSIONES, propias.REGISTROS_VERSIONES, propias.REVISIONES)]
# Rebuilt by every build, incremental or not: the build's own tables; but the files published (each table's kept or
# dropped with the table, the documents' with them) and the versions store.
REBUILT = [t.name for t in propias.TABLES if t is not propias.PUBLICADOS and t.name not in VERSIONS]


@functools.cache
def catalogue_fingerprint() -> str:
    """Changes whenever the code that decides the database's shape changes (read once a process: the code a process
    runs is the one it imported)."""
    h = hashlib.sha256(__version__.encode())
    for p in sorted(Path(__file__).parents[1].rglob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()


@dataclass
class Reuse:
    """What an incremental build keeps from the previous one."""

    kept: dict[str, int]  # dataset table (or the documents') -> its rows, kept as the previous build left them
    reread: list[str]  # the dataset tables loaded again because their files changed or failed
    derived: set[str]  # derived tables kept
    relink: set[str]  # kept datasets whose link columns read a table loaded again
    # dataset table -> (files, rows) of the previous build it keeps, loading only the files added after them
    extended: dict[str, tuple[int, int]] = field(default_factory=dict)
    seconds: float = 0.0  # the copy of the previous database

    @property
    def documents(self) -> bool:
        return publicados.DOCUMENTS in self.kept

    def written(self, datasets: list[Dataset]) -> set[str]:
        """The datasets and derived tables this build writes again, by their table's name: the datasets loaded
        again, those whose link columns are filled again, the derived tables computed again.  What reads none of
        them is kept as the previous build left it (its series' rows, its audit's findings)."""
        derived = {d.table for d in DERIVED_TABLES if d.table not in self.derived}
        return {ds.table for ds in datasets if ds.table not in self.kept} | self.relink | derived

    def reloaded_tables(self, datasets: list[Dataset]) -> set[str]:
        """Every table of the datasets loaded again (their own, lookups and children)."""
        return {t for ds in datasets if ds.table not in self.kept for t in Layout(ds).tables}


def extendable(ds: Dataset) -> bool:
    """Whether new files of ``ds`` can be loaded after the rows of its previous ones, giving what a full build that
    reads them after those writes: a dataset of files by partition (a file's rows are known by their partition
    values and ``orden``), of one table (no lookup or child ids numbered across its files), with no full-text index
    and no link columns (a build fills those over rows it loads, which start empty)."""
    layout = Layout(ds)
    return bool(ds.partitions) and layout.tables == [ds.table] and not layout.fts_targets() and not ds.links


def plan(
    previous: Optional[PreviousBuild],
    stamps: dict[str, str],
    datasets: list[Dataset],
    *,
    force: bool,
    whole: bool,
    failing: set[str],
    prefixes: dict[str, tuple[int, str]],
) -> tuple[Optional[Reuse], str]:
    """What to keep, or None and why the build is a full one.  ``stamps``: table -> the stamp of its files
    today; ``failing``: datasets whose files the source could not list (never kept); ``prefixes``: table -> (n, the
    stamp of its first n files today) of each dataset with more files today than the n the previous build read."""
    if previous is None:
        return None, "no hay construcción anterior"
    if force:
        return None, "--force"
    if not whole:
        return None, "se construye una parte del catálogo"
    if previous.facts.get(SCHEMA) != catalogue_fingerprint():
        return None, "la base anterior es de otra versión del código o de otro esquema (su huella de esquema difiere)"
    try:
        stored = json.loads(previous.facts.get(DATASETS_FACT) or "")
    except ValueError:
        return None, "la base anterior no dice qué archivos leyó cada conjunto"
    same = {t for t, (stamp, _) in stored.items() if stamps.get(t) == stamp and t not in failing}
    # A *_historico table is made from the versions store, which every build writes again: never kept.
    files = [ds.table for ds in datasets if not ds.versions_of]
    kept = {t: stored[t][1] for t in files + [publicados.DOCUMENTS] if t in same}
    # its previous files first and unchanged (their stamp is the one the previous build stored), new ones after
    extended = {
        ds.table: (prefixes[ds.table][0], stored[ds.table][1])
        for ds in datasets
        if ds.table in files
        and ds.table in prefixes
        and ds.table in stored
        and ds.table not in kept
        and ds.table not in failing
        and prefixes[ds.table][1] == stored[ds.table][0]
        and extendable(ds)
    }
    if not (set(kept) | set(extended)) - {publicados.DOCUMENTS}:
        return None, "cambiaron todos los conjuntos"
    reread = [t for t in files if t not in kept and t not in extended]
    changed = {ds.table for ds in datasets if ds.table not in kept}  # with the *_historico tables
    relink = {ds.table for ds in datasets if ds.table in kept and any(changed & set(link.reads) for link in ds.links)}
    derived = {d.table for d in DERIVED_TABLES if not changed & set(d.reads)}
    return Reuse(kept, reread, derived, relink, extended), ""


def start_from(previous: Path, path: str, reuse: Reuse) -> None:
    """The new database as a copy of the previous one: a file copy, faster than SQLite's backup API, which copies
    page by page (benchmarks/bench_git.py prints both)."""
    start = time.perf_counter()
    shutil.copyfile(previous, path)
    reuse.seconds = time.perf_counter() - start


def drop_changed(db: sqlite3.Connection, datasets: list[Dataset], reuse: Reuse) -> None:
    """Drops what this build writes again: the datasets not kept, the derived tables that read them, the build's
    own tables (and the documents when they changed), each with its views and full-text indexes.  A dataset extended
    keeps its table and its files published; its view and indexes are made again once its new rows are in, as a full
    build makes them (a key declared unique is no longer unique when a new file repeats one)."""
    tables: list[str] = []
    views: list[str] = []
    indexes: list[str] = []
    for ds in datasets:
        if ds.table not in reuse.kept:
            layout = Layout(ds)
            views.append(layout.view_name)
            if ds.table not in reuse.extended:
                tables += layout.tables
                continue
            indexes += [
                r[0]
                for r in db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                    [ds.table],
                )
            ]
    for derived in DERIVED_TABLES:
        if derived.table not in reuse.derived:
            views.append(derived.view_name)
            tables.append(derived.table)
    dropped = sorted(set(tables + ([] if reuse.documents else [publicados.DOCUMENTS, publicados.CUTS])))
    tables += REBUILT
    with sqlite_utils.Database(db).atomic():
        marks = ", ".join("?" for _ in dropped)
        if publicados.TABLE in tables_of(db):
            db.execute(f"DELETE FROM {quote(publicados.TABLE)} WHERE tabla IN ({marks})", dropped)
        for view in views:
            db.execute(f"DROP VIEW IF EXISTS {quote(view)}")
        for index in indexes:
            db.execute(f"DROP INDEX {quote(index)}")
        for table in tables:
            # sqlite-utils' enable_fts names the index <table>_fts; dropping it drops its shadow tables
            db.execute(f"DROP TABLE IF EXISTS {quote(table + '_fts')}")
            db.execute(f"DROP TABLE IF EXISTS {quote(table)}")


def forget(db: sqlite3.Connection, table: str) -> None:
    """An extended dataset whose new files failed: without its table and files published, as a full build leaves it."""
    db.execute(f"DELETE FROM {quote(publicados.TABLE)} WHERE tabla = ?", [table])
    db.execute(f"DROP TABLE {quote(table)}")


def datasets_fact(stamps: dict[str, str], complete: dict[str, int]) -> propias.BuildFact:
    """The ``conjuntos`` fact: the stamp and rows of each dataset read whole (``complete``: table -> rows)."""
    return propias.BuildFact(
        DATASETS_FACT, json.dumps({t: [stamps[t], rows] for t, rows in complete.items() if t in stamps})
    )


def tables_of(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
