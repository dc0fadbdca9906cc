"""The /v1 endpoints: every catalogue route, and the catalogue's Combinations of several datasets.

An endpoint turns validated path values into the body upstream would publish at that path: the published records
of its list that the path selects (``seleccion``), written as upstream writes its files.
"""

from __future__ import annotations

import difflib
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import orjson

from argentina_datos.almacen import publicados
from argentina_datos.almacen.propias import FUENTES
from argentina_datos.almacen.publicados import envelope, published
from argentina_datos.almacen.tablas import table_exists
from argentina_datos.catalogo import BY_TABLE, COMBINATIONS, DATASETS
from argentina_datos.catalogo.calendario import HOLIDAY_TABLES
from argentina_datos.catalogo.esquema import (
    Children,
    Combination,
    Count,
    Dataset,
    Field,
    PathValue,
    Route,
)
from argentina_datos.catalogo.parametros import BadParam, Param, group_name, template_regex
from argentina_datos.respuestas import seleccion
from argentina_datos.respuestas.respuesta import ApiError

OPENAPI_PATH = "/v1/openapi.json"  # the document that lists every route, named by every unknown route's 404


@dataclass
class Endpoint:
    path: str
    params: Sequence[Param]
    summary: str
    # (connection, path values, path, publicado day or None, seleccion.Dates) -> the body
    answer: Callable[..., bytes]
    datasets: Sequence[str] = ()  # tables it reads, for the OpenAPI schema
    reads: Sequence[str] = ()  # the tables whose published records it selects (its list's, for a cut)
    shape: str = "list"
    combination: Optional[Combination] = None  # shape "combined": what it combines
    calendar: bool = False  # a list of holidays: it can be answered as an iCalendar (formato=ics)
    # A listing ultimo / penultimo among listings by date: (connection, path values, path, fecha's period) -> the route of
    # the last (the penultimate) of them within that period, or None for the route's other values.
    latest_listing: Optional[Callable[..., Optional[str]]] = None
    regex: re.Pattern = field(init=False)
    literal_length: int = field(init=False)

    def __post_init__(self):
        params = {p.name: p for p in self.params}
        self.regex, self.literal_length = template_regex(self.path, params, loose=True)
        self.strict_regex = template_regex(self.path, params)[0]

    @property
    def computed(self) -> bool:
        """Whether its answer is computed from a list (a cut, /ultimo, a combination) even where upstream has a
        file at its path: as published on a day, it is that cut of the list as published that day."""
        return self.shape in ("one", "last", "combined") or tuple(self.reads) != tuple(self.datasets)

    def canonical_path(self, match: re.Match, values: dict) -> str:
        """The path as upstream's files are named (a month written 9 is the file of 09)."""
        path = match.string
        for p in sorted(self.params, key=lambda p: -match.start(group_name(p.name))):
            if p.canonical:
                start, end = match.span(group_name(p.name))
                path = path[:start] + values[p.name] + path[end:]
        return path

    def parse(self, match: re.Match, maxima: Optional[dict] = None) -> dict:
        """The path's values; ``maxima``: the largest value served per (route, parameter)."""
        values = {}
        for p in self.params:
            try:
                values[p.name] = p.parse(match.group(group_name(p.name)), (maxima or {}).get((self.path, p.name)))
            except BadParam as e:
                # Upstream is files: a value with no file is a 404 there, malformed or not (clients
                # treat 404 as "no data" and anything else as a failure); the message still says why.
                raise ApiError(404, str(e), e.param) from None
        return values


# ---- endpoints built from catalogue routes ----------------------------------------
def dataset_endpoint(dataset: Dataset, route: Route) -> Endpoint:
    """A route's answer computed from its list: the records that match its ``where`` (on the list it derives from,
    where upstream has no file at the path) and the dates asked, chosen in SQL (respuestas/seleccion.py) and
    written as upstream writes its files."""
    if route.derive and route.derive.empty:
        unknown = [m.name for m in dataset.fields if not isinstance(m, Children) and m.name not in route.where]
        if unknown:
            raise ValueError(f"{route.path}: una respuesta vacía no sabe qué poner en {unknown}")
    take = {"one": seleccion.FIRST, "last": seleccion.LAST}.get(route.shape, seleccion.ALL)

    def where_for(where: dict, values: dict) -> dict:
        return {col: (v.of(values) if isinstance(v, PathValue) else v) for col, v in where.items()}

    def answer(
        conn: sqlite3.Connection, values: dict, path: str, on: Optional[str] = None, dates=seleccion.ANY_DATE
    ) -> bytes:
        """The body; ``on``: as its list was published that day; ``dates``: of the records of those dates.  With no
        file at this path (or as published on a day), a derived route's is the matching records of the list it is a
        cut of."""
        source = route.derive if route.derive and (on is not None or not _reads(conn, dataset, path)) else None
        if source is None and route.shape == "envelope":
            raise _no_data(endpoint, values, path)  # an envelope is its file's: none at this path
        listed, conditions = (BY_TABLE[source.table], source.where) if source else (dataset, route.where)
        where = where_for(conditions, values)
        texts = seleccion.select(conn, listed, where, dates, take, on)
        # A list with no records and no file: a route whose only file could not be read by any build yet, not [].
        if not texts and (
            source
            or route.shape != "list"
            or not (published(conn, path) or dates and seleccion.exists(conn, listed, where))
        ):
            raise _undated(conn, listed, where, dates, path) or _no_data(
                endpoint, values, path, _present(conn, listed.table, conditions, values, endpoint)
            )
        if source and source.empty:
            return publicados.written(empty_answer(conn, source.count, values, path))
        if source and source.member:
            record = orjson.loads(texts[0][0])
            nested = record.get(source.member) if type(record) is dict else None
            if nested is None:  # the record published without its list: nothing to cut
                raise _no_data(endpoint, values, path)
            return publicados.written(nested)
        return publicados.list_text(texts) if route.shape == "list" else publicados.at_depth(texts[0], 0)

    def empty_answer(conn: sqlite3.Connection, count: Optional[Count], values: dict, path: str) -> dict:
        """The list knows the id and the source published nothing for it: its record with empty lists,
        unless the source's own count says it has records for it (which the database lacks)."""
        if count is not None:
            counted = BY_TABLE[count.table]
            where = where_for(count.where, values)
            if not seleccion.files(conn, counted) or seleccion.exists(conn, counted, where, tuple(count.columns)):
                e = _no_data(endpoint, values, path)
                raise ApiError(
                    404,
                    f"{e.message}: la fuente tiene registros que no publicó en esta ruta (según {count.table})",
                    e.param,
                )
        where = where_for(route.where, values)
        return {m.name: where[m.name] if isinstance(m, Field) else [] for m in dataset.fields}

    column = _listing_column(dataset, route)

    def latest_listing(conn: sqlite3.Connection, values: dict, path: str, period: str) -> Optional[str]:
        assert column is not None  # only given to routes that name a listing
        where = where_for(route.where, values)
        place = LATEST.get(where[column])
        if place is None:  # a listing of a day: fecha cuts its records, as on any list
            return None
        # upstream's ultimo and penultimo are its last listings with records, never a weekend's empty one
        found = seleccion.listings(conn, dataset, {c: v for c, v in where.items() if c != column}, column)
        dated = sorted(name for name in found if _LISTING_DATE.fullmatch(name))
        newest = seleccion.span(conn, dataset, {**where, column: "ultimo"})[1]
        # named as the listings are: a day, or a month (the REM's)
        if newest is not None and dated and _of_period(newest[: len(dated[-1])], period):
            return path  # the period reaches upstream's own ultimo: this route's own file, as published
        within = [i for i, name in enumerate(dated) if _of_period(name, period)]
        if not within:
            span = f"los hay del {dated[0]} al {dated[-1]}" if dated else "no hay ninguno"
            raise ApiError(404, f"no hay listados con registros de {path} con fecha {period}: {span}", "fecha")
        last = within[-1] - (place - 1)  # penultimo: the listing before the last one within it
        if last < 0:
            raise ApiError(
                404, f"{path} con fecha {period}: no hay un listado con registros antes del {dated[0]}", "fecha"
            )
        return found[dated[last]]

    endpoint = Endpoint(
        route.path,
        route.params,
        route.summary or dataset.title,
        answer,
        datasets=(dataset.table,),
        shape=route.shape,
        calendar=dataset.table in HOLIDAY_TABLES and route.shape == "list",
        reads=(route.derive.table if route.derive else dataset.table,),
        latest_listing=latest_listing if column is not None else None,
    )
    return endpoint


def _reads(conn: sqlite3.Connection, dataset: Dataset, path: str) -> bool:
    """Whether ``path`` is a file of ``dataset`` (then its own records answer it, cut or not)."""
    try:
        return (
            conn.execute(f"SELECT 1 FROM {FUENTES.name} WHERE tabla = ? AND ruta = ?", [dataset.table, path]).fetchone()
            is not None
        )
    except sqlite3.OperationalError:  # a partial build without the table of files
        return False


def _undated(conn: sqlite3.Connection, dataset: Dataset, where: dict, dates, path: str) -> Optional[ApiError]:
    """With ``fecha``, a route whose records are none of that date: a 404 naming fecha and the dates it has."""
    if not dates.period or not seleccion.exists(conn, dataset, where):
        return None
    first, last = seleccion.span(conn, dataset, where)
    span = f"sus registros van del {first} al {last}" if first else "sus registros no tienen fecha"
    return ApiError(404, f"{path} no tiene registros con fecha {dates.period}: {span}", "fecha")


LATEST = {"ultimo": 1, "penultimo": 2}  # the listings upstream names by their place among its listings by date
_LISTING_DATE = re.compile(r"[0-9]{4}-[0-9]{2}(?:-[0-9]{2})?")  # a listing's day, or its month (a REM report)


def _listing_column(dataset: Dataset, route: Route) -> Optional[str]:
    """The path value by which ``route`` names a listing ``ultimo`` or ``penultimo`` of a dataset whose files are
    also listings by date (the FCI categories' by day, the REM's by month); None for any other route."""
    if route.shape != "list" or route.derive:
        return None
    for p in dataset.partitions:
        value = route.where.get(p.name)
        by_date = re.fullmatch(p.pattern, "2000/01/01") or re.fullmatch(p.pattern, "2000/01")
        if value is not None and by_date and re.fullmatch(p.pattern, "ultimo"):
            return p.name
    return None


def _of_period(name: str, period: str) -> bool:
    """Whether a listing named ``name`` (a day, or a month: the REM's) is of ``period`` (a day, a month or a year):
    within it, or the month the period's day is in."""
    return name.startswith(period) or period.startswith(name)


SHOWN_VALUES = 30  # a parameter with more values than this in the data is said as its range


def _present(conn: sqlite3.Connection, table: str, where: dict, values: dict, endpoint: Endpoint) -> str:
    """What ``table`` has for the path's last parameter, the others as asked: its values («hay 2016, 2017, 2019»)
    or, if many, their range («hay del 2011-01-03 al 2026-02-21»); "" if that cannot be said."""
    if not endpoint.params or not table_exists(conn, table):
        return ""
    name = endpoint.params[-1].name
    asked = [c for c, v in where.items() if isinstance(v, PathValue) and (v.name == name or f"{{{name}}}" in v.text)]
    if len(asked) != 1:
        return ""
    others = {c: (v.of(values) if isinstance(v, PathValue) else v) for c, v in where.items() if c != asked[0]}
    column = f'"{asked[0]}"'
    sql = f'SELECT DISTINCT {column} FROM "{table}" WHERE {column} IS NOT NULL'
    sql += "".join(f' AND "{c}" = ?' for c in others) + " ORDER BY 1"
    try:
        found = [v for (v,) in conn.execute(sql, list(others.values()))]
    except sqlite3.Error:  # a value of a type the column does not compare with: nothing to add
        return ""
    if not found:  # the table may keep the value otherwise than the path (fci_serie's categoria_id): say nothing
        return ""
    if len(found) > SHOWN_VALUES:
        return f"hay del {found[0]} al {found[-1]}"
    return "hay " + ", ".join(str(v) for v in found)


def _no_data(endpoint: Endpoint, values: dict, path: str, present: str = "") -> ApiError:
    """404 for a well-formed value without data (a malformed or out-of-bounds one is refused before this, by
    ``parse``); ``present``: what there is instead (``_present``)."""
    if not endpoint.params:
        return ApiError(404, "no hay datos")
    # The values as the client wrote them (turista, 2025/01/02), not as they were converted for SQL.
    match = endpoint.regex.fullmatch(path)
    typed = {p.name: match.group(group_name(p.name)) if match else values[p.name] for p in endpoint.params}
    shown = ", ".join(f"{k} = {v}" for k, v in typed.items())
    # The last parameter is the most specific one: the date of a quote, the month of a report.
    return ApiError(404, f"no hay datos para {shown}" + (f" ({present})" if present else ""), endpoint.params[-1].name)


# ---- endpoints that combine datasets (catalogue Combinations) --------------------------
def combined_endpoint(combination: Combination) -> Endpoint:
    lists_of = [(BY_TABLE[t].envelope_list, BY_TABLE[t]) for t in combination.tables]

    def answer(conn: sqlite3.Connection, values: dict, path: str, on: Optional[str] = None, dates=None) -> bytes:
        out: dict = {}
        if combination.envelope:
            env = envelope(conn, combination.envelope)
            if env is None:
                raise ApiError(404, f"la base no tiene {combination.summary.lower()}")
            out.update(env)
        out.update({key: values[param] for key, param in combination.head.items()})
        where = {column: values[param] for column, param in combination.where.items()}
        lists = {name: seleccion.select(conn, dataset, where, on=on) for name, dataset in lists_of}
        if where and not any(lists.values()) and not _known(conn, combination, where):
            raise _no_data(endpoint, values, path)
        out.update({name: orjson.Fragment(publicados.list_text(texts, 2)) for name, texts in lists.items()})
        return publicados.written(out)

    endpoint = Endpoint(
        combination.path,
        tuple(combination.params),
        combination.summary,
        answer,
        datasets=tuple(combination.tables),
        reads=tuple(combination.tables),
        shape="combined",
        combination=combination,
    )
    return endpoint


def _known(conn: sqlite3.Connection, combination: Combination, where: dict) -> bool:
    """Whether the value asked for, with no records in any list, is one the `known_in` table has."""
    if combination.known_in is None or not table_exists(conn, combination.known_in[0]):
        return False
    table, column = combination.known_in
    value = next(iter(where.values()))
    return conn.execute(f'SELECT 1 FROM "{table}" WHERE "{column}" = ?', [value]).fetchone() is not None


def all_endpoints() -> list[Endpoint]:
    return [dataset_endpoint(ds, r) for ds in DATASETS for r in ds.routes] + [
        combined_endpoint(c) for c in COMBINATIONS
    ]


class Router:
    def __init__(self, endpoints: Optional[list[Endpoint]] = None):
        # Longest literal text first: /v1/finanzas/fci/fondos/{nombre} wins over {categoria}/{fecha}.
        self.endpoints = sorted(endpoints or all_endpoints(), key=lambda e: -e.literal_length)

    def match(self, path: str) -> tuple[Endpoint, re.Match]:
        """The endpoint whose parameters' own patterns take the path (``/v1/cotizaciones/dolares/2025/01/02``
        is a date of every casa, not the casa «2025»); else, for its error message, the first whose
        loose capture takes it."""
        found = self.find(path) or self.find(path, loose=True)
        if found is None:
            guess = self.closest(path)
            meant = f"; ¿quiso decir {guess}?" if guess else "."
            raise ApiError(404, f"no existe la ruta {path[:200]}{meant} Las rutas están en {OPENAPI_PATH}")
        return found

    def closest(self, path: str) -> Optional[str]:
        """The route a wrong path most likely meant: itself in lower case (/V1/feriados/2025), else the
        template closest to it (riesgoPais -> /v1/finanzas/indices/riesgo-pais), for the 404's message."""
        if len(path) > 200:
            return None
        lower = path.lower()
        if lower != path and (self.find(lower) or self.find(lower, loose=True)):
            return lower
        flat = {e.path.lower().replace("-", ""): e.path for e in self.endpoints}
        close = difflib.get_close_matches(lower.replace("-", ""), list(flat), n=1, cutoff=0.85)
        return flat[close[0]] if close else None

    def path_texts(self, path: str) -> dict[str, str]:
        """The values of the route's parameters as the path writes them (fecha: 2024/03/15), {} for no route."""
        found = self.find(path)
        if found is None:
            return {}
        endpoint, match = found
        return {p.name: match.group(group_name(p.name)) for p in endpoint.params}

    def find(self, path: str, loose: bool = False) -> Optional[tuple[Endpoint, re.Match]]:
        """The first endpoint whose parameters' own patterns take ``path`` (``loose``: whose loose capture does)."""
        for e in self.endpoints:
            m = (e.regex if loose else e.strict_regex).fullmatch(path)
            if m:
                return e, m
        return None
