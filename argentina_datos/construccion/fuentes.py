"""Where the builder reads from: a directory in the upstream static layout, or
an HTTP base URL serving it.

Both answer the same two questions for the builder: which routes match a
source pattern (``expand``) and what bytes a route holds (``read``).  A route
is written without a leading slash, e.g. ``v1/feriados/2025``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import sqlite3
import threading
import time
import zlib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Protocol

import orjson
import sqlite_utils

from argentina_datos.almacen import publicados, versiones as stored
from argentina_datos.almacen.propias import (
    AUSENTES,
    CALIDAD,
    CONSTRUCCION,
    FALLIDOS,
    FUENTES,
    REGISTROS_VERSIONES,
    REVISIONES,
    SERIES,
    VERSIONES,
    Finding,
    SourceFile,
)
from argentina_datos.almacen.tablas import quote
from argentina_datos.catalogo.esquema import Dataset, Source, pattern_regex
from argentina_datos.respuestas.catalogo_series import today as reference_day

if TYPE_CHECKING:
    import httpx  # imported by HttpSource when used: 70 ms of every build from a directory

_DATED = re.compile(r"/([0-9]{4}/[0-9]{2}/[0-9]{2})$")


class SourceError(RuntimeError):
    """A source file or URL that could not be read; the message names it."""


class PreviousUnreadable(Exception):
    """The previous build holds something it cannot give back (its versions, a file's copy): building on would lose
    it."""


class _TooSlow(Exception):
    """An answer still arriving at its deadline."""


@dataclass
class _Answer:
    status_code: int
    headers: httpx.Headers
    content: bytes


class SourceUnreachable(SourceError):
    """The HTTP source stopped answering altogether: the build gives up instead of trying
    every remaining URL (``--keep-going`` does not skip this)."""


Progress = Callable[[str, int], Callable[[int], None]]  # (label, total) -> advance(n)


class Upstream(Protocol):
    """What the builder reads from: a directory in the upstream layout or an HTTP base URL serving it."""

    description: str  # the directory or URL, for messages and the _construccion table
    progress: Optional[Progress]  # set by the builder: the downloads' progress (HTTP asks for every route first)
    absent: dict[str, str]  # route -> the day it was asked for and not found (_ausentes)
    validators: dict[str, tuple]  # route -> (ETag, Last-Modified) of the body read
    counts: Counter  # what the reading did (requests, bytes, unchanged files...), for the summary
    # When the files read were published, if the source knows (a git commit's time, AAAA-MM-DDTHH:MM:SSZ); None: a
    # file without a date of its own is dated when the build read it (construccion/historia.py)
    published: Optional[str]

    def expand(self, dataset: Dataset, source: Source) -> list[str]:
        """The routes of the files that match ``source``, one of ``dataset``'s patterns."""
        ...

    def read(self, route: str, history: bool = False) -> bytes:
        """The file's bytes; raises SourceError naming it when it cannot be read."""
        ...

    def name(self, route: str, history: bool = False) -> str:
        """The file's path or URL, for messages."""
        ...

    def stamp(self, route: str, history: bool = False) -> bytes:
        """What changes when the file changes (whether a rebuild is needed)."""
        ...

    def sha256(self, route: str) -> Optional[str]:
        """The checksum of the file as first read, when reading it did not give these bytes (a 304)."""
        ...

    def unclaimed(self, claimed: set) -> list[str]:
        """The routes of files no dataset's pattern took (documents)."""
        ...

    def history_files(self) -> list[str]:
        """Every file of the history tree, as v1/<ruta>/<AAAA-MM-DD> (none without a tree)."""
        ...


def partition_values(dataset: Dataset, source: Source, route: str) -> dict:
    """The partition column values of a route matched by ``source``."""
    values = source.values(route, dataset.partitions)
    if values is None:
        raise SourceError(f"{route}: no corresponde al patrón {source.route}")
    return values


class ContentStamps:
    """The checksum of each file of a directory (SHA-256, as ``fuentes.sha256``), kept in a file beside the database
    between builds (``path``: each file's path -> its size, modification time, inode and checksum): a file whose size,
    time and inode did not change is not read again, and one copied (``cp -r``: the same bytes, other times) keeps its
    checksum, so that a copied source updates incrementally instead of rebuilding every dataset."""

    def __init__(self, path: Optional[Path] = None):
        self.path = path
        self.known: dict[str, list] = {}
        if path is not None:
            try:
                self.known = orjson.loads(path.read_bytes())
            except (OSError, orjson.JSONDecodeError):  # none yet, or unreadable: every file is read once
                pass
        self.seen: dict[str, list] = {}

    def of(self, file: str) -> bytes:
        try:
            st = os.stat(file)
        except OSError as e:
            raise SourceError(f"{file}: no se pudo leer ({e.strerror})") from None
        quick = [st.st_size, st.st_mtime_ns, st.st_ino]
        entry = self.known.get(file)
        if entry is None or entry[:3] != quick:
            try:
                with open(file, "rb") as f:
                    entry = quick + [hashlib.file_digest(f, "sha256").hexdigest()]
            except OSError as e:
                raise SourceError(f"{file}: no se pudo leer ({e.strerror})") from None
        self.seen[file] = entry
        return entry[3].encode()

    def save(self) -> None:
        """Writes the checksums of the files this build stamped, when they differ from the kept ones."""
        if self.path is None or self.seen == self.known:
            return
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_bytes(orjson.dumps(self.seen))
        os.replace(tmp, self.path)


class DirectorySource:
    """The static layout on disk: route ``v1/X`` is the file ``v1/X/index.json``;
    in the history tree, ``v1/X/<fecha>`` is the file ``v1/X/<fecha>.json``.  Its stamps are the files' checksums
    (``stamps``: the builder keeps them beside the database)."""

    def __init__(self, root: str | os.PathLike, history: str | os.PathLike | None = None):
        self.root = Path(root)
        self.stamps = ContentStamps()
        if not (self.root / "v1").is_dir():
            raise SourceError(f"{self.root}: no es un directorio con el formato de upstream (falta {self.root}/v1)")
        self.history = Path(history) if history else None
        self.description = str(self.root)
        self.progress: Optional[Progress] = None  # a directory is read as it is loaded: nothing to show before
        self.absent: dict[str, str] = {}
        self.validators: dict[str, tuple] = {}
        self.published: Optional[str] = None
        self.counts: Counter = Counter()
        self._routes: Optional[list[str]] = None
        self._history_routes: Optional[list[str]] = None

    def _all_routes(self, history: bool) -> list[str]:
        if history:
            if self._history_routes is None:
                self._history_routes = []
                if self.history and self.history.is_dir():
                    self._history_routes = sorted(
                        str(p.relative_to(self.history).with_suffix("")) for p in self.history.glob("v1/**/*.json")
                    )
            return self._history_routes
        if self._routes is None:
            # os.walk's paths all start with the root's: cut it off (os.path.relpath took a third of the walk)
            skip = len(os.path.join(str(self.root), ""))
            self._routes = sorted(
                dirpath[skip:]
                for dirpath, _, files in os.walk(os.path.join(str(self.root), "v1"))
                if "index.json" in files
            )
        return self._routes

    def unclaimed(self, claimed: set) -> list[str]:
        """Routes of the mirror that no dataset's pattern took."""
        return [r for r in self._all_routes(False) if r not in claimed]

    def history_files(self) -> list[str]:
        return self._all_routes(True)

    def expand(self, dataset: Dataset, source: Source) -> list[str]:
        routes = self._all_routes(source.history)
        if not source.placeholders:
            return [source.route] if source.route in routes else []
        regex = pattern_regex(source.route, dataset.partitions)
        # the pattern's text before its first placeholder, compared first (0.16 s of 12,400 routes x 76 patterns)
        fixed = source.route.split("{", 1)[0]
        return [r for r in routes if r.startswith(fixed) and regex.fullmatch(r)]

    def path(self, route: str, history: bool = False) -> str:
        # Plain strings: pathlib's parsing cost 0.6 s of a build (four calls for each of 12,500 files).
        if history:
            if self.history is None:
                raise SourceError(f"{route}: se pidió una versión pasada sin directorio de historia")
            return f"{self.history}/{route}.json"
        return f"{self.root}/{route}/index.json"

    def read(self, route: str, history: bool = False) -> bytes:
        path = self.path(route, history)
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError as e:
            raise SourceError(f"{path}: no se pudo leer ({e.strerror})") from None

    def name(self, route: str, history: bool = False) -> str:
        return self.path(route, history)

    def sha256(self, route: str) -> Optional[str]:
        return None

    def stamp(self, route: str, history: bool = False) -> bytes:
        """What says whether a file changed since the last build: its checksum (read again only when its size,
        modification time or inode changed: ContentStamps)."""
        return self.stamps.of(self.path(route, history))


class PreviousBuild:
    """The database a build replaces: which files it read, with their validators (ETag,
    Last-Modified) and checksums, which it could not read, and each file itself, which is its
    route's /v1 answer there.  An HTTP update asks conditionally with it; any build falls back on
    it for a file that cannot be read today, so a bad day upstream never empties a dataset; an
    incremental build keeps from it the datasets whose files did not change (``facts``, the rows of
    ``fuentes`` and ``calidad``); the versions store carries its versions over (``copy_versions``).
    The one reader of the previous build: what it holds and cannot give raises, never reads as nothing."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.files: dict[str, tuple] = {}  # route -> (etag, last_modified, sha256)
        self.tables: dict[str, list[str]] = {}  # table -> the routes of its files, in the order read
        self.absent: dict[str, str] = {}  # route -> the day it was last asked for and not found
        self.failed: dict[str, str] = {}  # route -> the day builds began to fail to read it
        self.facts: dict[str, Optional[str]] = {}  # its _construccion table: clave -> valor
        self._conn = None
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            columns = {r[1] for r in conn.execute(f"PRAGMA table_info({FUENTES.name})")}
            etag = "etag" if "etag" in columns else "NULL"
            modified = "modificado" if "modificado" in columns else "NULL"
            for ruta, tabla, e, m, sha in conn.execute(
                f"SELECT ruta, tabla, {etag}, {modified}, sha256 FROM {FUENTES.name} ORDER BY id"
            ):
                route = ruta.lstrip("/")
                self.files[route] = (e, m, sha)
                self.tables.setdefault(tabla, []).append(route)
            lite = sqlite_utils.Database(conn)
            # Routes an HTTP build asked for and did not find: an update asks for them again only once they
            # are ``settle_days`` old, so a daily no-change update makes almost only conditional requests.
            if lite[AUSENTES.name].exists():
                self.absent = dict(conn.execute(f"SELECT ruta, consultado FROM {AUSENTES.name}"))
            # Routes a build could not read: every later build asks for them again, whatever their date.
            if lite[FALLIDOS.name].exists():
                self.failed = {r.lstrip("/"): d for r, d in conn.execute(f"SELECT ruta, desde FROM {FALLIDOS.name}")}
            if lite[CONSTRUCCION.name].exists():
                self.facts = dict(conn.execute(f"SELECT clave, valor FROM {CONSTRUCCION.name}"))
            self._conn = conn
        except sqlite3.Error as e:
            # Building on as if there were no previous build would drop what only it holds: said, not swallowed.
            raise SourceError(f"{path}: la base anterior no se puede leer ({e})") from None
        self._lock = threading.Lock()

    def __contains__(self, route: str) -> bool:
        return route in self.files

    def sources_of(self, table: str) -> list[SourceFile]:
        """The rows of ``fuentes`` for the files of ``table``, in the order they were read."""
        columns = ", ".join(f.name for f in FUENTES.fields())
        with self._lock:
            assert self._conn is not None
            rows = self._conn.execute(f"SELECT {columns} FROM {FUENTES.name} WHERE tabla = ? ORDER BY id", [table])
            return [SourceFile(*r) for r in rows]

    def findings(self) -> list[Finding]:
        """Every row of its ``calidad`` table, in order."""
        names = [f.name for f in CALIDAD.fields()]
        with self._lock:
            assert self._conn is not None
            rows = self._conn.execute(f"SELECT {', '.join(names)} FROM {CALIDAD.name} ORDER BY id").fetchall()
        return [Finding(**dict(zip(names, r))) for r in rows]

    def series(self) -> Optional[list[dict[str, Any]]]:
        """The rows of its ``series`` table (column -> value), in order (None without the table)."""
        names = [f.name for f in SERIES.fields()]
        with self._lock:
            assert self._conn is not None
            if not sqlite_utils.Database(self._conn)[SERIES.name].exists():
                return None
            rows = self._conn.execute(f"SELECT {', '.join(names)} FROM {SERIES.name} ORDER BY rowid").fetchall()
        return [dict(zip(names, r)) for r in rows]

    def copy_versions(self, db: sqlite3.Connection) -> bool:
        """Copies its versions store (versiones, versiones_registros, revisiones) into the same, empty tables of
        ``db``: one INSERT ... SELECT a table through ATTACH, as reading it row by row here would be slower.  False,
        copying nothing, for a build from before the store."""
        with self._lock:
            assert self._conn is not None
            if not sqlite_utils.Database(self._conn)[VERSIONES.name].exists():
                return False
        try:
            # A plain path: a URI (mode=ro) in ATTACH needs SQLite built or opened for URIs.
            db.execute("ATTACH DATABASE ? AS anterior", [str(self.path)])
            try:
                with sqlite_utils.Database(db).atomic():
                    for table in (VERSIONES, REGISTROS_VERSIONES, REVISIONES):
                        # a column the previous store lacks (added since) stays null
                        had = {r[1] for r in db.execute(f"PRAGMA anterior.table_info({quote(table.name)})")}
                        columns = ", ".join(quote(c) for c in ["id", *(f.name for f in table.fields())] if c in had)
                        db.execute(
                            f"INSERT INTO main.{quote(table.name)} ({columns}) "
                            f"SELECT {columns} FROM anterior.{quote(table.name)}"
                        )
            finally:
                db.execute("DETACH DATABASE anterior")
        except sqlite3.Error as e:
            raise PreviousUnreadable(f"{self.path}: no se pueden leer las versiones que guarda ({e})") from None
        return True

    def versions(self, route: str) -> list[tuple[str, str, Optional[str], bytes]]:
        """The versions of ``route`` (with its leading slash) its store holds, oldest first: (publicado, origen,
        commit, the file as published)."""
        with self._lock:
            assert self._conn is not None
            rows = self._conn.execute(
                f"SELECT id, publicado, origen, commit_upstream FROM {VERSIONES.name} WHERE ruta = ? ORDER BY id",
                [route],
            ).fetchall()
            return [
                (when, origin, commit, stored.document(self._conn, route, vid)) for vid, when, origin, commit in rows
            ]

    def body(self, route: str) -> Optional[bytes]:
        """The file as the previous build stored it (its store of what upstream published); None if it had none."""
        with self._lock:
            if self._conn is None:
                return None
            try:
                return publicados.body(self._conn, "/" + route)
            except (sqlite3.Error, zlib.error) as e:
                # It has the file but cannot give it: read as "it had none", the file's rows would be dropped and
                # calidad would say there was no previous copy.
                raise PreviousUnreadable(
                    f"{self.path}: no puede dar su copia de /{route} ({e}); sin ella se perderían sus registros"
                ) from None


class HttpSource:
    """An HTTP base URL serving the static layout (the public API or a mirror).

    Routes with placeholders are enumerated: from the spec's bounds (years,
    casas, categories), from the index routes upstream publishes (/v1/rems,
    the funds' envelope) and, for dated FCI listings, by walking dates.
    A 404 means "no such file"; other failures are retried with backoff and,
    if they persist, remembered: the route is listed by ``expand`` and
    ``read`` raises, so the error is charged to the dataset that reads it
    (which ``--keep-going`` can skip) instead of stopping the enumeration.
    """

    def __init__(
        self,
        base_url: str,
        *,
        timeout: float = 30.0,
        retries: int = 3,
        concurrency: int = 8,
        fci_since: dt.date = dt.date(2019, 1, 1),
        today: Optional[dt.date] = None,
        history=None,
        backoff: float = 0.5,
        max_failures: int = 5,
        previous: Optional[PreviousBuild] = None,
        settle_days: int = 7,
    ):
        self.base = base_url.rstrip("/")
        self.description = self.base
        self.progress: Optional[Progress] = None
        self.timeout = timeout
        self.retries = max(1, retries)
        self.backoff = backoff
        self.concurrency = concurrency
        # URLs in a row that got no HTTP answer at all (refused, reset, timed out) before giving up.
        self.max_failures = max(1, max_failures)
        self._failures_in_a_row = 0
        self._unreachable: Optional[str] = None
        # An update: conditional requests for the files the previous build read, and no request at all
        # for dated files older than ``settle_days`` (upstream does not rewrite past days).
        self.previous = previous
        self.settle_days = settle_days
        self.validators: dict[str, tuple] = {}  # route -> (etag, last_modified) of the body read
        self.published: Optional[str] = None
        self._sha: dict[str, str] = {}  # route -> sha256 of the file as first downloaded
        self.counts: Counter = Counter()
        self.absent: dict[str, str] = {}  # route -> the day it was asked for and not found (for the next update)
        self.fci_since = fci_since
        self.today = today or reference_day()  # $ARGENTINA_DATOS_HOY when set: the build's one clock
        import httpx

        self.client = httpx.Client(
            timeout=timeout, follow_redirects=True, limits=httpx.Limits(max_connections=concurrency)
        )
        self._cache: dict[str, bytes | None | SourceError] = {}
        # Settled dated files the previous build has: their body is its /v1 answer, made only when the build
        # reads them (12,000 answers were 54 s of a no-change update that reads none)
        self._settled: set[str] = set()
        self._lock = threading.Lock()
        self._history: Optional[DirectorySource] = (
            DirectorySource(history, history) if history and Path(history, "v1").is_dir() else None
        )

    def _history_dir(self) -> DirectorySource:
        if self._history is None:
            raise SourceError("se pidió una versión pasada sin directorio de historia (--history)")
        return self._history

    def url(self, route: str) -> str:
        return f"{self.base}/{route}"

    def history_files(self) -> list[str]:
        return self._history.history_files() if self._history else []

    def name(self, route: str, history: bool = False) -> str:
        return self._history_dir().name(route, True) if history else self.url(route)

    def _conditional_headers(self, route: str) -> dict:
        known = self.previous.files.get(route) if self.previous else None
        headers = {}
        if known and known[0]:
            headers["If-None-Match"] = known[0]
        if known and known[1]:
            headers["If-Modified-Since"] = known[1]
        return headers

    def _fetch(self, route: str) -> Optional[bytes]:
        url = self.url(route)
        delay = self.backoff
        conditional = self._conditional_headers(route)
        import httpx

        for attempt in range(1, self.retries + 1):
            if self._unreachable:
                raise SourceUnreachable(self._unreachable)
            try:
                r = self._get(url, conditional)
                with self._lock:
                    self.counts["pedidos"] += 1
                    self.counts["bytes"] += len(r.content)
            except (httpx.TimeoutException, _TooSlow):
                problem = f"sin respuesta completa en {self.timeout:g} s (tiempo de espera agotado)"
                self._no_answer(url, problem)
            except httpx.HTTPError as e:
                problem = f"error de conexión ({type(e).__name__}: {e})"
                self._no_answer(url, problem)
            else:
                with self._lock:
                    self._failures_in_a_row = 0
                if r.status_code == 304 and conditional and self.previous is not None:
                    try:
                        body = self.previous.body(route)
                    except PreviousUnreadable:  # nothing is lost: the file itself is asked for below
                        body = None
                    if body is not None:
                        return self._unchanged(
                            route, body, (conditional.get("If-None-Match"), conditional.get("If-Modified-Since"))
                        )
                    conditional = {}  # the previous build cannot give it back: ask for the file itself
                    continue
                if r.status_code == 200:
                    return self._downloaded(route, r)
                if r.status_code == 404:
                    if self.previous and route in self.previous:
                        self._count("ya no están")
                    with self._lock:
                        self.absent[route] = self.today.isoformat()
                    return None
                problem = f"HTTP {r.status_code}"
                if r.status_code < 500 and r.status_code != 429:
                    break
            if attempt < self.retries:
                time.sleep(delay)
                delay *= 2
        raise SourceError(f"{url}: {problem} (tras {attempt} intento(s))")

    def _get(self, url: str, headers: dict) -> _Answer:
        """GET with ``timeout`` as a deadline for the whole answer: httpx's own timeout bounds each
        read, so a server that trickles a byte at a time would hold the build (and its lock) for hours."""
        deadline = time.monotonic() + self.timeout
        with self.client.stream("GET", url, headers=headers) as r:
            chunks = []
            for chunk in r.iter_bytes():
                chunks.append(chunk)
                if time.monotonic() > deadline:
                    raise _TooSlow(url)
            return _Answer(r.status_code, r.headers, b"".join(chunks))

    def _count(self, what: str) -> None:
        with self._lock:
            self.counts[what] += 1

    def _unchanged(self, route: str, body: bytes, validators: tuple) -> bytes:
        self._count("sin cambios")
        self.validators[route] = validators
        if self.previous is not None:
            self._sha[route] = self.previous.files[route][2]
        return body

    def _downloaded(self, route: str, r: _Answer) -> bytes:
        body = r.content
        sha = hashlib.sha256(body).hexdigest()
        known = self.previous.files.get(route) if self.previous else None
        self._count("nuevos" if known is None else "sin cambios" if known[2] == sha else "cambiados")
        self.validators[route] = (r.headers.get("etag"), r.headers.get("last-modified"))
        self._sha[route] = sha
        return body

    def sha256(self, route: str) -> Optional[str]:
        """The checksum of the file as downloaded (a file the previous build gives back keeps its own)."""
        return self._sha.get(route)

    def _no_answer(self, url: str, problem: str) -> None:
        with self._lock:
            self._failures_in_a_row += 1
            if self._failures_in_a_row >= self.max_failures and not self._unreachable:
                self._unreachable = (
                    f"{self.base}: la fuente dejó de responder ({self._failures_in_a_row} pedidos "
                    f"seguidos sin respuesta; el último, {url}: {problem})"
                )

    def _known_absent(self, route: str) -> bool:
        """Asked for by the previous build less than ``settle_days`` ago and not found; the last days'
        dated files are asked for anyway (that is where new files appear)."""
        asked = self.previous.absent.get(route) if self.previous else None
        if asked is None or asked <= (self.today - dt.timedelta(days=self.settle_days)).isoformat():
            return False
        m = _DATED.search(route)
        if m and m.group(1).replace("/", "-") > (self.today - dt.timedelta(days=self.settle_days)).isoformat():
            return False
        with self._lock:
            self.absent[route] = asked  # still absent as far as we know: carried, asked again later
            self.counts["ausentes (sin pedir)"] += 1
        return True

    def _fetch_or_error(self, route: str) -> bytes | None | SourceError:
        with self._lock:
            if route in self._cache:
                return self._cache[route]
        if route in self._settled and self.previous is not None:
            body = self.previous.body(route)
            if body is not None:
                with self._lock:
                    self._cache[route] = body
                return body
            self._settled.discard(route)  # the previous build cannot give it back: asked for
            self._sha.pop(route, None)
        if self._known_absent(route):
            with self._lock:
                self._cache[route] = None
            return None
        answer: bytes | None | SourceError
        try:
            answer = self._fetch(route)
        except SourceError as e:
            answer = e
        with self._lock:
            self._cache[route] = answer
        return answer

    def get(self, route: str) -> Optional[bytes]:
        """The body, or None for a 404; raises SourceError for any other failure."""
        body = self._fetch_or_error(route)
        if isinstance(body, SourceError):
            raise type(body)(str(body))
        return body

    def get_json(self, route: str):
        """An index route's JSON (None for a 404); a body that is not JSON names the URL."""
        body = self.get(route)
        if body is None:
            return None
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError as e:
            raise SourceError(f"{self.url(route)}: no es JSON válido ({e}); empieza con {body[:40]!r}") from None

    def prefetch(self, routes: Iterable[tuple[str, bool]], label: str = "") -> None:
        todo = [r for r, history in routes if not history and r not in self._cache and r not in self._settled]
        if not todo:
            return
        advance = self.progress(label, len(todo)) if self.progress and label else None

        def fetch(route):
            self._fetch_or_error(route)
            if advance:
                advance(1)

        with ThreadPoolExecutor(self.concurrency) as pool:
            list(pool.map(fetch, todo))

    def unclaimed(self, claimed: set) -> list[str]:
        """Over HTTP nothing lists the files the catalogue does not know."""
        return []

    def stamp(self, route: str, history: bool = False) -> bytes:
        if history:
            return self._history_dir().stamp(route, True)
        sha = self._sha.get(route)  # known for every file read or settled: no body needed
        return (sha or hashlib.sha256(self.read(route)).hexdigest()).encode()

    def read(self, route: str, history: bool = False) -> bytes:
        if history:
            return self._history_dir().read(route, True)
        body = self.get(route)
        if body is None:
            raise SourceError(f"{self.url(route)}: HTTP 404")
        return body

    # ---- enumeration ---------------------------------------------------------
    def candidates(self, dataset: Dataset, source: Source) -> list[str]:
        """The routes to try for a source pattern, from each placeholder's ``http_values`` in the
        catalogue; [] when a placeholder is not enumerated over HTTP."""
        params = {p.name: p for p in dataset.partitions}
        routes = [source.route]
        for name in source.placeholders:
            param = params[name]
            if param.http_values is None:
                return []
            options = param.http_values(self)
            routes = [r.replace("{" + name + "}", v) for r in routes for v in options]
        return routes

    def _unsettled(self, routes: list[str]) -> list[str]:
        """Dated files older than ``settle_days``: the previous build's copy, or (not there) no file."""
        if not self.previous:
            return routes
        settled_before = (self.today - dt.timedelta(days=self.settle_days)).strftime("%Y/%m/%d")
        out = []
        for route in routes:
            if route in self.previous.failed:
                out.append(route)  # not read last time: asked for again, whatever its date
                continue
            if self._known_absent(route):
                continue
            m = _DATED.search(route)
            if m and m.group(1) < settled_before:
                if route not in self.previous:
                    continue
                with self._lock:
                    self._settled.add(route)
                self.validators[route] = self.previous.files[route][:2]
                self._sha[route] = self.previous.files[route][2]
                self._count("sin cambios (sin pedir)")
            out.append(route)
        return out

    def expand(self, dataset: Dataset, source: Source) -> list[str]:
        if source.history:
            return self._history.expand(dataset, source) if self._history else []
        routes = self._unsettled(self.candidates(dataset, source))
        self.prefetch(((r, False) for r in routes), label=dataset.table)
        if self._unreachable:
            raise SourceUnreachable(self._unreachable)
        # a failed route stays: read raises
        return [r for r in routes if r in self._settled or self._cache.get(r) is not None]


def open_source(spec: str, history: Optional[str] = None, **http_options):
    if re.match(r"https?://", spec):
        return HttpSource(spec, history=history, **http_options)
    return DirectorySource(spec, history)
