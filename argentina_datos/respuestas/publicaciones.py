"""When each series is published: the days its route's file changed (``/v1/series/publicaciones``), its rhythm — the
usual lag from the end of a period to its first publication, and the next publication that rhythm expects — (the
``publicacion`` of each catalogue entry) and a calendar of past and expected publications across series
(``/v1/series/calendario``, also as iCalendar).  All from the versions store (almacen/versiones.py), as end-of-day
vintages: a day is a publication when the route's file at the end of it differs from the day before's.

The rhythm is measured on the publications that bring observations newer than every one published before (not the
route's first stored version, which holds its whole past, nor a backfill of old dates): its lag is the days from the
end of the earliest of those new periods to the publication.  The next publication is an estimate from that rhythm
(and says so): the end of the period after the last one published plus the usual lag, for a monthly series; the last
publication plus the usual interval between publications, for a daily one.
"""

from __future__ import annotations

import calendar
import datetime as dt
import sqlite3
import statistics
from dataclasses import dataclass
from typing import Any, Optional

from argentina_datos.almacen import versiones
from argentina_datos.almacen.propias import VERSIONES
from argentina_datos.catalogo.esquema import MONTHLY

# What every rhythm says about its next publication.
ESTIMATE = (
    "estimación: el fin del período siguiente más el rezago habitual (mensuales) o la última publicación más el "
    "intervalo habitual (diarias), medidos en las versiones guardadas; no es un calendario oficial"
)
PUBLISHED, EXPECTED = "publicada", "estimada"  # the kinds of a calendar's events


def period_end(fecha: str, frequency: str) -> dt.date:
    """The last day of the period an observation dated ``fecha`` covers: its month's, for a monthly series."""
    day = dt.date.fromisoformat(fecha[:10])
    if frequency == MONTHLY:
        return day.replace(day=calendar.monthrange(day.year, day.month)[1])
    return day


@dataclass(frozen=True)
class Rhythm:
    lag: int  # median days from the end of a new period to its first publication
    lag_min: int
    lag_max: int
    interval: int  # median days between publications that bring new periods
    count: int  # publications measured
    last: str  # the last day the route's file changed
    last_period: str  # the newest observation published
    next_period: str
    next_expected: str

    def as_json(self) -> dict[str, Any]:
        return {
            "rezagoDias": self.lag,
            "rezagoMinimo": self.lag_min,
            "rezagoMaximo": self.lag_max,
            "intervaloDias": self.interval,
            "publicacionesMedidas": self.count,
            "ultimaPublicacion": self.last,
            "ultimoPeriodo": self.last_period,
            "proximoPeriodo": self.next_period,
            "proximaEstimada": self.next_expected,
            "estimacion": ESTIMATE,
        }


def rhythm_of(releases: list[versiones.Release], first_day: Optional[str], frequency: str) -> Optional[Rhythm]:
    """The rhythm of a route from its ``releases`` (versiones.releases); None before it has one publication that
    brought a new period after its ``first_day`` stored."""
    advancing = [r for r in releases if r.day != first_day and r.new and r.first_new]
    if not advancing:
        return None
    lags = [(dt.date.fromisoformat(r.day) - period_end(r.first_new or "", frequency)).days for r in advancing]
    days = [dt.date.fromisoformat(r.day) for r in advancing]
    interval = round(statistics.median([(b - a).days for a, b in zip(days, days[1:])])) if len(days) > 1 else 1
    lag = round(statistics.median(lags))
    last_period = max(r.newest for r in releases if r.newest)
    if frequency == MONTHLY:
        following = period_end(last_period, frequency) + dt.timedelta(days=1)
        next_period = period_end(following.isoformat(), frequency)
        expected = next_period + dt.timedelta(days=lag)
    else:
        next_period = dt.date.fromisoformat(last_period) + dt.timedelta(days=1)
        expected = days[-1] + dt.timedelta(days=interval)
    last = releases[-1].day
    expected = max(expected, dt.date.fromisoformat(last) + dt.timedelta(days=1))
    return Rhythm(
        lag,
        min(lags),
        max(lags),
        interval,
        len(advancing),
        last,
        last_period,
        next_period.isoformat(),
        expected.isoformat(),
    )


@dataclass(frozen=True)
class Delay:
    """A publication that brought new observations much later than the route's usual lag."""

    day: str  # of the publication
    previous: Optional[str]  # the publication with new observations before it
    first: str  # the first observation it brought late
    last: str  # ... and the last
    lag: int  # days from ``first`` to ``day``
    usual: int  # the route's median lag
    measured: int  # publications the median is of


def delays(releases: list[versiones.Release], first_day: Optional[str]) -> list[Delay]:
    """The publications of ``releases`` whose lag (days from the first new observation to the publication) exceeds
    the route's median by more than a week, or by half the usual interval between publications if that is more."""
    advancing = [r for r in releases if r.day != first_day and r.new and r.first_new]
    if len(advancing) < 3:
        return []
    days = [dt.date.fromisoformat(r.day) for r in advancing]
    lags = [(d - dt.date.fromisoformat(r.first_new or "")).days for d, r in zip(days, advancing)]
    usual = round(statistics.median(lags))
    interval = statistics.median([(b - a).days for a, b in zip(days, days[1:])])
    limit = usual + max(7, round(interval / 2))
    out = []
    for i, (r, day, lag) in enumerate(zip(advancing, days, lags)):
        if lag > limit:
            last = min(r.newest or "", (day - dt.timedelta(days=limit + 1)).isoformat())
            previous = advancing[i - 1].day if i else None
            out.append(Delay(r.day, previous, r.first_new or "", last, lag, usual, len(lags)))
    return out


def days_text(days: int) -> str:
    """A lag in words: «13 días después», «el mismo día», «1 día antes»."""
    if days == 0:
        return "el mismo día"
    return f"{abs(days)} día{'s' if abs(days) != 1 else ''} {'después' if days > 0 else 'antes'}"


# The releases of each route and its rhythm, read once per database: the calendar and every catalogue page ask for
# them, and a route of 5,000 records takes ~50 ms.  Keyed by what identifies the route's stored versions in that file.
_READ: dict[tuple, tuple[list[versiones.Release], dict[str, Optional[Rhythm]]]] = {}


def _read(conn: sqlite3.Connection, route: str) -> tuple[list[versiones.Release], dict[str, Optional[Rhythm]]]:
    (file,) = [r[2] for r in conn.execute("PRAGMA database_list") if r[1] == "main"]
    count, last, when = conn.execute(
        f"SELECT count(*), max(id), max(publicado) FROM {VERSIONES.name} WHERE ruta = ?", [route]
    ).fetchone()
    key = (file or id(conn), route, count, last, when)
    found = _READ.get(key)
    if found is None:
        if len(_READ) > 256:
            _READ.clear()
        found = _READ[key] = (versiones.releases(conn, route), {})
    return found


def route_releases(conn: sqlite3.Connection, route: str) -> list[versiones.Release]:
    """versiones.releases of ``route``'s whole records, remembered for this database's versions of it."""
    return _read(conn, route)[0]


def rhythm(conn: sqlite3.Connection, route: str, frequency: str) -> Optional[Rhythm]:
    """The rhythm of ``route``, whose series have ``frequency``; None without versions of it to measure."""
    releases, rhythms = _read(conn, route)
    if frequency not in rhythms:
        rhythms[frequency] = rhythm_of(releases, versiones.first_day(conn, route), frequency)
    return rhythms[frequency]


# ---- the publications of series ---------------------------------------------------------------------------------
def publications(conn: sqlite3.Connection, entry: dict, desde: str = "", hasta: str = "\uffff") -> list[dict]:
    """Each day from ``desde`` to ``hasta`` the series of catalogue ``entry`` was published (its route's records that
    it is made of, its column): how many values it added, revised and removed, and its newest observation then."""
    first = versiones.first_day(conn, entry["ruta"])
    found = versiones.releases(conn, entry["ruta"], entry["columna"], entry["filtro"])
    return [
        {
            "serie": entry["id"],
            "publicado": r.day,
            "agregados": r.added,
            "revisados": r.revised,
            "quitados": r.removed,
            "ultimaFecha": r.newest,
            # the first version stored of the route: what it added was published that day or before
            "inicial": r.day == first,
        }
        for r in found
        if desde <= r.day <= hasta
    ]


def calendar_events(
    conn: sqlite3.Connection, entries: list[dict], desde: str = "", hasta: str = "\uffff"
) -> list[dict]:
    """The past publications (each day a route's file changed) and the next expected one of the routes of catalogue
    ``entries``, from ``desde`` to ``hasta``, by day: one event per route and day, naming its series."""
    by_route: dict[str, list[dict]] = {}
    for e in entries:
        by_route.setdefault(e["ruta"], []).append(e)
    events = []
    for route, members in by_route.items():
        name = _common_title([e["titulo"] for e in members])
        ids = [e["id"] for e in members]
        found = route_releases(conn, route)
        first = versiones.first_day(conn, route)
        expected = rhythm(conn, route, members[0]["frecuencia"])
        for r in found:
            if desde <= r.day <= hasta:
                said = f"hasta el {r.newest}" if r.newest else "revisiones"
                events.append(
                    _event(r.day, PUBLISHED, route, ids, f"{name}: publicada ({said})", r.newest)
                    | {"agregados": r.added, "revisados": r.revised, "quitados": r.removed, "inicial": r.day == first}
                )
        if expected is not None and desde <= expected.next_expected <= hasta:
            events.append(
                _event(
                    expected.next_expected,
                    EXPECTED,
                    route,
                    ids,
                    f"{name}: próxima publicación estimada ({expected.next_period})",
                    expected.next_period,
                )
                | {"agregados": None, "revisados": None, "quitados": None, "inicial": False}
            )
    return sorted(events, key=lambda e: (e["fecha"], e["ruta"]))


def _event(day: str, kind: str, route: str, ids: list[str], name: str, period: Optional[str]) -> dict:
    return {"fecha": day, "tipo": kind, "nombre": name, "ruta": route, "series": ids, "periodo": period}


def _common_title(titles: list[str]) -> str:
    """What the titles of a route's series share («Dólar blue» of «Dólar blue: compra» and «Dólar blue: venta»)."""
    if len(titles) == 1:
        return titles[0]
    shared = titles[0]
    for t in titles[1:]:
        while not t.startswith(shared):
            shared = shared[:-1]
    return shared.rstrip(" :,(") or titles[0]
