"""The data-quality audit: checks run over the freshly built tables, before the database is finished.

Each finding is a row of the ``calidad`` table, next to those the codec wrote while loading (a field
of another type, an impossible date, ...).  Nothing here changes a stored value or stops a build:
upstream's data is kept as it came, and this says where it looks wrong.

The checks read the catalogue, never a table name: compra > venta runs on every dataset with both
fields, the series checks on every dataset that declares a ``Series`` (its frequency, the columns
telling one series from another and its measures), the encoding check on every text column, and the
comparison of two routes publishing the same records on every pair the catalogue declares (a route's
``Derivation``, a dataset's ``same_records_as``).  The thresholds are the constants below; docs/investigadores.md
("Cómo leer la tabla calidad") explains them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
import re
import sqlite3
import statistics
from bisect import bisect_left, insort
from dataclasses import dataclass
from itertools import groupby
from typing import Callable, Iterable, Optional, Sequence

from argentina_datos.almacen import calidad
from argentina_datos.almacen.calidad import Finding, as_json
from argentina_datos.almacen.propias import PublishedFigure, SourceFile
from argentina_datos.almacen.tablas import Layout, quote
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.calendario import HOLIDAY_TABLES
from argentina_datos.catalogo.esquema import DAILY, LEVEL, MONTHLY, TEXT, Dataset, PathValue, Route, Series
from argentina_datos.catalogo.slug import entity_id, repair_mojibake
from argentina_datos.construccion import contrastes
from argentina_datos.construccion.fuentes import SourceError, partition_values

# A series' usual spacing and typical change are estimated from at least this many values;
# shorter series are checked only for gaps, unit switches and conflicting values.
MIN_VALUES = 20
# Stopped: more days since the last value, at build time, than STOP_TIMES times the series' usual
# spacing (the median number of days between values), and at least STOP_MIN_DAYS.
STOP_TIMES = 3
STOP_MIN_DAYS = 7
# A jump: a change from the previous value larger than JUMP_MIN (25 %) and than JUMP_TIMES times the
# series' median change (so a volatile series needs a larger one).  Jumps and unit switches are ratios:
# they are looked for only in measures that are always positive (not in a variation such as inflation).
JUMP_MIN = 0.25
JUMP_TIMES = 20
# An excursion («ida y vuelta»): a value that leaves the series by more than EXCURSION_TIMES times its usual daily
# move (the median of its last EXCURSION_WINDOW non-zero changes) and more than EXCURSION_MIN, and comes back to
# within EXCURSION_BACK of that distance from where it was in EXCURSION_VALUES values and EXCURSION_DAYS days at
# most, staying that near the value it went to in between.  Measured on the mirror: the mayorista's 384 of 2023-12-07…10 (a 5.7 % move
# where its usual one was 0.14 %) and its 287 of 2023-09-08…12; 53 in all (40 of the dollar houses, 11 of the
# currencies, 2 of country risk); a jump that stays (the devaluation,
# the unification of 2015, the exit from convertibility in 2002) never comes back.
EXCURSION_TIMES = 10
EXCURSION_MIN = 0.02
EXCURSION_WINDOW = 60
EXCURSION_VALUES = 7
EXCURSION_DAYS = 14
EXCURSION_BACK = 0.25
# A unit switch: a value between 30 and 300 times the previous one, or the reverse: the same size written
# ×100, a fraction that became a percentage (0.39 -> 39.18) or the other way round.
UNIT_LOW, UNIT_HIGH = 30.0, 300.0
# A stale value: a record of a dated listing (fci_valores) whose own date is more than this many days
# before the listing's: a fund's value from 2017 in a 2024 listing.
STALE_DAYS = 365

# UTF-8 read as Latin-1 / Windows-1252: "Ã©" for "é", "Â°" for "°", "â€" for a dash or quote, or the
# replacement character of bytes that were not text.  Upstream also lowercases some ("Asunciã“n").
_MOJIBAKE = re.compile(
    "[Ãã][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u2122]|Â[\u00a0-\u00bf]|â€|\ufffd"
)
_MOJIBAKE_SQL = " OR ".join(f"instr({{c}}, '{s}') > 0" for s in ("Ã", "ã", "Â", "â€", "\ufffd"))


@dataclass
class Calendar:
    """Business days: weekdays that are not a holiday, in the years the holiday tables cover (outside them
    a missing day cannot be told from a holiday, so it is not counted)."""

    holidays: set
    years: set

    @classmethod
    def read(cls, db: sqlite3.Connection, layouts: Sequence[Layout]) -> "Calendar":
        holidays: set = set()
        for layout in layouts:
            if layout.table in HOLIDAY_TABLES:
                column = _date_column(layout)
                if column:
                    holidays |= {_day(r[0]) for r in db.execute(f"SELECT {quote(column)} FROM {quote(layout.table)}")}
        holidays.discard(None)
        return cls(holidays, {d.year for d in holidays})

    def is_business(self, day: dt.date) -> bool:
        return day.year in self.years and day.weekday() < 5 and day not in self.holidays

    def missing(self, after: dt.date, before: dt.date) -> list[dt.date]:
        """The business days strictly between two dates."""
        if (before - after).days <= 1:  # most pairs of a daily series
            return []
        days = []
        day = after + dt.timedelta(days=1)
        while day < before:
            if self.is_business(day):
                days.append(day)
            day += dt.timedelta(days=1)
        return days


@dataclass
class Context:
    """What the checks of one audit share."""

    db: sqlite3.Connection
    today: dt.date
    calendar: Calendar
    business: contrastes.Business
    by_table: dict[str, Layout]


def _always(layout: Layout) -> bool:
    return True


def _audited(layout: Layout) -> bool:
    return bool(layout.dataset.series and layout.dataset.series.audited)


def _compounds(layout: Layout) -> bool:
    return _audited(layout) and bool(layout.dataset.series and layout.dataset.series.compounds)


def _own(layout: Layout) -> Iterable[str]:
    return ()


def _holidays(layout: Layout) -> Iterable[str]:
    """A check that counts business days reads the holiday tables."""
    return HOLIDAY_TABLES


@dataclass(frozen=True)
class Check:
    """One check of a built table.  ``controls``: those its findings are filed under; ``applies``: the tables it
    runs on.  What it depends on besides its own table (an incremental build runs it again only when one of these
    was written again, and keeps its previous findings otherwise): ``reads``, the other tables it reads; ``daily``,
    the day of the build (run on every build)."""

    controls: tuple[str, ...]
    run: Callable[[Context, Layout], Iterable[Finding]]
    applies: Callable[[Layout], bool] = _always
    reads: Callable[[Layout], Iterable[str]] = _own
    daily: bool = False


# Each check of a table, in the order they run (a pair of tables publishing the same records: same_record_pairs).
CHECKS = [
    Check((calidad.BUY_ABOVE_SELL,), lambda c, layout: buy_above_sell(c.db, layout)),
    Check((calidad.ENCODING,), lambda c, layout: broken_encoding(c.db, layout)),
    Check(
        (calidad.GAP, calidad.CONFLICT, calidad.JUMP, calidad.UNIT_SWITCH, calidad.EXCURSION),
        lambda c, layout: series_checks(c.db, layout, c.calendar),
        _audited,
        _holidays,
    ),
    Check((calidad.STOPPED,), lambda c, layout: stopped_series(c.db, layout, c.today), _audited, daily=True),
    Check((calidad.STALE,), lambda c, layout: stale_in_listing(c.db, layout), _audited),
    Check((calidad.FROZEN,), lambda c, layout: contrastes.frozen_values(c.db, layout, c.business), _audited, _holidays),
    Check((calidad.SPREAD,), lambda c, layout: contrastes.impossible_spreads(c.db, layout), _audited),
    Check(
        (calidad.CLOSED_MARKET,),
        lambda c, layout: contrastes.closed_market_quotes(c.db, layout, c.business),
        _audited,
        _holidays,
    ),
    Check(
        (calidad.RELATED_SERIES,),
        lambda c, layout: contrastes.compounded_disagreements(c.db, layout, c.by_table.get(_compounded(layout))),
        _compounds,
        lambda layout: [_compounded(layout)],
    ),
    Check(
        (calidad.OUT_OF_RANGE,),
        lambda c, layout: out_of_range(c.db, layout),
        lambda layout: bool(layout.dataset.bounds),
    ),
]


def _compounded(layout: Layout) -> str:
    assert layout.dataset.series is not None and layout.dataset.series.compounds is not None
    return layout.dataset.series.compounds


@dataclass(frozen=True)
class Scope:
    """What an audit of some changed tables checks again: each (table, control) whose check runs, and the tables
    whose «rutas en desacuerdo» pairs run (a pair's findings are its first table's)."""

    runs: frozenset[tuple[str, str]]
    pairs: frozenset[str]
    owner: dict[str, str]  # each table a dataset fills (its lookups, its children) -> the dataset's table

    def check(self, layout: Layout, check: Check) -> bool:
        return (layout.table, check.controls[0]) in self.runs

    def covers(self, finding: Finding) -> bool:
        """Whether ``finding`` (of a previous audit) is one this scope computes again."""
        if finding.control == calidad.DISAGREEMENT:
            return finding.tabla in self.pairs
        return (self.owner.get(finding.tabla, finding.tabla), finding.control) in self.runs


def scope(layouts: Sequence[Layout], changed: Optional[set[str]]) -> Scope:
    """The audit after the tables in ``changed`` (None: every table) were written again: each check whose table,
    or a table it reads, is one of them, and the checks that depend on the day."""
    runs = {
        (layout.table, control)
        for layout in layouts
        for check in CHECKS
        if check.applies(layout)
        and (changed is None or check.daily or bool({layout.table, *check.reads(layout)} & changed))
        for control in check.controls
    }
    pairs = {
        p.layout.table
        for p in same_record_pairs(layouts)
        if changed is None or {p.layout.table, p.reference.table} & changed
    }
    owner = {table: layout.table for layout in layouts for table in layout.tables}
    return Scope(frozenset(runs), frozenset(pairs), owner)


def audit(
    db: sqlite3.Connection,
    layouts: Sequence[Layout],
    today: dt.date,
    files: Sequence[SourceFile] = (),
    only: Optional[Scope] = None,
    figures: Sequence[PublishedFigure] = (),
) -> list[Finding]:
    """Every check over every built table (``only``: those of a scope).  A check whose SQL fails on a table (one
    the catalogue describes differently than it was built) is itself reported as a finding; findings never stop a
    build.  ``files``: the files the build read, to name the route a finding's record came from; ``figures``: the
    values others published, each compared with ours (every build: they are few)."""
    calendar = Calendar.read(db, layouts)
    context = Context(db, today, calendar, contrastes.Business(calendar.holidays), {x.table: x for x in layouts})
    findings: list[Finding] = []
    for layout in layouts:
        for check in CHECKS:
            if not check.applies(layout) or (only is not None and not only.check(layout, check)):
                continue
            # Only SQLite's errors on odd data become a finding: a Python error is a bug in the check, and
            # fails the build (and the test suite) instead of becoming a row of calidad.
            try:
                found = list(check.run(context, layout))
            except sqlite3.Error as e:
                found = [Finding(tabla=layout.table, control=check.controls[0], detalle=f"no se pudo revisar: {e}")]
            undeclared = {f.control for f in found} - set(check.controls)
            if undeclared:  # an incremental build would keep the previous build's findings of these beside the new
                raise ValueError(
                    f"un control de auditoría da hallazgos que no declara: {', '.join(sorted(undeclared))}"
                )
            findings.extend(found)
    try:
        findings.extend(contrastes.published_figures(db, layouts, figures))
    except sqlite3.Error as e:
        findings.append(
            Finding(tabla="cifras_publicadas", control=calidad.PUBLISHED_FIGURE, detalle=f"no se pudo revisar: {e}")
        )
    routes = FileRoutes(files)
    for pair in same_record_pairs(layouts):
        if only is not None and pair.layout.table not in only.pairs:
            continue
        try:
            findings.extend(disagreements(db, pair, routes))
        except sqlite3.Error as e:
            findings.append(
                Finding(
                    tabla=pair.layout.table,
                    control=calidad.DISAGREEMENT,
                    detalle=f"no se pudo revisar contra {pair.reference.table}: {e}",
                )
            )
    return findings


# ---- compra > venta ------------------------------------------------------------
def buy_above_sell(db: sqlite3.Connection, layout: Layout) -> list[Finding]:
    """Quotes whose buying price is above their selling price (a dealer never buys dearer than it sells):
    one finding per run of consecutive such days of a series, from its first day (``fecha``) to its last (``hasta``)."""
    columns = dict(layout.codec.columns)
    if not {"compra", "venta"} <= columns.keys():
        return []
    labels = [c for c, f in layout.codec.columns if f.kind == TEXT and f.facet and c not in layout.lookups]
    date = _date_column(layout)
    if date is None:
        return []
    select = [quote(c) for c in labels] + [quote(date), "compra", "venta"]
    rows = db.execute(
        f"SELECT {', '.join(select)} FROM {quote(layout.table)} WHERE compra IS NOT NULL AND venta IS NOT NULL "
        f"ORDER BY {', '.join(str(i + 1) for i in range(len(labels) + 1))}"
    ).fetchall()
    n = len(labels)
    out = []
    for key, series in groupby(rows, key=lambda r: r[:n]):
        serie = calidad.series_label(labels, key)
        for above, run in groupby(series, key=lambda r: r[n + 1] > r[n + 2]):
            if not above:
                continue
            days = list(run)
            first, last = days[0], days[-1]
            span = f"el {first[n]}" if len(days) == 1 else f"en {len(days)} días seguidos, del {first[n]} al {last[n]}"
            out.append(
                Finding(
                    tabla=layout.table,
                    control=calidad.BUY_ABOVE_SELL,
                    campo="compra, venta",
                    valor=as_json({"compra": first[n + 1], "venta": first[n + 2]}),
                    detalle=f"compra mayor que venta {span} (el primero: compra {first[n + 1]}, venta {first[n + 2]})",
                    fecha=first[n],
                    serie=serie,
                    # the whole run, so that every day of it is marked (/v1/series/datos?marcar=calidad)
                    hasta=last[n] if len(days) > 1 else None,
                )
            )
    return out


# ---- out of range ----------------------------------------------------------------
def out_of_range(db: sqlite3.Connection, layout: Layout) -> list[Finding]:
    """Rows with a value outside the plausible range the catalogue declares (Dataset.bounds): one finding per
    row and column; ``registro`` is the row's rowid (the record's position, in a table read from one file)."""
    out = []
    for column, bound in layout.dataset.bounds.items():
        c = quote(column)
        tests = [f"{c} < {bound.low!r}"] if bound.low is not None else []
        tests += [f"{c} > {bound.high!r}"] if bound.high is not None else []
        if not tests:
            continue
        label = next((x for x in ("entidad", "nombre", "fondo") if x in layout.field_columns), None)
        name = quote(label) if label else "NULL"
        rows = db.execute(
            f"SELECT rowid, {c}, {name} FROM {quote(layout.table)} WHERE {' OR '.join(tests)} ORDER BY rowid"
        ).fetchall()
        limits = " y ".join(
            text
            for text in (
                f"al menos {bound.low:g}" if bound.low is not None else "",
                f"a lo sumo {bound.high:g}" if bound.high is not None else "",
            )
            if text
        )
        for rowid, value, who in rows:
            out.append(
                Finding(
                    tabla=layout.table,
                    control=calidad.OUT_OF_RANGE,
                    registro=rowid,
                    campo=column,
                    valor=as_json(value),
                    detalle=f"{column} = {value}" + (f" ({who})" if who else "") + f": se espera {limits}; {bound.why}",
                )
            )
    return out


# ---- stale values in a listing ------------------------------------------------------
def stale_in_listing(db: sqlite3.Connection, layout: Layout) -> list[Finding]:
    """In a series of dated listings (Series.date is a partition, not the records' date), records whose own date
    is more than STALE_DAYS before their listing's: one finding per such date, with how many records carry it."""
    series = layout.dataset.series
    assert series is not None
    own = _date_column(layout)
    if own is None or own == series.date or series.date not in layout.dataset.partition_names:
        return []
    dated = "GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'"
    if series.date in layout.lookups:
        # Each listing's limit computed once, not once per row (fci_valores: 0.84 s -> 0.53 s CPU, loaded machine).
        name = quote(series.date)
        listings = (
            f"WITH l AS MATERIALIZED (SELECT id, {name}, date({name}, '-{STALE_DAYS} days') AS limite "
            f"FROM {quote(layout.lookup_table(series.date))} WHERE {name} {dated}) "
        )
        source = f"{quote(layout.table)} t JOIN l ON l.id = t.{quote(series.date + '_id')}"
        listing, limit = f"l.{name}", "l.limite"
    else:
        listings, source = "", f"{quote(layout.table)} t"
        listing = f"t.{quote(series.date)}"
        limit = f"date({listing}, '-{STALE_DAYS} days') AND {listing} {dated}"
    rows = db.execute(
        f"{listings}SELECT t.{quote(own)}, count(*), min({listing}), max({listing}) FROM {source} "
        f"WHERE t.{quote(own)} < {limit} GROUP BY t.{quote(own)} ORDER BY 1"
    ).fetchall()
    return [
        Finding(
            tabla=layout.table,
            control=calidad.STALE,
            campo=own,
            valor=as_json(day),
            detalle=f"{n:,} {'registro' if n == 1 else 'registros'} con {own} {day} en listados del {first} al {last}: más de "
            f"{STALE_DAYS} días antes de su listado (un valor viejo que el listado arrastra, no uno de ese día)",
            fecha=day,
        )
        for day, n, first, last in rows
    ]


# ---- two routes publishing the same records ------------------------------------------------
@dataclass(frozen=True)
class Pair:
    """Two built tables holding the same records of upstream: ``layout``'s (one house's list, a per-date
    file) are also in ``reference``'s (the list).  ``series`` tells a record (its ``by`` columns and date)
    and what is compared (its ``values``).  ``joins``: further (reference column, table column) equalities,
    and ``literals`` (table alias, column, value), from the route whose ``Derivation`` declared the pair:
    the rows the route would answer for the path of a file are the ones compared with it."""

    layout: Layout
    reference: Layout
    series: Series
    joins: tuple[tuple[str, str], ...] = ()
    literals: tuple[tuple[str, str, object], ...] = ()


def _references(dataset: Dataset) -> list[tuple[str, Optional[Route]]]:
    """The tables the catalogue says hold the same records as ``dataset``: the list each of its routes
    answers from when upstream has no file (a plain ``Derivation``: not an empty answer, a count or a
    member of a record), and ``same_records_as``."""
    out: list[tuple[str, Optional[Route]]] = [
        (r.derive.table, r)
        for r in dataset.routes
        if r.derive and not (r.derive.empty or r.derive.count or r.derive.member)
    ]
    if dataset.same_records_as:
        out.append((dataset.same_records_as, None))
    return [(table, route) for table, route in out if table != dataset.table]


def _series_of(table: str, seen: frozenset = frozenset()) -> Optional[Series]:
    """How a record of ``table`` is told: its own Series, or that of a table it holds the records of."""
    dataset = BY_TABLE.get(table)
    if dataset is None or table in seen:
        return None
    if dataset.series:
        return dataset.series
    for reference, _ in _references(dataset):
        series = _series_of(reference, seen | {table})
        if series:
            return series
    return None


def same_record_pairs(layouts: Sequence[Layout]) -> list[Pair]:
    """Every pair of built tables the catalogue says publish the same records: a table and each table it
    names (``Derivation``, ``same_records_as``), and the ones those name in turn (a currency's per-date
    files, its list, the all-currencies list), when a Series says how a record is told."""
    built = {layout.table: layout for layout in layouts}
    pairs = []
    for layout in layouts:
        pending = [(table, route) for table, route in _references(layout.dataset)]
        seen = {layout.table}
        while pending:
            table, route = pending.pop(0)
            if table in seen or table not in BY_TABLE:
                continue
            seen.add(table)
            series = _series_of(table)
            if table in built and series is not None:
                joins, literals = _route_conditions(route) if route else ((), ())
                pairs.append(Pair(layout, built[table], series, joins, literals))
            # Further up, no route of this table says which path: records are matched by the series alone.
            pending += [(t, None) for t, _ in _references(BY_TABLE[table])]
    return pairs


def _route_conditions(route: Route) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str, object], ...]]:
    """What a route with a Derivation says about which rows of the list stand for which file: a column of
    the list and one of the route's table given by the same path parameter are equal (the list's ``fecha``
    and the per-date file's ``dia``), and literal values select rows on either side."""
    assert route.derive is not None
    ours = {v.name: c for c, v in route.where.items() if _plain(v)}
    joins = tuple(
        (column, ours[value.name])
        for column, value in route.derive.where.items()
        if _plain(value) and value.name in ours
    )
    literals = tuple(("r", c, v) for c, v in route.derive.where.items() if not isinstance(v, PathValue))
    literals += tuple(("a", c, v) for c, v in route.where.items() if not isinstance(v, PathValue))
    return joins, literals


def _plain(value) -> bool:
    return isinstance(value, PathValue) and bool(value.name) and not value.text and value.convert is None


class FileRoutes:
    """The route of the file each row of a table came from, found by its partition values."""

    def __init__(self, files: Sequence[SourceFile]):
        self._files: dict[str, list[str]] = {}
        for f in files:
            self._files.setdefault(f.tabla, []).append(f.ruta)
        self._by_table: dict[str, dict[tuple, Optional[str]]] = {}

    def of(self, layout: Layout, values: tuple) -> Optional[str]:
        if layout.table not in self._by_table:
            self._by_table[layout.table] = self._routes(layout)
        return self._by_table[layout.table].get(values)

    def _routes(self, layout: Layout) -> dict[tuple, Optional[str]]:
        names = layout.dataset.partition_names
        out: dict[tuple, Optional[str]] = {}
        for ruta in self._files.get(layout.table, []):
            route = ruta.lstrip("/")
            for source in layout.dataset.sources:
                if not source.placeholders and route != source.route:
                    continue
                try:
                    values = partition_values(layout.dataset, source, route)
                except SourceError:
                    continue
                key = tuple(values.get(n) for n in names)
                out[key] = ruta if out.get(key, ruta) == ruta else None  # two files, one key: no route
                break
        return out


def disagreements(db: sqlite3.Connection, pair: Pair, routes: FileRoutes) -> list[Finding]:
    """The records of ``pair.layout`` whose values differ from those of the same record (same series and
    date) in ``pair.reference``: one finding per record, with both values.  A record the reference lacks
    is no disagreement; one the reference has twice (its own «dos valores para una fecha») agrees when
    either copy does."""
    layout, reference, series = pair.layout, pair.reference, pair.series
    keys = [*series.by, series.date]
    for table in (layout, reference):
        columns = set(table.field_columns) | set(table.dataset.partition_names)
        missing = [c for c in keys + list(series.values) if c not in columns]
        if missing:
            raise ValueError(f"{table.table} no tiene {', '.join(missing)}")
        stored_as_ids = [c for c in keys + list(series.values) if c in table.lookups]
        if stored_as_ids:
            raise ValueError(f"{table.table} guarda {', '.join(stored_as_ids)} como ids")

    def match(alias: str) -> str:
        on = [f"{alias}.{quote(c)} = a.{quote(c)}" for c in keys]
        on += [f"{alias}.{quote(rc)} = a.{quote(ac)}" for rc, ac in pair.joins]
        on += [f"{alias}.{quote(c)} = ?" for side, c, _ in pair.literals if side == "r"]
        return " AND ".join(on)

    literal_values = [v for side, _, v in pair.literals if side == "r"]
    own_literals = [(c, v) for side, c, v in pair.literals if side == "a"]
    same = " AND ".join(f"{{r}}.{quote(c)} IS a.{quote(c)}" for c in series.values)
    # The partitions name each row's file (those stored as ids are left out: no route then).
    parts_a = [p for p in layout.dataset.partition_names if p not in layout.lookups]
    parts_r = [p for p in reference.dataset.partition_names if p not in reference.lookups]
    select = (
        [f"a.{quote(c)}" for c in keys + list(series.values)]
        + [f"r.{quote(c)}" for c in series.values]
        + [f"a.{quote(p)}" for p in parts_a]
        + [f"r.{quote(p)}" for p in parts_r]
    )
    where = [f"NOT ({same.format(r='r')})"]
    where += [f"a.{quote(c)} = ?" for c, _ in own_literals]
    where.append(
        f"NOT EXISTS (SELECT 1 FROM {quote(reference.table)} r2 WHERE {match('r2')} AND {same.format(r='r2')})"
    )
    sql = (
        f"SELECT {', '.join(select)} FROM {quote(layout.table)} a JOIN {quote(reference.table)} r ON {match('r')} "
        f"WHERE {' AND '.join(where)} ORDER BY {', '.join(str(i + 1) for i in range(len(keys)))}"
    )
    params = literal_values + [v for _, v in own_literals] + literal_values
    rows = db.execute(sql, params).fetchall()
    n, m = len(series.by), len(series.values)
    partial = len(layout.dataset.partition_names) != len(parts_a)
    partial_r = len(reference.dataset.partition_names) != len(parts_r)
    out = []
    for row in rows:
        ours = row[n + 1 : n + 1 + m]
        theirs = row[n + 1 + m : n + 1 + 2 * m]
        at = n + 1 + 2 * m
        route = None if partial else routes.of(layout, tuple(row[at : at + len(parts_a)]))
        route_r = None if partial_r else routes.of(reference, tuple(row[at + len(parts_a) :]))
        out.append(
            Finding(
                tabla=layout.table,
                control=calidad.DISAGREEMENT,
                ruta=route,
                campo=", ".join(series.values),
                valor=as_json([list(ours), list(theirs)]),
                detalle=_disagreement_text(
                    series.values, ours, theirs, (layout.table, route), (reference.table, route_r)
                ),
                fecha=row[n],
                serie=calidad.series_label(series.by, row[:n]),
            )
        )
    return out


def _disagreement_text(columns: Sequence[str], ours: Sequence, theirs: Sequence, here, there) -> str:
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    agree = [i for i in range(len(columns)) if i not in differ]

    def values(row: Sequence) -> str:
        return ", ".join(f"{columns[i]} {_number(row[i])}" for i in differ)

    def where(table: str, route: Optional[str]) -> str:
        return f"{route} ({table})" if route else table

    text = f"el mismo registro con otros valores: {values(ours)} en {where(*here)}, {values(theirs)} en {where(*there)}"
    if agree:
        text += "; " + ", ".join(f"{columns[i]} igual ({_number(ours[i])})" for i in agree)
    return text


def _number(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return str(value)


# ---- broken encoding -------------------------------------------------------------
def broken_encoding(db: sqlite3.Connection, layout: Layout) -> list[Finding]:
    """Text that was UTF-8 read as Latin-1 somewhere upstream: one finding per column and distinct value."""
    targets: list[tuple[str, str]] = []  # (table, column)
    for column, f in layout.codec.columns:
        if f.kind != TEXT or f.is_date:
            continue
        targets.append((layout.lookup_table(column), column) if column in layout.lookups else (layout.table, column))
    for p in layout.partition_only:
        if p.name in layout.lookups:
            targets.append((layout.lookup_table(p.name), p.name))
    for child in layout.all_children():
        targets += [(child.table, c) for c, f in child.codec.columns if f.kind == TEXT and not f.is_date]
    out = []
    for table, column in targets:
        c = quote(column)
        rows = db.execute(
            f"SELECT {c}, count(*) FROM {quote(table)} WHERE {_MOJIBAKE_SQL.format(c=c)} GROUP BY {c} ORDER BY {c}"
        ).fetchall()
        has_id = column == ENTITY_NAME and ENTITY_ID in {r[1] for r in db.execute(f"PRAGMA table_info({quote(table)})")}
        for text, n in rows:
            found = _MOJIBAKE.search(text)
            if not found:
                continue
            repaired = repair_mojibake(text)
            out.append(
                Finding(
                    tabla=table,
                    control=calidad.ENCODING,
                    campo=column,
                    valor=as_json(text),
                    detalle=f"«{_visible(found.group())}» en «{column}»: texto UTF-8 leído como Latin-1"
                    + (f" (sería «{repaired}»)" if repaired else "")
                    + f", en {n:,} {'fila' if n == 1 else 'filas'}"
                    + (_same_entity(db, table, text) if has_id else ""),
                )
            )
    return out


# A bank's id (entidadId) is the slug of its repaired name, so a mis-encoded spelling joins the bank's series.
ENTITY_NAME, ENTITY_ID = "entidad", "entidadId"


def _same_entity(db: sqlite3.Connection, table: str, name: str) -> str:
    """The merge a mis-encoded name's id makes: its id and the other names that share it."""
    key = entity_id(name)
    others = [
        r[0]
        for r in db.execute(
            f"SELECT DISTINCT {quote(ENTITY_NAME)} FROM {quote(table)} WHERE {quote(ENTITY_ID)} = ? "
            f"AND {quote(ENTITY_NAME)} != ? ORDER BY 1",
            (key, name),
        )
    ]
    return f"; su id es «{key}»" + (", el de " + ", ".join(f"«{o}»" for o in others) if others else "")


def _visible(text: str) -> str:
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)


# ---- series ------------------------------------------------------------------------
def series_checks(db: sqlite3.Connection, layout: Layout, calendar: Calendar) -> list[Finding]:
    """Gaps, jumps, excursions, unit switches and conflicting values in each series of a dataset."""
    series = layout.dataset.series
    assert series is not None
    out: list[Finding] = []
    # Repeated dates under the natural key are already the codec's "clave repetida".
    keyed = set(layout.dataset.unique) == set(series.by) | {series.date}
    for key, rows in groupby(_series_rows(db, layout, series, series.values), key=lambda r: r[0]):
        label = calidad.series_label(series.by, key)
        points: list[tuple[dt.date, tuple]] = []
        for day, same_day in groupby(((r[1], r[2:]) for r in rows), key=lambda r: r[0]):
            values = [v for _, v in same_day]
            if not keyed and len(set(values)) > 1:
                out.append(_conflict(layout, series, label, day, values))
            points.append((day, values[0]))
        finding = _make(layout.table, label)
        out += _gaps(series, points, calendar, finding)
        for i, column in enumerate(series.values):
            measured = [(d, v[i]) for d, v in points if v[i] is not None]
            # Ratios only mean something for a positive quantity: a variation (inflation) crosses zero.
            if all(_positive(v) for _, v in measured):
                # Levels (quotes, indexes), not rates: a deposit rate's one-day dips at a month's end are its own
                # (depositos_30_dias, 16 of them in 2007-2024)
                level = series.frequency == DAILY and series.kind(column) == LEVEL
                trips = _excursions(column, measured, finding) if level else []
                # the days a value leaves and comes back are one «ida y vuelta», not two «salto»
                ends = {day for f, back in trips for day in (f.fecha, back)}
                changes = _changes(column, measured, finding)
                out += [f for f, _ in trips] + [f for f in changes if f.control != calidad.JUMP or f.fecha not in ends]
    return _merge_columns(out)


def stopped_series(db: sqlite3.Connection, layout: Layout, today: dt.date) -> list[Finding]:
    """A stop in each series of a dataset: its check apart from the others, as the only one that changes with the
    day of the build (a series stops exactly when its files stop changing, when an incremental build keeps it)."""
    series = layout.dataset.series
    assert series is not None
    out: list[Finding] = []
    for key, rows in groupby(_series_rows(db, layout, series, ()), key=lambda r: r[0]):
        dates = list(dict.fromkeys(r[1] for r in rows))
        out += _stop(dates, today, _make(layout.table, calidad.series_label(series.by, key)))
    return out


def _series_rows(db: sqlite3.Connection, layout: Layout, series: Series, values: Sequence[str]) -> list[tuple]:
    """(series key, date, *values) for each row with a calendar date, by series and date."""
    columns = list(series.by) + [series.date]
    if not values and not series.by and series.date in layout.lookups:
        # Only the dates: the lookup table holds each distinct one once (a few hundred, not 1.4 million rows).
        table, selects, joins = layout.lookup_table(series.date), [quote(series.date)], ""
    else:
        table, joins, selects = layout.table, "", []
        for i, c in enumerate(columns + list(values)):
            if c in layout.lookups:
                joins += " " + layout.lookup_join(c, f"l{i}")
                selects.append(f"l{i}.{quote(c)}")
            else:
                selects.append(f"t.{quote(c)}")
    order = ", ".join(str(i + 1) for i in range(len(columns)))
    rows = db.execute(f"SELECT {', '.join(selects)} FROM {quote(table)} t{joins} ORDER BY {order}").fetchall()
    n = len(series.by)
    out = []
    for row in rows:
        day = _day(row[n])
        if day is not None:
            out.append((tuple(row[:n]), day, *row[n + 1 :]))
    return out


def _make(table: str, label: Optional[str]):
    def finding(control, day, campo, valor, detalle) -> Finding:
        return Finding(
            tabla=table,
            control=control,
            campo=campo,
            valor=valor,
            detalle=detalle,
            fecha=day.isoformat() if day else None,
            serie=label,
        )

    return finding


def _conflict(layout: Layout, series: Series, label, day: dt.date, values: list[tuple]) -> Finding:
    distinct = list(dict.fromkeys(values))
    return _make(layout.table, label)(
        calidad.CONFLICT,
        day,
        ", ".join(series.values),
        as_json([list(v) for v in distinct]),
        f"{len(values)} registros del {day} con valores distintos: "
        + " / ".join(", ".join(f"{c}={v}" for c, v in zip(series.values, vs)) for vs in distinct),
    )


def _gaps(series: Series, points, calendar: Calendar, finding) -> list[Finding]:
    out = []
    for (before, _), (after, _) in zip(points, points[1:]):
        if series.frequency == DAILY:
            missing = calendar.missing(before, after)
            unit = "día hábil" if len(missing) == 1 else "días hábiles"
        elif series.frequency == MONTHLY:
            missing = _months_between(before, after)
            unit = "mes" if len(missing) == 1 else "meses"
        else:
            return []
        if missing:
            span = f"el {missing[0]}" if len(missing) == 1 else f"del {missing[0]} al {missing[-1]}"
            if series.frequency == MONTHLY:
                span = f"{missing[0]:%Y-%m}" if len(missing) == 1 else f"de {missing[0]:%Y-%m} a {missing[-1]:%Y-%m}"
            out.append(
                finding(
                    calidad.GAP,
                    missing[0],
                    None,
                    str(len(missing)),
                    f"falta{'n' if len(missing) > 1 else ''} {len(missing)} {unit}: {span} "
                    f"(valores el {before} y el {after})",
                )
            )
    return out


def _months_between(before: dt.date, after: dt.date) -> list[dt.date]:
    first = before.year * 12 + before.month
    last = after.year * 12 + after.month
    return [dt.date(m // 12, m % 12 + 1, 1) for m in range(first, last - 1)]


def _stop(dates: list[dt.date], today: dt.date, finding) -> list[Finding]:
    if len(dates) < MIN_VALUES:
        return []
    usual = statistics.median((b - a).days for a, b in zip(dates, dates[1:]))
    last = dates[-1]
    days = (today - last).days
    limit = max(STOP_MIN_DAYS, STOP_TIMES * usual)
    if days <= limit:
        return []
    return [
        finding(
            calidad.STOPPED,
            last,
            None,
            str(days),
            f"último valor el {last}: {days:,} días antes de la construcción ({today}); "
            f"su espaciado habitual es de {usual:g} {'día' if usual == 1 else 'días'} (límite: {limit:g})",
        )
    ]


def _positive(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def _changes(column: str, values: list[tuple[dt.date, float]], finding) -> list[Finding]:
    """Unit switches and jumps between consecutive values of one measure."""
    pairs = [(day, prev, cur) for (_, prev), (day, cur) in zip(values, values[1:])]
    out = []
    jump_limit = None
    if len(values) >= MIN_VALUES:
        jump_limit = max(JUMP_MIN, JUMP_TIMES * statistics.median(abs(cur / prev - 1) for _, prev, cur in pairs))
    for day, prev, cur in pairs:
        ratio = cur / prev
        if UNIT_LOW <= ratio <= UNIT_HIGH or UNIT_LOW <= 1 / ratio <= UNIT_HIGH:
            out.append(
                finding(
                    calidad.UNIT_SWITCH,
                    day,
                    column,
                    as_json([prev, cur]),
                    f"{column} pasó de {prev} a {cur} ({_times(ratio)}): la misma magnitud escrita en otra escala",
                )
            )
        elif jump_limit is not None and abs(ratio - 1) > jump_limit:
            out.append(
                finding(
                    calidad.JUMP,
                    day,
                    column,
                    as_json([prev, cur]),
                    f"{column} pasó de {prev} a {cur} ({ratio - 1:+.0%}; límite de la serie: ±{jump_limit:.0%})",
                )
            )
    return out


def _excursions(column: str, values: list[tuple[dt.date, float]], finding) -> list[tuple[Finding, str]]:
    """Values that leave the series far beyond its usual daily move and come back within days: one finding per
    trip, from the first value away (``fecha``) to the last (``hasta``), with the day it came back."""
    out = []
    moves = [0.0] + [math.log(cur / prev) for (_, prev), (_, cur) in zip(values, values[1:])]
    # the non-zero moves of the EXCURSION_WINDOW values before i, kept sorted as i advances (moves[lo:hi]):
    # a median of each window sorted anew took 0.76 s of a one-day update's audit of the dollar's quotes, profiled
    recent: list[float] = []
    lo = hi = 1
    i = 1
    while i < len(values):
        for move in moves[hi:i]:
            if move:
                insort(recent, abs(move))
        hi = max(hi, i)
        for move in moves[lo : max(1, i - EXCURSION_WINDOW)]:
            if move:
                del recent[bisect_left(recent, abs(move))]
        lo = max(lo, i - EXCURSION_WINDOW)
        if len(recent) < MIN_VALUES:
            i += 1
            continue
        half = len(recent) // 2
        usual = recent[half] if len(recent) % 2 else (recent[half - 1] + recent[half]) / 2  # statistics.median
        limit = max(EXCURSION_TIMES * usual, EXCURSION_MIN)
        # a value 30 times another is a «cambio de unidad», whether it comes back or not
        back = _comes_back(values, i, moves[i]) if limit < abs(moves[i]) < math.log(UNIT_LOW) else None
        if back is None:
            i += 1
            continue
        (before, start), (first, away), (last, _), (returned, again) = (
            values[i - 1],
            values[i],
            values[back - 1],
            values[back],
        )
        n = back - i
        found = finding(
            calidad.EXCURSION,
            first,
            column,
            as_json([start, away, again]),
            f"{column} pasó de {_number(start)} (el {before}) a {_number(away)} ({math.exp(moves[i]) - 1:+.1%}) y volvió "
            f"a {_number(again)} el {returned}: {'un valor' if n == 1 else f'{n} valores'} fuera de lo habitual"
            + ("" if n == 1 else f", del {first} al {last}")
            + f"; en sus {len(recent)} cambios anteriores la serie se movía un {usual:.2%} por día (la mediana), y el "
            f"límite es un {limit:.1%} ("
            + ("el mínimo del control" if limit == EXCURSION_MIN else f"{EXCURSION_TIMES} veces eso")
            + ") (evidencia: la serie misma)",
        )
        out.append((dataclasses.replace(found, hasta=last.isoformat() if n > 1 else None), returned.isoformat()))
        i = back + 1
    return out


def _comes_back(values: list[tuple[dt.date, float]], i: int, away: float) -> Optional[int]:
    """The position of the value that brings the series back after leaving it at ``i`` by ``away`` (a log change),
    or None if it stays away (a real jump) or drifts back slowly."""
    start, (first_day, first) = values[i - 1][1], values[i]
    near = EXCURSION_BACK * abs(away)
    for j in range(i + 1, min(len(values), i + EXCURSION_VALUES + 1)):
        day, value = values[j]
        if abs(math.log(value / start)) <= near:
            return j if (day - first_day).days <= EXCURSION_DAYS else None
        if abs(math.log(value / first)) > near:
            return None  # neither there nor back: the series moves on (a new regime finding its level), no trip
    return None


def _times(ratio: float) -> str:
    return f"×{ratio:.0f}" if ratio >= 1 else f"÷{1 / ratio:.0f}"


def _merge_columns(findings: list[Finding]) -> list[Finding]:
    """compra and venta usually jump on the same day: one finding per series, day and check."""
    merged: dict[object, Finding] = {}
    for f in findings:
        key = (
            (f.control, f.serie, f.fecha)
            if f.control in (calidad.JUMP, calidad.UNIT_SWITCH, calidad.EXCURSION)
            else id(f)
        )
        if key in merged:
            first = merged[key]
            merged[key] = Finding(
                tabla=first.tabla,
                control=first.control,
                campo=f"{first.campo}, {f.campo}",
                valor=first.valor,
                detalle=f"{first.detalle}; {f.detalle}",
                fecha=first.fecha,
                serie=first.serie,
                hasta=max(first.hasta or "", f.hasta or "") or None,
            )
        else:
            merged[key] = f
    return list(merged.values())


# ---- helpers ---------------------------------------------------------------------------
def _date_column(layout: Layout) -> Optional[str]:
    return next((c for c, f in layout.codec.columns if f.is_date), None)


def _day(value) -> Optional[dt.date]:
    if type(value) is not str or len(value) != 10:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None
