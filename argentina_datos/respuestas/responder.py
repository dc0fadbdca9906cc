"""The answer to a /v1 path and query, as data: its status and either the bytes of the file upstream published at
that path, as they came (and as stored, compressed), or the JSON-ready object of an answer computed from records."""

from __future__ import annotations

import itertools
import logging
import re
import sqlite3
from dataclasses import dataclass
from typing import Any, Optional

import orjson

from argentina_datos.almacen import publicados, versiones
from argentina_datos.almacen.propias import FUENTES, VERSIONES
from argentina_datos.respuestas import catalogo_series, consulta, conversiones, seleccion
from argentina_datos.respuestas.consulta import BadQuery, Query
from argentina_datos.respuestas.rutas import ApiError, Endpoint, Router

log = logging.getLogger(__name__)

YEARS_AHEAD = 30  # how far past the spec's maximum a year is looked for in the data


@dataclass(frozen=True)
class Answer:
    status: int
    data: Any = None  # the JSON-ready answer (status 200)
    raw: Optional[bytes] = None  # or the bytes of a file upstream published, answered as they came
    gzip: Optional[bytes] = None  # ... and the same compressed, as stored (served as they are to gzip clients)
    message: str = ""  # an error's explanation (status >= 400)
    param: Optional[str] = None  # the parameter at fault, if one is
    next_page: Optional[str] = None  # a paged answer's next page (its URL), when it has one

    def json(self) -> bytes:
        """The body of a 200: exactly the bytes upstream's file would have (an answer no file has, as upstream
        writes its files)."""
        return self.raw if self.raw is not None else publicados.written(self.data)

    def records(self) -> Any:
        """The answer as JSON-ready data (for CSV and iCalendar)."""
        return self.data if self.raw is None else orjson.loads(self.raw)


def unreadable_message(e: sqlite3.Error) -> str:
    """What a client reads when the database file fails under its request (a 503)."""
    return f"la base no se puede leer ({e}); avise a quien administra el servicio"


def unreadable(e: sqlite3.Error) -> bool:
    """A database file that fails under the query (corrupt, cut short, gone), not a query that fails."""
    return type(e) is sqlite3.DatabaseError or str(e) in ("disk I/O error", "unable to open database file")


def _as_published(body: bytes, query: Query, path: str, treat=None) -> Answer:
    """A file's bytes as they came (a stored file, a version as published) or, with a query that cuts or groups,
    its records so treated: by ``treat`` (records -> records), for a catalogue route; else as its records are."""
    if query.formato == "ics" and not query.empty:
        raise BadQuery("formato", "«formato=ics» es para las rutas de feriados, sin «fecha»")
    if not query.filters and not query.tabular:
        return Answer(200, raw=body)
    data = orjson.loads(body)
    if query.tabular and not isinstance(data, list):  # a past version may differ from today's shape
        raise BadQuery("formato", f"«formato={query.formato}» es para rutas que devuelven una lista")
    # today's catalogue shape treats a past version only when that version is a list too; else its data decides
    treated = treat(data) if treat is not None and isinstance(data, list) else consulta.apply(data, query, route=path)
    return Answer(200, treated)


def fill_path(template: str, values: dict) -> str:
    return re.sub(r"{([^}]+)}", lambda m: values[m.group(1)], template)


class Responder:
    """Answers /v1 paths from a SQLite connection of a built database."""

    def __init__(self, router: Optional[Router] = None):
        self.router = router or Router()
        self.maxima: Optional[dict] = None  # (route, parameter) -> the largest value served
        self._cpi: Optional[dict[str, float]] = None  # AAAA-MM -> the CPI's level, read once
        self._versioned: Optional[frozenset[str]] = None  # routes with stored versions (the versiones table)
        self._versioned_tables: Optional[frozenset[str]] = None  # tables with a file that has stored versions
        self._versioned_templates: Optional[frozenset[str]] = None  # the routes ``publicado`` applies to

    def answer(self, conn: sqlite3.Connection, path: str, query: Query = Query()) -> Answer:
        """``path``'s answer, cut and grouped as ``query`` asks (its ``formato`` is the caller's to honour)."""
        if self.maxima is None:
            self.maxima = self.served_maxima(conn)
        return self._answer(conn, path, self.maxima, query)

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
                        if self._answer(conn, fill_path(endpoint.path, filled), None).status == 200:
                            top = value
                            break
                maxima[(endpoint.path, p.name)] = top
        return maxima

    def cpi_months(self, conn: sqlite3.Connection) -> list[str]:
        """The months the database's CPI has (the values ``base`` takes), read once."""
        if self._cpi is None:
            try:
                self._cpi = dict(conn.execute("SELECT mes, valor FROM ipc WHERE valor IS NOT NULL ORDER BY mes"))
            except sqlite3.OperationalError:  # a partial build without the CPI
                self._cpi = {}
        return sorted(self._cpi)

    def _adjuster(self, conn: sqlite3.Connection, answers: consulta.Answers, query: Query):
        """What ``ajustar`` does on this route: its amounts of pesos in pesos of ``base``, in UVA or in dollars."""
        convert = self.converter(conn, query)
        return lambda records: convert(records, set(answers.pesos), query)

    def converter(self, conn: sqlite3.Connection, query: Query):
        self.cpi_months(conn)
        return conversiones.converter(conn, query, self._cpi or {})

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
            return Answer(200, how(conn, params, query, on, lambda: self.converter(conn, query)))
        except Exception as e:
            return _failure(e, path)

    def _versioned_routes(self, conn: sqlite3.Connection) -> frozenset[str]:
        if self._versioned is None:
            self._versioned = versiones.versioned_routes(conn)
        return self._versioned

    def _tables_with_versions(self, conn: sqlite3.Connection) -> frozenset[str]:
        if self._versioned_tables is None:
            rows = (
                conn.execute(
                    f"SELECT DISTINCT tabla FROM {FUENTES.name} WHERE ruta IN (SELECT DISTINCT ruta FROM {VERSIONES.name})"
                )
                if self._versioned_routes(conn)
                else []
            )
            self._versioned_tables = frozenset(tabla for (tabla,) in rows)
        return self._versioned_tables

    def _has_versions(self, conn: sqlite3.Connection, endpoint: Endpoint, path: str) -> bool:
        """Whether ``publicado`` applies: a route with stored versions, or of a template that has them (its other
        values a 404 naming it, as a day before the first version), or computed from a list that has them."""
        if self._versioned_templates is None:
            self._versioned_templates = frozenset(self.versioned_paths(conn))
        return path in self._versioned_routes(conn) or endpoint.path in self._versioned_templates

    def versioned_paths(self, conn: sqlite3.Connection) -> list[str]:
        """The route templates (/v1/cotizaciones/dolares/{casa}) of which some route has stored versions, or whose
        answer is computed from a list that has them (/ultimo)."""
        found = (self.router.match_strict(route) for route in self._versioned_routes(conn))
        tables = self._tables_with_versions(conn)
        computed = {e.path for e in self.router.endpoints if e.computed and set(e.reads) & tables}
        return sorted({f[0].path for f in found if f is not None} | computed)

    def _version(self, conn: sqlite3.Connection, path: str, day: str) -> bytes:
        """The file at ``path`` (a route with stored versions) as upstream had published it by the end of ``day``."""
        version = versiones.version_on(conn, path, day)
        if version is None:
            raise ApiError(404, f"no hay versiones guardadas de {path} anteriores al {day}", "publicado")
        return versiones.document(conn, path, version)

    def _answer(self, conn: sqlite3.Connection, path: str, maxima: Optional[dict], query: Query = Query()) -> Answer:
        try:
            if query.empty and (stored := publicados.stored(conn, path)) is not None:
                return _published(stored)  # the common case: a file upstream has, asked for as it is named
            found = self.router.match_strict(path)
            if found is None and (unrouted := self._unrouted(conn, path, query)) is not None:
                return unrouted
            endpoint, match = found or self.router.match(path)
            values = endpoint.parse(match, maxima)
            path = endpoint.canonical_path(match, values)
            if query.empty:
                stored = publicados.stored(conn, path)
                return (
                    _published(stored) if stored is not None else Answer(200, raw=endpoint.answer(conn, values, path))
                )
            return self._queried(conn, endpoint, values, path, maxima, query)
        except Exception as e:
            return _failure(e, path)

    def _unrouted(self, conn: sqlite3.Connection, path: str, query: Query) -> Optional[Answer]:
        """A file upstream publishes that no catalogue route describes yet: as it came, or as the query cuts it."""
        if query.publicado is not None and path in self._versioned_routes(conn):
            return _as_published(self._version(conn, path, query.checked_publicado()), query, path)
        body = publicados.body(conn, path)
        if body is None:
            return None
        if query.publicado is not None:  # a route with versions was answered above
            raise BadQuery("publicado", f"«publicado» no se aplica a {path}: no tiene versiones guardadas")
        return _as_published(body, query, path)

    def _queried(
        self,
        conn: sqlite3.Connection,
        endpoint: Endpoint,
        values: dict,
        path: str,
        maxima: Optional[dict],
        query: Query,
    ) -> Answer:
        """A catalogue route with a query: each parameter checked against what the route answers, then the records
        chosen in SQL by fecha, desde, hasta and publicado; what only Python does (ajustar, agrupar, variacion) on
        the records so chosen."""
        revised = path in self._versioned_routes(conn)
        answers = consulta.Answers.of(endpoint, self._has_versions(conn, endpoint, path), revised)
        answers.refuse(query, path)
        if query.publicado in (consulta.FIRST, consulta.ALL):  # offered (refuse) only on a list with versions
            return Answer(200, _revisions(conn, path, query))
        if query.fecha is not None and endpoint.latest_listing is not None:
            listing = endpoint.latest_listing(conn, values, path, query.period)
            if listing is not None:  # the listing of the last (penultimate) date within the period, as published
                return self._answer(conn, listing, maxima, query.replaced(fecha=None))
        on = query.checked_publicado() if query.publicado is not None else None
        reshaped = bool(query.ajustar or query.agrupar or query.variacion)
        if on is not None and revised:  # its own file, as published that day
            body = self._version(conn, path, on)
        elif on is not None and not endpoint.computed:
            # /v1/cotizaciones/dolares/turista, when only other casas have versions
            raise ApiError(404, f"no hay versiones guardadas de {path}", "publicado")
        elif reshaped and endpoint.shape == "list":  # a change needs the records before the range: all of them
            body = endpoint.answer(conn, values, path, on)
        else:
            dates = seleccion.Dates(query.desde or "", query.hasta or "", query.period)
            return Answer(200, raw=endpoint.answer(conn, values, path, on, dates))
        adjust = self._adjuster(conn, answers, query) if query.ajustar else None
        return _as_published(
            body, query, path, lambda data: consulta.apply(data, query, adjust, answers.rates, path, answers)
        )


def _revisions(conn: sqlite3.Connection, path: str, query: Query) -> list[dict]:
    """publicado=primera: the records of the list at ``path`` as each was first published, with the day
    (``publicado``); todas: each record with every value it had and the days it was in force (``publicadoDesde``,
    ``publicadoHasta``), of the records dated within desde, hasta and fecha, as /v1/series/datos answers a series."""
    for name in ("agrupar", "variacion", "ajustar"):
        if getattr(query, name) is not None:
            raise BadQuery(
                name, f"«{name}» no va con «publicado={query.publicado}», que da los registros como se publicaron"
            )
    periods = versiones.value_periods(conn, path, None, {}, query.desde or "", query.hasta or "\uffff")
    chosen = [p for p in periods if p[0].startswith(query.period) and (query.publicado == consulta.ALL or p[4])]
    if len(chosen) > catalogo_series.MAX_VALUES:
        raise BadQuery(
            "publicado",
            f"«publicado={query.publicado}» da más de {catalogo_series.MAX_VALUES:,} registros con estas fechas: "
            "acótelo con desde y hasta".replace(",", "."),
        )
    if query.publicado == consulta.FIRST:
        return [{**orjson.loads(record), "publicado": since} for _, record, since, _, _ in chosen]
    return [
        {**orjson.loads(record), "publicadoDesde": since, "publicadoHasta": until}
        for _, record, since, until, _ in chosen
    ]


def _published(stored: bytes) -> Answer:
    return Answer(200, raw=publicados.decompress(stored), gzip=stored)


def _failure(e: Exception, path: str) -> Answer:
    """What a /v1 answer that raised says: our own 400s and 404s as they are, a database file that fails under
    the request a 503, and a bug still an answer (a JSON 500) that names itself in the log."""
    if isinstance(e, BadQuery):
        return Answer(400, message=str(e), param=e.param)
    if isinstance(e, ApiError):
        return Answer(e.status, message=e.mensaje, param=e.parametro)
    if isinstance(e, seleccion.NoVersion):
        return Answer(404, message=str(e), param="publicado")
    if isinstance(e, sqlite3.DatabaseError) and unreadable(e):
        log.error("la base no se puede leer al responder %s: %s", path, e)
        return Answer(503, message=unreadable_message(e))
    log.exception("error al responder %s", path)
    return Answer(500, message=f"error interno: {type(e).__name__}")
