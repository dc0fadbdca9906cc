"""An incremental build: the new database starts as a copy of the previous one and only what changed is built.

The previous build is reused when the same code wrote it (its ``esquema`` fact: ``catalogue_fingerprint``) and the
whole catalogue is built.  Each dataset whose files have the stamps the previous build stored for it (its entry in
the ``conjuntos`` fact; a dataset with a file it could not read has none) is kept as it is, with its rows of
``fuentes`` and ``calidad``; every other dataset is dropped and loaded again, and so are the derived tables and the
link columns that read one of them, the audit of what they touch, and the build's own tables.
"""

from __future__ import annotations

import functools
import hashlib
import json
import shutil
import sqlite3
import time
from dataclasses import dataclass
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


def plan(
    previous: Optional[PreviousBuild],
    stamps: dict[str, str],
    datasets: list[Dataset],
    *,
    force: bool,
    whole: bool,
    failing: set[str],
) -> tuple[Optional[Reuse], str]:
    """What to keep, or None and why the build is a full one.  ``stamps``: table -> the stamp of its files
    today; ``failing``: datasets whose files the source could not list (never kept)."""
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
    if not set(kept) - {publicados.DOCUMENTS}:
        return None, "cambiaron todos los conjuntos"
    reread = [t for t in files if t not in kept]
    changed = {ds.table for ds in datasets if ds.table not in kept}  # with the *_historico tables
    relink = {ds.table for ds in datasets if ds.table in kept and any(changed & set(link.reads) for link in ds.links)}
    derived = {d.table for d in DERIVED_TABLES if not changed & set(d.reads)}
    return Reuse(kept, reread, derived, relink), ""


def start_from(previous: Path, path: str, reuse: Reuse) -> None:
    """The new database as a copy of the previous one: a file copy, faster than SQLite's backup API, which copies
    page by page (benchmarks/bench_git.py prints both)."""
    start = time.perf_counter()
    shutil.copyfile(previous, path)
    reuse.seconds = time.perf_counter() - start


def drop_changed(db: sqlite3.Connection, datasets: list[Dataset], reuse: Reuse) -> None:
    """Drops what this build writes again: the datasets not kept, the derived tables that read them, the build's
    own tables (and the documents when they changed), each with its views and full-text indexes."""
    tables: list[str] = []
    views: list[str] = []
    for ds in datasets:
        if ds.table not in reuse.kept:
            layout = Layout(ds)
            views.append(layout.view_name)
            tables += layout.tables
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
        for table in tables:
            # sqlite-utils' enable_fts names the index <table>_fts; dropping it drops its shadow tables
            db.execute(f"DROP TABLE IF EXISTS {quote(table + '_fts')}")
            db.execute(f"DROP TABLE IF EXISTS {quote(table)}")


def datasets_fact(stamps: dict[str, str], complete: dict[str, int]) -> propias.BuildFact:
    """The ``conjuntos`` fact: the stamp and rows of each dataset read whole (``complete``: table -> rows)."""
    return propias.BuildFact(
        DATASETS_FACT, json.dumps({t: [stamps[t], rows] for t, rows in complete.items() if t in stamps})
    )


def tables_of(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
