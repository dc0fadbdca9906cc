"""Datasette plugin: the public /v1 JSON API on the built database (what an answer is: respuestas/; its HTTP:
api.py), on its own connection and thread."""

import asyncio
import gc
import logging
import re
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

from argentina_datos.almacen.propias import CONSTRUCCION
from argentina_datos.documentacion.openapi import OPENAPI_PATH, openapi_document
from argentina_datos.respuestas import catalogo_series, consulta
from argentina_datos.respuestas.responder import unreadable_message
from argentina_datos.web import recarga
from argentina_datos.web.v1 import is_v1
from argentina_datos.web.v1.api import MAX_PATH, V1, error_body, make_response, normalize, send_response, wants_gzip

GZIP_IN_THREAD = 64 * 1024
PLAIN = consulta.Query()
log = logging.getLogger(__name__)


class OwnConnection:
    """/v1's own read-only connection to the database, used from its own thread.

    Datasette runs every page's SQL (and SQL typed by anyone) on one pool of num_sql_threads
    threads: three 3-second queries there made every uncached /v1 answer wait 3 s. /v1 runs only its
    own short, indexed queries, so one thread of its own is enough and nobody else's SQL queues there.
    """

    def __init__(self, path: str, immutable: bool):
        self.uri = f"file:{quote(path)}?mode=ro" + ("&immutable=1" if immutable else "")
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="api-v1")
        self._conn = None  # touched only on the executor's one thread

    def _run(self, fn):
        if self._conn is None:
            self._conn = sqlite3.connect(self.uri, uri=True, check_same_thread=False)
        return fn(self._conn)

    async def run(self, fn):
        return await asyncio.get_running_loop().run_in_executor(self.executor, self._run, fn)


class V1Middleware:
    def __init__(self, app, datasette):
        self.app = app
        self.datasette = datasette
        self.v1 = V1()
        self._database = None
        self._connection = None
        # Answers being computed or compressed, by key: a request that misses the cache while another
        # computes the same answer waits for that one. After a switch to a new build every answer is
        # missing at once; 32 connections each computing the 2 MB answer on /v1's one thread took the
        # p99 of every /v1 route past a second (issue 33).
        self._flights: dict = {}

    async def _once(self, key, make):
        """``await make()``, or the result of the same ``make`` already under way for ``key``."""
        flight = self._flights.get(key)
        if flight is not None:
            return await asyncio.shield(flight)
        flight = asyncio.get_running_loop().create_future()
        self._flights[key] = flight
        try:
            result = await make()
        except BaseException as e:
            flight.set_exception(e)
            flight.exception()  # retrieved: no warning when no one else was waiting
            raise
        else:
            flight.set_result(result)
            return result
        finally:
            if self._flights.get(key) is flight:
                del self._flights[key]

    def _resolve_at_startup(self, send):
        # Finding the database (plugin config, a query per database) costs the first /v1 request
        # ~20 ms; a server that announces startup complete has already done it.
        async def wrapped(message):
            if message["type"] == "lifespan.startup.complete":
                try:
                    await self.database()
                except Exception:  # the first request will try again, and answer the error as JSON
                    log.exception("no se pudo elegir la base de /v1 al arrancar")
                    self._database = None
                # Computing a big answer allocates ~100,000 objects, and each full collection then
                # walks everything Datasette loaded at startup: freezing that heap makes the first
                # /v1/cotizaciones/dolares ~110 ms -> ~50 ms.
                gc.collect()
                gc.freeze()
            await send(message)

        return wrapped

    async def database(self):
        if self._database is None:
            config = self.datasette.plugin_config("api_v1") or {}
            name = config.get("database")
            if name is None:
                for db_name, db in self.datasette.databases.items():
                    if db_name.startswith("_"):
                        continue
                    if await db.table_exists(CONSTRUCCION.name):
                        name = db_name
                        break
            self._database = self.datasette.get_database(name) if name else False
        return self._database or None

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self.app(scope, receive, self._resolve_at_startup(send))
        path = scope.get("path", "")
        if scope["type"] != "http" or not is_v1(path):
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        method = scope.get("method", "GET")
        if method == "OPTIONS":
            await send({"type": "http.response.start", "status": 204, "headers": preflight_headers(headers)})
            await send({"type": "http.response.body", "body": b""})
            return
        if method not in ("GET", "HEAD"):
            response = make_response(405, error_body(405, f"método {method} no permitido: la API es de sólo lectura"))
            return await send_response(send, response, headers, extra=[(b"allow", b"GET, HEAD, OPTIONS")])
        path = normalize(path)
        if len(path) > MAX_PATH:
            response = make_response(414, error_body(414, f"la ruta tiene más de {MAX_PATH} caracteres"))
            return await send_response(send, response, headers, method == "HEAD")
        query_string = scope.get("query_string", b"")
        if query_string:
            try:
                query = consulta.parse(query_string, self.v1.router.path_texts(path))
            except consulta.BadQuery as e:
                return await send_response(
                    send, make_response(400, error_body(400, str(e), e.param)), headers, method == "HEAD"
                )
            key = path + query.key()  # unknown parameters are ignored: they share the plain answer
        else:  # the common case, and the hot path of a cached answer: nothing to parse
            query, key = PLAIN, path
        own = None
        if path in catalogo_series.PATHS:
            own = catalogo_series.own_params(query_string)
            # «atrasada» is measured against today: a server that keeps one build for days (upstream
            # stopped, so nothing changed) must not answer yesterday's.
            key += f"#{catalogo_series.cache_key(own)}@{catalogo_series.today()}"
        self._follow_new_build()
        response = self.v1.cached(key)
        if response is None:
            try:
                response = await self._once(key, lambda: self.uncached(key, path, query, own))
            except sqlite3.Error as e:  # the file fails under us (cut, overwritten): never a 500 page
                log.error("la base no se puede leer al responder %s: %s", path, e)
                self._database = None  # looked for again by the next request
                response = make_response(503, error_body(503, unreadable_message(e)))
        zipped = wants_gzip(response, headers)
        if zipped and response._gzipped is None:
            if len(response.body) > GZIP_IN_THREAD:
                # Compressing megabytes takes tens of ms: not on the event loop, which serves everyone else,
                # and once however many ask for it at the same time.
                await self._once(
                    ("gzip", id(response)),
                    lambda: asyncio.get_running_loop().run_in_executor(None, response.gzipped),
                )
            else:
                response.gzipped()
            self.v1.cache.recount(key, response)  # the cache's bound counts the gzip body too
        await send_response(send, response, headers, method == "HEAD", zipped=zipped)

    async def uncached(self, key: str, path: str, query: consulta.Query, own: dict | None = None):
        db = await self.database()
        if db is not None:
            # The document too: its year maxima are the last years the data has.
            return self.v1.remember(key, await self.compute(db, path, query, own))
        if path == OPENAPI_PATH:
            return make_response(200, openapi_document(self.v1.router))
        return make_response(404, error_body(404, "no hay una base de argentina-datos cargada"))

    def _follow_new_build(self) -> None:
        recarga.look(self.datasette)
        if self._database and self.datasette.databases.get(self._database.name) is not self._database:
            self._switch_to(self.datasette.databases.get(self._database.name))

    def _switch_to(self, db) -> None:
        """A new build replaced the served file: nothing computed from the old one may be answered."""
        old = self._connection
        self._database, self._connection = db, None
        self.v1 = V1(self.v1.router)
        self._flights = {}  # what is under way reads the old file: no later request waits for it
        if old is not None:
            old.executor.shutdown(wait=False)  # its thread ends after the request it may be answering

    async def compute(self, db, path: str, query: consulta.Query, own: dict | None = None):
        if db.path is None:  # an in-memory database has no file to open a second connection to
            return await db.execute_fn(lambda conn: compute_plain(self.v1, conn, path, query, own))
        if self._connection is None:
            self._connection = OwnConnection(db.path, immutable=not db.is_mutable)
        return await self._connection.run(lambda conn: compute_any(self.v1, conn, path, query, own))


PREFLIGHT_MAX_AGE = b"86400"  # a browser caps it (Chromium: 2 h), and the answer never changes
_HEADER_LIST = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*")


def preflight_headers(headers: dict) -> list:
    """A CORS preflight allows whatever headers the browser asks for (an SDK that sends content-type on
    its GETs makes it ask for content-type): the API is public and read-only, as upstream's host is."""
    asked = headers.get(b"access-control-request-headers", b"").strip()
    return [
        (b"access-control-allow-origin", b"*"),
        (b"access-control-allow-methods", b"GET, HEAD, OPTIONS"),
        (b"access-control-allow-headers", asked if _HEADER_LIST.fullmatch(asked) else b"*"),
        (b"access-control-max-age", PREFLIGHT_MAX_AGE),
        (b"vary", b"Access-Control-Request-Headers"),
    ]


def compute_any(v1: V1, conn, path: str, query: consulta.Query, own: dict | None = None):
    if path in catalogo_series.PATHS:
        return v1.compute_series(conn, path, own or {}, query)
    return v1.compute(conn, path, query)


def compute_plain(v1: V1, conn, path: str, query: consulta.Query, own: dict | None = None):
    # Datasette's connections build sqlite3.Row objects and decode every text value through a Python
    # lambda; the API reads rows by position and its database is valid UTF-8, so plain tuples and str
    # do, and halve the time of the biggest lists.
    saved = conn.row_factory, conn.text_factory
    conn.row_factory, conn.text_factory = None, str
    try:
        return compute_any(v1, conn, path, query, own)
    finally:
        conn.row_factory, conn.text_factory = saved


def wrap(datasette, app):
    """This layer around `app` (the order of the layers is in argentina_datos.web.capas)."""
    return V1Middleware(app, datasette)
