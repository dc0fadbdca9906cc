"""Which /v1 path is asked: a file upstream published, answered as it came (and as stored, compressed), or a
catalogue route, whose query respuestas/consulta.py decides; with what the database says that every answer needs
(its routes with versions, the CPI, each parameter's largest value), read once."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import logging
import re
import sqlite3
from typing import Optional

from argentina_datos.almacen import publicados, versiones
from argentina_datos.almacen.propias import CONSTRUCCION, FUENTES, UNBUNDLED, VERSIONES
from argentina_datos.almacen.tablas import table_exists
from argentina_datos.respuestas import catalogo_series, consulta
from argentina_datos.respuestas.consulta import Query
from argentina_datos.respuestas.respuesta import Answer, ApiError, BadQuery
from argentina_datos.respuestas.rutas import Router

log = logging.getLogger(__name__)

YEARS_AHEAD = 30  # how far past the spec's maximum a year is looked for in the data
NO_VERSIONS = (
    " (esta base se construyó sin el paquete de versiones publicadas: build-db --sin-versiones, o una fuente sin él; "
    "en el primer arranque, scripts/serve.sh las agrega en segundo plano y aparecen en unos minutos)"
)


def unreadable_message(e: sqlite3.Error) -> str:
    """What a client reads when the database file fails under its request (a 503)."""
    return f"la base no se puede leer ({e}); avise a quien administra el servicio"


def unreadable(e: sqlite3.Error) -> bool:
    """A database file that fails under the query (corrupt, cut short, gone), not a query that fails."""
    return type(e) is sqlite3.DatabaseError or str(e) in ("disk I/O error", "unable to open database file")


def fill_path(template: str, values: dict) -> str:
    return re.sub(r"{([^}]+)}", lambda m: values[m.group(1)], template)


class Responder:
    """Answers /v1 paths from a SQLite connection of a built database."""

    def __init__(self, router: Optional[Router] = None):
        self.router = router or Router()
        self.maxima: Optional[dict] = None  # (route, parameter) -> the largest value served
        self._known: Optional[consulta.Known] = None

    def answer(self, conn: sqlite3.Connection, path: str, query: Query = Query()) -> Answer:
        """``path``'s answer, cut and grouped as ``query`` asks (its ``formato`` is the caller's to honour)."""
        if self.maxima is None:
            self.maxima = self.served_maxima(conn)
        return self._without_versions(conn, self._answer(conn, path, query, self.maxima))

    def served_maxima(self, conn: sqlite3.Connection) -> dict:
        """For each parameter with a maximum (the spec's last year): that maximum, or the last year
        after it that has data (upstream publishes next year's holidays before the spec knows of
        them). Every value up to it is served (200, or 404 without data), every value above is a 404
        naming the range, and /v1/openapi.json declares exactly this maximum."""
        maxima = {}
        for endpoint in self.router.endpoints:
            for p in endpoint.params:
                if p.maximum is None:
                    continue
                others = [o for o in endpoint.params if o is not p]
                # Any value of the other parameters will do (a month of national trips, say).
                combos = list(itertools.product(*[o.choices or (o.example,) for o in others]))
                top = p.maximum
                for value in range(p.maximum + 1, p.maximum + YEARS_AHEAD + 1):
                    for combo in combos:
                        filled = {p.name: str(value), **{o.name: v for o, v in zip(others, combo)}}
                        if self._answer(conn, fill_path(endpoint.path, filled)).status == 200:
                            top = value
                            break
                maxima[(endpoint.path, p.name)] = top
        return maxima

    def known(self, conn: sqlite3.Connection) -> consulta.Known:
        """What the database says that every query needs, read once: its routes with stored versions, the route
        templates ``publicado`` applies to, the CPI and whether it was built without the bundle of versions."""
        if self._known is None:
            versioned = versiones.versioned_routes(conn)
            try:
                cpi = dict(conn.execute("SELECT mes, valor FROM ipc WHERE valor IS NOT NULL ORDER BY mes"))
            except sqlite3.OperationalError:  # a partial build without the CPI
                cpi = {}
            fact = f"SELECT 1 FROM {CONSTRUCCION.name} WHERE clave = ?"
            unbundled = table_exists(conn, CONSTRUCCION.name) and conn.execute(fact, [UNBUNDLED]).fetchone() is not None
            sql = (
                f"SELECT DISTINCT tabla FROM {FUENTES.name} WHERE ruta IN (SELECT DISTINCT ruta FROM {VERSIONES.name})"
            )
            tables = {tabla for (tabla,) in conn.execute(sql)} if versioned else set()
            # the templates (/v1/cotizaciones/dolares/{casa}) of which some route has stored versions, or whose answer
            # is computed from a list that has them (/ultimo)
            found = (self.router.find(route) for route in versioned)
            computed = {e.path for e in self.router.endpoints if e.computed and set(e.reads) & tables}
            templates = frozenset({f[0].path for f in found if f} | computed)
            self._known = consulta.Known(versioned, templates, cpi, unbundled)
        return self._known

    def answer_series(self, conn: sqlite3.Connection, path: str, params: dict[str, str], query: Query) -> Answer:
        """``/v1/series`` (the catalogue, searched), ``/v1/series/datos`` (several series aligned by date) and the
        publications of series (``/v1/series/publicaciones``, ``/v1/series/calendario``)."""
        try:
            on = catalogo_series.today()
            if path == catalogo_series.LIST_PATH:
                if query.filters or query.publicado is not None or query.formato == "ics":
                    param = next(n for n, v in query.given if n != "formato" or v == "ics")
                    raise BadQuery(param, f"«{param}» no se aplica al catálogo de series; sí a /v1/series/datos")
                page, more = catalogo_series.catalogue(conn, params, on)
                following = catalogo_series.next_page(params, query) if more else None
                return Answer(200, page, next_page=following)
            if path in (catalogo_series.RELEASES_PATH, catalogo_series.CALENDAR_PATH):
                answer = (
                    catalogo_series.publications if path == catalogo_series.RELEASES_PATH else catalogo_series.calendar
                )
                return Answer(200, answer(conn, params, query, on))
            if query.formato == "ics":
                raise BadQuery("formato", "«formato=ics» es para las rutas de feriados")
            how = catalogo_series.table if query.tabular else catalogo_series.data
            return Answer(200, how(conn, params, query, on, self.known(conn).cpi))
        except Exception as e:
            return self._without_versions(conn, _failure(e, path))

    def _without_versions(self, conn: sqlite3.Connection, answer: Answer) -> Answer:
        """An answer refused for want of versions, from a database built without the bundle of versions: it says why,
        and that the first start (scripts/serve.sh) adds them behind the first answer."""
        refused = answer.status in (400, 404) and answer.param in ("publicado", "ids") and "versiones" in answer.message
        if not refused or not self.known(conn).unbundled:
            return answer
        return dataclasses.replace(answer, message=answer.message + NO_VERSIONS)

    def _answer(
        self, conn: sqlite3.Connection, path: str, query: Query = Query(), maxima: Optional[dict] = None
    ) -> Answer:
        """``path``'s answer: the file upstream published there, asked for as it is named (the common case), or
        else the route it is, with its query handed over to respuestas/consulta.py."""
        try:
            if query.empty and (stored := publicados.stored(conn, path)) is not None:
                return _published(stored)
            found = self.router.find(path)
            if found is None and (
                publicados.published(conn, path) or query.publicado is not None and path in self.known(conn).versioned
            ):  # a file upstream publishes that no catalogue route describes yet
                return consulta.answer(conn, consulta.Asked(None, path, self.known(conn)), query)
            endpoint, match = found or self.router.match(path)
            values = endpoint.parse(match, maxima)
            path = endpoint.canonical_path(match, values)
            if query.empty:
                stored = publicados.stored(conn, path)
                return (
                    _published(stored) if stored is not None else Answer(200, raw=endpoint.answer(conn, values, path))
                )
            routed = functools.partial(self._answer, conn, maxima=maxima)  # fecha on an ultimo: the listing it names
            return consulta.answer(conn, consulta.Asked(endpoint, path, self.known(conn), values, routed), query)
        except Exception as e:
            return _failure(e, path)


def _published(stored: bytes) -> Answer:
    return Answer(200, raw=publicados.decompress(stored), gzip=stored)


def _failure(e: Exception, path: str) -> Answer:
    """What a /v1 answer that raised says: our own 400s and 404s as they are, a database file that fails under
    the request a 503, and a bug still an answer (a JSON 500) that names itself in the log."""
    if isinstance(e, ApiError):
        return Answer(e.status, message=e.message, param=e.param)
    if isinstance(e, sqlite3.DatabaseError) and unreadable(e):
        log.error("la base no se puede leer al responder %s: %s", path, e)
        return Answer(503, message=unreadable_message(e))
    log.exception("error al responder %s", path)
    return Answer(500, message=f"error interno: {type(e).__name__}")
