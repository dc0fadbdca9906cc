"""A served database file replaced by a new build is picked up without a restart.

``build-db`` replaces its output atomically (a new file renamed over the old one), so a running
server keeps reading the old file through its open connections: a mix of old and new answers
until restart.  Here each request checks, at most once a second, whether the path now names
another file; if so the database is swapped for a new one on the new file, in one assignment:
requests already running finish on the old file, every later one reads the new file, and the
/v1 plugin drops its answers cached from the old one.

A new file that is not a complete build (almacen/archivo.py: cut short, not SQLite, empty) is not
switched to: the server keeps the good one.  For that, a database served from a file opens its
connection on every one of Datasette's SQL threads at once (at startup and right after a switch):
Datasette opens them lazily, by path, and a thread's first query after the path changed would
otherwise read the new file, good or not.  A file copied over the served one in place keeps its
inode, and is seen by its size and modification time; but the old connections then read pages of
the new file while it is being written: replace the file by renaming a complete one over it (as
build-db does), never in place.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import threading
import time
import weakref
from typing import Optional

from datasette import hookimpl
from datasette.database import Database

from argentina_datos.almacen import archivo
from argentina_datos.web.compatibilidad import ServedDatabase

log = logging.getLogger(__name__)

CHECK_EVERY = 1.0  # seconds between two looks at the files
CLOSE_OLD_AFTER = 60.0  # seconds: long enough for requests still reading the old file


class Watcher:
    def __init__(self):
        self.last_look = 0.0
        self.files: dict[int, tuple] = {}  # id(database) -> identity (_identity) of the file it reads
        self.refused: dict[str, tuple] = {}  # path -> identity of a file found unservable (said once)
        self.to_open: list[str] = []  # databases switched to, their connections not yet opened everywhere

    def look(self, datasette, force: bool = False) -> bool:
        """Swap every immutable database whose path now names another file; True if any."""
        now = time.monotonic()
        if now - self.last_look < CHECK_EVERY and not force:
            return False
        self.last_look = now
        swapped = False
        for name, db in list(datasette.databases.items()):
            if not db.path or db.is_mutable:
                continue
            current = _identity(db.path)
            if current is None:
                continue  # between a delete and a new file: look again next time
            known = self.files.setdefault(id(db), current)
            if known != current and self._servable(db.path, current):
                self._swap(datasette, name, db, current)
                swapped = True
        return swapped

    def _servable(self, path: str, identity: tuple) -> bool:
        """A new file that is not a complete build (cut short, not SQLite, still being copied) is not
        switched to: the server keeps the one it has, and says why once per file."""
        bad = archivo.problem(path)
        if bad is None:
            self.refused.pop(path, None)
            return True
        if self.refused.get(path) != identity:
            self.refused[path] = identity
            log.warning("no se cambia a la base nueva %s: %s; se sigue sirviendo la anterior", path, bad)
        return False

    def _swap(self, datasette, name: str, old: Database, identity: tuple) -> None:
        log.info(
            "cambio a la base nueva %s (%s bytes); la anterior se cierra en %d s",
            old.path,
            f"{identity[2]:,}",
            CLOSE_OLD_AFTER,
        )
        self.to_open.append(name)
        new = ServedDatabase(datasette, path=old.path, is_mutable=False)
        new.name, new.route = old.name, old.route
        databases = dict(datasette.databases)
        databases[name] = new
        datasette.databases = databases  # one assignment: each request sees the old or the new one
        self.files[id(new)] = identity
        self.files.pop(id(old), None)
        try:
            asyncio.get_running_loop().call_later(CLOSE_OLD_AFTER, old.close)
        except RuntimeError:  # no loop (a synchronous caller): the old connections go with the object
            pass


_watchers: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def disk_state(datasette, db: Database) -> Optional[dict]:
    """Whether the file at ``db``'s path is the one being served (/-/salud.json): its path, ``sirviendo`` and, when
    it is not, ``problema`` (missing, or a new file refused: cut short, not SQLite).  None for a database without
    a file."""
    if not db.path:
        return None
    watcher = _watchers.get(datasette)
    served = watcher.files.get(id(db)) if watcher else None
    current = _identity(db.path)
    if current is None:
        problem: Optional[str] = "no existe (se sigue sirviendo el archivo abierto; un reinicio fallaría)"
    elif served is None or served == current:
        problem = None
    else:  # a good new file is switched to on the next look (within CHECK_EVERY): only a refused one is a problem
        bad = archivo.problem(db.path)
        problem = f"{bad}; se sigue sirviendo la base anterior, y un reinicio fallaría" if bad else None
    return {"ruta": db.path, "sirviendo": problem is None, "problema": problem}


def look(datasette, force: bool = False) -> bool:
    watcher = _watchers.get(datasette)
    if watcher is None:
        watcher = _watchers[datasette] = Watcher()
    return watcher.look(datasette, force)


def _identity(path: str) -> Optional[tuple]:
    """The file a path names, and its size and modification time: a new build renamed over the path is
    another inode; a file copied over it in place (`cp new.db argentina.db`) keeps the inode."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


async def open_on_every_thread(datasette, db: Database) -> None:
    """Open ``db``'s connection on each of Datasette's SQL threads now, while its path names its file.
    Each thread runs one task that waits for the others, so that the tasks land on distinct threads;
    threads busy with a long query past the timeout open theirs later, as before."""
    threads = datasette.setting("num_sql_threads")
    if not threads or datasette.executor is None or not db.path:
        return
    barrier = threading.Barrier(threads)

    def hold(conn) -> None:
        try:
            barrier.wait(timeout=5)
        except threading.BrokenBarrierError:
            pass

    try:
        await asyncio.gather(*(db.execute_fn(hold) for _ in range(threads)))
    except sqlite3.Error as e:  # an unreadable file: the requests answer it as a 503
        log.warning("no se pudo abrir %s: %s", db.path, e)


async def open_switched(datasette) -> None:
    watcher = _watchers.get(datasette)
    while watcher is not None and watcher.to_open:
        db = datasette.databases.get(watcher.to_open.pop())
        if db is not None:
            start = time.perf_counter()
            await open_on_every_thread(datasette, db)
            log.info(
                "base nueva %s abierta en los hilos de SQL en %.0f ms", db.path, (time.perf_counter() - start) * 1000
            )


@hookimpl
def startup(datasette):
    # Which file each database reads is noted now, before anything can replace it, and each one's
    # connections are opened on that file.
    look(datasette, force=True)

    async def open_all():
        for db in list(datasette.databases.values()):
            if db.path and not db.is_mutable:
                await open_on_every_thread(datasette, db)

    return open_all


def wrap(datasette, app):
    """Every request first looks whether a new build replaced the file (order: web.capas)."""

    async def looking(scope, receive, send):
        if scope["type"] == "http" and look(datasette):
            await open_switched(datasette)
        await app(scope, receive, send)

    return looking
