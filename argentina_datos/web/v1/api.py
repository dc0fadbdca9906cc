"""The /v1 HTTP layer: JSON errors, each formato's body (formatos.py), caching, ETag, gzip (what it means: respuestas/).

The database is immutable while served, so each response body is computed
once, from SQL, and kept (bounded by size) together with its gzip form.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
import sqlite3
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from email.utils import format_datetime, parsedate_to_datetime
from typing import Optional

import orjson

from argentina_datos.almacen import publicados
from argentina_datos.almacen.propias import CONSTRUCCION
from argentina_datos.documentacion.openapi import OPENAPI_PATH, openapi_document
from argentina_datos.respuestas import catalogo_series
from argentina_datos.respuestas.consulta import Query
from argentina_datos.respuestas.responder import Responder
from argentina_datos.respuestas.respuesta import Answer
from argentina_datos.respuestas.rutas import Router
from argentina_datos.web.v1 import formatos
from argentina_datos.web.v1.formatos import XLSX_TYPE

MAX_PATH = 1024
# How long a client or CDN may reuse a 200 without asking (serve-datos --max-age): the database changes
# once a day, and upstream's host uses 60-600 s; each worker reads it from the environment once.
MAX_AGE_ENV = "ARGENTINA_DATOS_MAX_AGE"
DEFAULT_MAX_AGE = 300
CACHE_BYTES = 512 * 1024 * 1024
# Bytes a cached answer holds besides its bodies, ETag and key, measured with tracemalloc (tests/
# test_api_cache.py checks it): the Response, its two header lists with their tuples and values,
# and the cache's slot for it (the OrderedDict node and the (response, weight) pair).
RESPONSE_OVERHEAD = 1100
ENTRY_OVERHEAD = 200
JSON_TYPE = b"application/json; charset=utf-8"
CSV_TYPE = b"text/csv; charset=utf-8"
BASE_HEADERS = [
    (b"content-type", JSON_TYPE),
    (b"access-control-allow-origin", b"*"),
    (b"vary", b"Accept-Encoding"),
]
ICS_TYPE = b"text/calendar; charset=utf-8"
# The headers of each kind of body (formato): the content type first
KIND_HEADERS = {
    "json": BASE_HEADERS,
    "csv": [(b"content-type", CSV_TYPE), *BASE_HEADERS[1:]],
    "ics": [(b"content-type", ICS_TYPE), *BASE_HEADERS[1:]],
    "xlsx": [(b"content-type", XLSX_TYPE.encode()), *BASE_HEADERS[1:]],
}
IGNORED_HEADER = b"X-Parametros-Ignorados"
# Every 404 links the document of the routes (RFC 8631), for a client or a model that guessed a name.
ROUTES_LINK = (b"link", f'<{OPENAPI_PATH}>; rel="service-desc"'.encode())
STATUS_NAMES = {
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    414: "URI Too Long",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
    503: "Service Unavailable",
}


@dataclass(slots=True)
class Response:
    status: int
    body: bytes
    etag: bytes
    cache_control: bytes
    kind: str = "json"  # a key of KIND_HEADERS
    last_modified: Optional[bytes] = None  # an HTTP date: the build's time (a 200 computed from a database)
    link: Optional[bytes] = None  # a paged answer's Link header (its next page)
    ignored: Optional[bytes] = None  # the query parameters a series route ignored (X-Parametros-Ignorados)
    _gzipped: Optional[bytes] = None
    _headers: dict = field(default_factory=dict, repr=False)

    def gzipped(self) -> bytes:
        if self._gzipped is None:
            self._gzipped = publicados.compress(self.body)
        return self._gzipped

    @property
    def base_headers(self) -> list:
        return KIND_HEADERS[self.kind]

    def etag_for(self, gzipped: bool) -> bytes:
        """Each encoding is its own representation, so the gzip body gets its own strong tag."""
        return self.etag[:-1] + b'-gz"' if gzipped else self.etag

    def headers(self, gzipped: bool) -> list:
        """Every header of the full answer, built once per response and encoding: the cached hot path
        then only picks a list (the server copies it, so sharing it between requests is safe)."""
        out = self._headers.get(gzipped)
        if out is None:
            out = [*self.base_headers, (b"cache-control", self.cache_control), (b"etag", self.etag_for(gzipped))]
            if self.last_modified:
                out.append((b"last-modified", self.last_modified))
            if self.status == 404:
                out.append(ROUTES_LINK)
            exposed = [name for name, value in ((b"Link", self.link), (IGNORED_HEADER, self.ignored)) if value]
            if self.link:
                out.append((b"link", self.link))
            if self.ignored:
                out.append((IGNORED_HEADER.lower(), self.ignored))
            if exposed:  # a page of another origin reads them too
                out.append((b"access-control-expose-headers", b", ".join(exposed)))
            if gzipped:
                out.append((b"content-encoding", b"gzip"))
            out.append((b"content-length", str(len(self.gzipped() if gzipped else self.body)).encode()))
            self._headers[gzipped] = out
        return out

    def nbytes(self) -> int:
        """The memory this answer holds: its bodies (the gzip one once made) and, as if both were
        built, its objects and header lists (RESPONSE_OVERHEAD)."""
        zipped = sys.getsizeof(self._gzipped) if self._gzipped is not None else 0
        return sys.getsizeof(self.body) + zipped + sys.getsizeof(self.etag) + RESPONSE_OVERHEAD


def error_body(status: int, mensaje: str, parametro: Optional[str] = None) -> bytes:
    # A path may carry undecodable bytes (lone surrogates), which orjson refuses: the error must still be JSON.
    mensaje = mensaje.encode("utf-8", "replace").decode("utf-8")
    return orjson.dumps(
        {"status": status, "error": STATUS_NAMES.get(status, "Error"), "mensaje": mensaje, "parametro": parametro}
    )


def as_response(answer: Answer, query: Query, path: str = "") -> Response:
    if answer.status != 200:
        return make_response(answer.status, error_body(answer.status, answer.message, answer.param))
    kind = query.formato or "json"
    if kind == "json":
        response = make_response(200, answer.json())
        response._gzipped = answer.gzip  # a file upstream published: compressed once, when the database was built
    else:
        response = make_response(200, formatos.body(answer.records(), query, path), kind=kind)
    if answer.next_page:
        response.link = f'<{answer.next_page}>; rel="next"'.encode()
    return response


def max_age_setting() -> int:
    """$ARGENTINA_DATOS_MAX_AGE, seconds (0 or more); a bad value is refused at startup, naming it."""
    text = os.environ.get(MAX_AGE_ENV, "").strip()
    if not text:
        return DEFAULT_MAX_AGE
    if not text.isdigit():
        raise ValueError(f"--max-age / ${MAX_AGE_ENV} debe ser un número de segundos (0 o más), no {text!r}")
    return int(text)


@functools.cache
def cache_control(ok: bool) -> bytes:
    """Read once, at the first answer (after serve-datos has set the variable): errors at most 60 s.  A bad
    value under another server (plain ``datasette``) is said once and the default used: never a 500."""
    try:
        seconds = max_age_setting()
    except ValueError as e:
        print(f"aviso: {e}; se usa {DEFAULT_MAX_AGE}", file=sys.stderr)
        seconds = DEFAULT_MAX_AGE
    return f"public, max-age={seconds if ok else min(60, seconds)}".encode()


def make_response(status: int, body: bytes, *, kind: str = "json") -> Response:
    etag = b'"' + hashlib.blake2b(body, digest_size=12).hexdigest().encode() + b'"'
    return Response(status, body, etag, cache_control(status == 200), kind)


def http_date(iso: str) -> Optional[bytes]:
    """An ISO 8601 time (2026-11-26T10:05:49Z) as an HTTP date; None if it is not one."""
    try:
        when = dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return format_datetime(when.astimezone(dt.timezone.utc), usegmt=True).encode()


def built_at(conn: sqlite3.Connection) -> Optional[bytes]:
    """When the served database was built, as an HTTP date (None for a database without the build's table)."""
    try:
        row = conn.execute(f"SELECT valor FROM {CONSTRUCCION.name} WHERE clave = 'construido'").fetchone()
    except sqlite3.OperationalError:
        return None
    return http_date(row[0]) if row and isinstance(row[0], str) else None


class ResponseCache:
    """Least-recently-used responses, bounded by the memory they really hold: each entry counts its
    key, its bodies (the gzip one too, from when it is made: see ``recount``), its headers and its
    objects (Response.nbytes), and the cache's own slot for it (ENTRY_OVERHEAD)."""

    def __init__(self, max_bytes: int = CACHE_BYTES):
        self.max_bytes = max_bytes
        self.items: OrderedDict[str, tuple[Response, int]] = OrderedDict()
        self.size = 0
        self.lock = threading.Lock()

    @staticmethod
    def weight(key: str, r: Response) -> int:
        return sys.getsizeof(key) + r.nbytes() + ENTRY_OVERHEAD

    def get(self, key: str) -> Optional[Response]:
        with self.lock:
            entry = self.items.get(key)
            if entry is None:
                return None
            self.items.move_to_end(key)
            return entry[0]

    def put(self, key: str, r: Response) -> None:
        weight = self.weight(key, r)
        with self.lock:
            if key in self.items or weight > self.max_bytes:
                return
            self.items[key] = (r, weight)
            self.size += weight
            self._evict()

    def recount(self, key: str, r: Response) -> None:
        """``r`` grew (its gzip body was made): count it again, and evict if that went past the bound."""
        with self.lock:
            entry = self.items.get(key)
            if entry is None or entry[0] is not r:
                return
            weight = self.weight(key, r)
            self.size += weight - entry[1]
            self.items[key] = (r, weight)
            self._evict()

    def _evict(self) -> None:
        while self.size > self.max_bytes:
            _, (_, weight) = self.items.popitem(last=False)
            self.size -= weight


class V1:
    """/v1 over HTTP: each answer of the Responder (respuestas/) as a Response, cached."""

    def __init__(self, router: Optional[Router] = None):
        self.responder = Responder(router)
        self.cache = ResponseCache()
        self._built: Optional[bytes] = None  # the Last-Modified of every answer: one V1 per database
        self._built_read = False

    @property
    def router(self) -> Router:
        return self.responder.router

    def compute(self, conn: sqlite3.Connection, path: str, query: Query = Query()) -> Response:
        """The response to ``path``, cut, grouped or written as CSV as ``query`` asks."""
        if path == OPENAPI_PATH:
            self.responder.answer(conn, path)  # the document declares the maxima the data has
            maxima = tuple(sorted((self.responder.maxima or {}).items()))
            known = self.responder.known(conn)  # the months ``base`` takes, the templates ``publicado`` applies to
            months, versioned = tuple(sorted(known.cpi)), tuple(sorted(known.templates))
            ids = tuple(catalogo_series.series_ids(conn))
            response = make_response(200, openapi_document(self.router, maxima, months, versioned, ids))
        else:
            response = as_response(self.responder.answer(conn, path, query), query, path)
        return self._dated(conn, response)

    def compute_series(self, conn: sqlite3.Connection, path: str, params: dict, query: Query) -> Response:
        """``/v1/series`` and ``/v1/series/datos`` (respuestas/catalogo_series.py)."""
        response = as_response(self.responder.answer_series(conn, path, params, query), query, path)
        names = catalogo_series.ignored(params)
        if names and response.status == 200:  # in every format: a CSV or a list has no field to say it in
            response.ignored = ", ".join(names).encode("ascii", "backslashreplace")
        return self._dated(conn, response)

    def _dated(self, conn: sqlite3.Connection, response: Response) -> Response:
        if response.status == 200:
            if not self._built_read:
                self._built, self._built_read = built_at(conn), True
            # Every answer may have changed with the build (the build time is when it last could have).
            response.last_modified = self._built
        return response

    def cached(self, path: str) -> Optional[Response]:
        return self.cache.get(path)

    def remember(self, path: str, response: Response) -> Response:
        # Only successes: caching errors would let arbitrary paths fill the cache.
        if response.status == 200:
            self.cache.put(path, response)
        return response


INDEX_FILE = "/index.json"


def normalize(path: str) -> str:
    """The route a path names: a trailing slash and the file name of upstream's tree (``/v1/feriados/2026/
    index.json``, which upstream's host serves as it is published) name the route itself."""
    path = path.rstrip("/") if len(path) > 1 else path
    return path.removesuffix(INDEX_FILE) if path.startswith("/v1/") else path


def unmodified_since(response: Response, if_modified_since: bytes) -> bool:
    """If-Modified-Since (RFC 9110 §13.1.3): the answer has not changed since that date."""
    if not response.last_modified:
        return False
    try:
        since = parsedate_to_datetime(if_modified_since.decode("latin-1"))
        changed = parsedate_to_datetime(response.last_modified.decode())
        return since.tzinfo is not None and changed <= since
    except (TypeError, ValueError, IndexError):  # not a date: the condition is ignored
        return False


def not_modified(response: Response, if_none_match: bytes) -> bool:
    """If-None-Match compares weakly (RFC 9110 §13.1.2): W/"x" matches "x"; "*" matches anything.
    Both encodings carry the same data, so either one's tag matches."""
    tags = {t.strip().removeprefix(b"W/") for t in if_none_match.split(b",")}
    return b"*" in tags or response.etag in tags or response.etag_for(True) in tags


def accepts_gzip(accept_encoding: bytes) -> bool:
    """gzip (or *) listed without q=0 (RFC 9110 §12.5.3)."""
    # Clients send a handful of distinct short values, on every request: each is parsed once.
    if len(accept_encoding) <= 200:
        return _accepts_gzip_cached(accept_encoding)
    return _accepts_gzip(accept_encoding)


def _accepts_gzip(accept_encoding: bytes) -> bool:
    accepted = {}
    for item in accept_encoding.lower().split(b","):
        coding, _, params = item.strip().partition(b";")
        q = 1.0
        for param in params.split(b";"):
            name, _, value = param.strip().partition(b"=")
            if name == b"q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        accepted[coding.strip()] = q
    return accepted.get(b"gzip", accepted.get(b"x-gzip", accepted.get(b"*", 0.0))) > 0


_accepts_gzip_cached = functools.lru_cache(maxsize=256)(_accepts_gzip)


def wants_gzip(response: Response, headers: dict) -> bool:
    return len(response.body) > 512 and accepts_gzip(headers.get(b"accept-encoding", b""))


async def send_response(
    send, response: Response, headers: dict, head: bool = False, extra=(), zipped: Optional[bool] = None
) -> None:
    if zipped is None:
        zipped = wants_gzip(response, headers)
    inm, ims = headers.get(b"if-none-match"), headers.get(b"if-modified-since")
    # If-None-Match, when sent, decides alone (RFC 9110 §13.2.2).
    if response.status == 200 and (not_modified(response, inm) if inm else ims and unmodified_since(response, ims)):
        out = [
            *response.base_headers,
            (b"cache-control", response.cache_control),
            (b"etag", response.etag_for(zipped)),
            *([(b"last-modified", response.last_modified)] if response.last_modified else []),
            *extra,
        ]
        await send({"type": "http.response.start", "status": 304, "headers": out})
        await send({"type": "http.response.body", "body": b""})
        return
    out = response.headers(zipped)
    if extra:
        out = [*out, *extra]
    await send({"type": "http.response.start", "status": response.status, "headers": out})
    await send({"type": "http.response.body", "body": b"" if head else response.gzipped() if zipped else response.body})
