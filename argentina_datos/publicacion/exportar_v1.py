"""The /v1 tree as static files, from the database: ``DIRECTORIO/v1/<ruta>/index.json`` for every route
the database answers, with a precompressed ``index.json.gz`` beside it, and ``DIRECTORIO/v1/openapi.json``.

Every body comes from the Responder (respuestas/), the code path /v1 answers with, so each file is byte for
byte what ``serve-datos`` answers at that route.  The routes are every file the source had (the table
``fuentes``), every route without parameters, and every value a per-date or per-id route
answers: the values its table has and, for a route that derives its answer from a list (a date of
/v1/cotizaciones/dolares with no file of its own), every value of that list; and the spec's name of a house
where the data has another (``turista``, which the data calls ``tarjeta``).

Incremental: a file whose bytes are unchanged is not touched (``rsync``, ``rclone`` or ``aws s3 sync``
upload only what changed); the files of routes that no longer exist are removed.  Each file's modification
time is a function of its bytes alone (``content_mtime``): nginx's ETag and Last-Modified come from it, so
they depend on the content only, the same on every replica and after every export (deploy/nginx.conf).  Each file is written under a temporary name beside it and renamed over the real one,
so an interrupted export never leaves a half-written file under a route's name (its temporary files are
removed by the next export).  A route the database fails to answer (a 5xx: a damaged file) stops the
export before anything is removed.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

import orjson

from argentina_datos.almacen import publicados
from argentina_datos.almacen.propias import FUENTES
from argentina_datos.catalogo import BY_TABLE, COMBINATIONS, DATASETS
from argentina_datos.catalogo.esquema import PathValue
from argentina_datos.catalogo.parametros import CASA, CASA_ALIASES, Param, group_name
from argentina_datos.documentacion.openapi import OPENAPI_PATH, static_document
from argentina_datos.respuestas import seleccion
from argentina_datos.respuestas.responder import Responder, fill_path
from argentina_datos.respuestas.respuesta import ApiError
from argentina_datos.respuestas.rutas import Router

INDEX = "index.json"
GZ_SUFFIX = ".gz"
OPENAPI_FILE = OPENAPI_PATH.lstrip("/")  # v1/openapi.json
TEMP = re.compile(r"\..+\.tmp")  # .index.json.<pid>.tmp: a file being written (or left by an interrupted export)
OWN_NAMES = {INDEX, INDEX + GZ_SUFFIX}
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class ExportError(Exception):
    """A route the database fails to answer (a 5xx): the export stops before removing anything."""


@dataclass
class Report:
    routes: int = 0
    written: int = 0  # files (bodies and .gz) whose bytes changed or were missing
    unchanged: int = 0
    removed: int = 0  # files of routes that no longer exist, and temporary files of an interrupted export
    bytes_written: int = 0
    bytes_total: int = 0  # the tree's files, as exported
    seconds: float = 0.0

    @property
    def files(self) -> int:
        return self.written + self.unchanged

    def summary(self) -> str:
        mb = 1024 * 1024
        return (
            f"{self.routes:,} rutas, {self.files:,} archivos: {self.written:,} escritos "
            f"({self.bytes_written / mb:,.1f} MB), {self.unchanged:,} sin cambios, {self.removed:,} borrados; "
            f"el árbol ocupa {self.bytes_total / mb:,.1f} MB; {self.seconds:.1f} s"
        )


# ---- which routes the database answers --------------------------------------------------
def _path_text(value: object) -> str:
    """A column's value as a path writes it: a date AAAA-MM-DD as AAAA/MM/DD, as upstream's files are named."""
    text = str(value)
    return text.replace("-", "/") if ISO_DATE.fullmatch(text) else text


def _value_reader(pv: PathValue) -> Callable[[object], Optional[dict]]:
    """How a column's value gives back the path parameters it was made of (None: it cannot)."""
    if not pv.text:
        return lambda value: {pv.name: _path_text(value)}
    regex = ""
    for part in re.split(r"({[^}]+})", pv.text):
        regex += f"(?P<{group_name(part[1:-1])}>.+?)" if part.startswith("{") else re.escape(part)
    compiled = re.compile(regex)
    names = re.findall(r"{([^}]+)}", pv.text)

    def read(value: object) -> Optional[dict]:
        m = compiled.fullmatch(str(value))
        return {n: _path_text(m.group(group_name(n))) for n in names} if m else None

    return read


def filled_paths(
    conn: sqlite3.Connection, template: str, params: Iterable[Param], table: str, where: dict
) -> Iterator[str]:
    """``template`` filled with every value ``table`` has for the columns ``where`` takes from the path (its
    literal values kept as a condition), chosen by the selection that answers the routes (respuestas/seleccion.py)."""
    by_name = {p.name: p for p in params}
    taken = {col: v for col, v in where.items() if isinstance(v, PathValue)}
    literal = {col: v for col, v in where.items() if not isinstance(v, PathValue)}
    if not taken:
        return
    readers = [_value_reader(v) for v in taken.values()]
    for row in seleccion.distinct(conn, BY_TABLE[table], literal, list(taken)):
        values: dict = {}
        for reader, value in zip(readers, row):
            got = reader(value) if value is not None else None
            if got is None:
                break
            values.update(got)
        else:
            if set(values) >= set(by_name):
                yield fill_path(template, values)


def candidate_routes(conn: sqlite3.Connection, router: Router) -> set[str]:
    """Every route the database may answer: more than it does (a value of a list may have no answer of
    its own, a stored file may be a past version); each one is asked."""
    out = {r for (r,) in conn.execute(f"SELECT ruta FROM {FUENTES.name}")}
    out.update(e.path for e in router.endpoints if not e.params)
    for ds in DATASETS:
        for route in ds.routes:
            if not route.params:
                continue
            out.update(filled_paths(conn, route.path, route.params, ds.table, dict(route.where)))
            if route.derive:
                out.update(filled_paths(conn, route.path, route.params, route.derive.table, dict(route.derive.where)))
    out |= aliased(router, out)
    for c in COMBINATIONS:
        if not c.params:
            continue
        where = {column: PathValue(param) for column, param in c.where.items()}
        for table in c.tables:
            out.update(filled_paths(conn, c.path, c.params, table, where))
        if c.known_in:
            known_table, known_column = c.known_in
            param = next(iter(c.where.values()))
            out.update(filled_paths(conn, c.path, c.params, known_table, {known_column: PathValue(param)}))
    return out


def aliased(router: Router, paths: Iterable[str]) -> set[str]:
    """The routes that name a house by the spec's name where the data has another (turista for tarjeta): /v1
    answers them, so the tree holds them too."""
    names = {value: alias for alias, value in CASA_ALIASES.items()}
    out = set()
    for path in paths:
        found = router.find(path)
        if found is None or CASA not in found[0].params:
            continue
        match, group = found[1], group_name(CASA.name)
        alias = names.get(match.group(group))
        if alias is not None:
            start, end = match.span(group)
            out.add(path[:start] + alias + path[end:])
    return out


def canonical(router: Router, path: str) -> Optional[str]:
    """The path as upstream's files are named (a month 9 is the file of 09); None if no route takes it
    as it is (a stored file no catalogue route describes keeps its own path)."""
    found = router.find(path)
    if found is None:
        return path
    endpoint, match = found
    try:
        return endpoint.canonical_path(match, endpoint.parse(match))
    except ApiError:
        return None


def routes(conn: sqlite3.Connection, router: Router) -> list[str]:
    """The candidate routes, canonical, in order (a directory's routes together)."""
    out = {canonical(router, p) for p in candidate_routes(conn, router)}
    return sorted(p for p in out if p is not None and p != OPENAPI_PATH)


# ---- writing the tree ----------------------------------------------------------------------
# The modification times a file's bytes map to: 2000-01-01 plus up to 2**28 s (to mid-2008), a past
# nobody mistakes for the data's date; with the size, 28 bits of hash make a false 304 (same size, same
# time, other bytes) a 1 in 268 million chance per changed file.
CONTENT_EPOCH = 946684800
CONTENT_SPAN = 1 << 28


def content_mtime(data: bytes) -> int:
    """The modification time of a file with these bytes (nginx's ETag is mtime-size: this makes it the content's)."""
    return CONTENT_EPOCH + int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big") % CONTENT_SPAN


def _set_mtime(path: Path, data: bytes) -> None:
    mtime = content_mtime(data)
    if int(path.stat().st_mtime) != mtime:
        os.utime(path, (mtime, mtime))


class Tree:
    """Files under ``root``, written only when their bytes change, each atomically."""

    def __init__(self, root: Path, report: Report):
        self.root = root
        self.report = report
        self.kept: set[str] = set()  # every file of this export, relative to root

    def put(self, relative: str, data: bytes) -> bool:
        """Write ``data`` at ``relative`` unless the file already has exactly these bytes; True if written."""
        self.kept.add(relative)
        path = self.root / relative
        self.report.bytes_total += len(data)
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                self.report.unchanged += 1
                _set_mtime(path, data)  # a tree exported before the times were the content's
                return False
        except FileNotFoundError:
            path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, data, mtime=content_mtime(data))
        self.report.written += 1
        self.report.bytes_written += len(data)
        return True

    def keep(self, relative: str) -> bool:
        """Count an existing file as unchanged without reading it; False if it is missing."""
        path = self.root / relative
        try:
            stat = path.stat()
        except FileNotFoundError:
            return False
        if not CONTENT_EPOCH <= stat.st_mtime < CONTENT_EPOCH + CONTENT_SPAN:
            return False  # written before the times were the content's: put again (unchanged bytes are not rewritten)
        size = stat.st_size
        self.kept.add(relative)
        self.report.unchanged += 1
        self.report.bytes_total += size
        return True

    def put_route(self, route: str, body: bytes, name: str = INDEX, zipped: Optional[bytes] = None) -> None:
        """The body of ``route`` and, when it compresses, its .gz (``zipped``: a file upstream published, as the
        database stores it compressed; else made only when the body changed or the .gz is missing: the same body
        always gives the same .gz)."""
        relative = f"{route.strip('/')}/{name}" if name == INDEX else route.strip("/")
        changed = self.put(relative, body)
        if changed or not self.keep(relative + GZ_SUFFIX):
            zipped = zipped or publicados.compress(body)  # the same body always gives the same bytes
            if len(zipped) < len(body):
                self.put(relative + GZ_SUFFIX, zipped)

    def remove_others(self, top: str = "v1") -> None:
        """Remove the files of routes this export did not write (and the temporary files an interrupted
        one left), then the directories left empty.  Other files under the tree are not ours: kept."""
        for dirpath, dirnames, filenames in os.walk(self.root / top, topdown=False):
            here = Path(dirpath)
            for name in filenames:
                relative = (here / name).relative_to(self.root).as_posix()
                ours = name in OWN_NAMES or relative in (OPENAPI_FILE, OPENAPI_FILE + GZ_SUFFIX) or TEMP.fullmatch(name)
                if ours and relative not in self.kept:
                    (here / name).unlink()
                    self.report.removed += 1
            if here != self.root / top:
                try:
                    here.rmdir()  # only when empty
                except OSError:
                    pass


def write_atomically(path: Path, data: bytes, mtime: Optional[int] = None) -> None:
    """``data`` under a temporary name beside ``path``, then renamed over it: a reader (or an interrupted
    export) sees the old file or the new one, never part of one; with ``mtime``, already of that time (nginx
    never serves the new bytes with another time, and so another ETag)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        if mtime is not None:
            os.utime(tmp, (mtime, mtime))
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# ---- the export ------------------------------------------------------------------------------
def export(
    db: Path,
    out: Path,
    progress: Optional[Callable[[int], Callable[[], None]]] = None,
    router: Optional[Router] = None,
) -> Report:
    """Export ``db``'s /v1 tree under ``out`` (``out/v1/...``); ``progress(total)`` gives a function called
    once per route."""
    started = time.perf_counter()
    report = Report()
    out.mkdir(parents=True, exist_ok=True)
    responder = Responder(router)
    conn = sqlite3.connect(f"file:{Path(db).resolve()}?mode=ro", uri=True)
    try:
        todo = routes(conn, responder.router)
        step = progress(len(todo)) if progress else (lambda: None)
        tree = Tree(out, report)
        for route in todo:
            answer = responder.answer(conn, route)
            if answer.status == 200:
                tree.put_route(route, answer.json(), zipped=answer.gzip)
                report.routes += 1
            elif answer.status >= 500:
                # A broken database (or a bug) must not read as "this route is gone" and empty the tree.
                raise ExportError(f"{route}: {answer.message} (HTTP {answer.status}); no se borró nada")
            step()
        maxima = tuple(sorted((responder.maxima or {}).items()))
        tree.put_route(OPENAPI_PATH, orjson.dumps(static_document(responder.router, dict(maxima))), name="")
        tree.remove_others()
    finally:
        conn.close()
    report.seconds = time.perf_counter() - started
    return report
