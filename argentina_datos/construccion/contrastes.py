"""Checks that look at the world, not only at one series: a quote that stops moving while its table moves, a
spread its house never has, two series that measure the same thing and disagree, and figures someone else
published.  Each is declared in almacen/controles.py (its meaning, threshold and evidence); the thresholds are
the constants below, measured on the mirror (docs/investigadores.md, «Cómo leer la tabla calidad»).

A finding covers a span: ``fecha`` its first day, ``hasta`` its last, one finding per span, never one per row.
Nothing here changes a value: the findings stand beside them.
"""

from __future__ import annotations

import csv
import datetime as dt
import math
import sqlite3
import statistics
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from itertools import groupby
from pathlib import Path
from typing import Optional, Sequence

from argentina_datos.almacen import calidad
from argentina_datos.almacen.calidad import Finding, as_json
from argentina_datos.almacen.propias import PublishedFigure
from argentina_datos.almacen.tablas import Layout, quote
from argentina_datos.catalogo.esquema import DAILY

# A frozen value: a series that changes on at least FROZEN_SHARE of its business days repeats one value on
# FROZEN_DAYS business days or more in a row while every other series of its table with values then moves by
# more than FROZEN_OTHERS_MOVE from the day before the span to its last day.  On the mirror: four spans of the
# mayorista in 2023-2024 (18 to 49 business days) and one of the real in 2025; a rate the government fixed keeps
# another series still as well (the oficial in 2011-2014, the mayorista at 350 in late 2023 with the solidario),
# and is no finding.
FROZEN_SHARE = 0.75
FROZEN_DAYS = 10
FROZEN_OTHERS_MOVE = 0.01
FROZEN_RECENT = 60  # business days before a freeze in which the reference series must have moved day by day
# An impossible spread: venta / compra - 1 above SPREAD_TIMES times the series' median and above SPREAD_MIN (at 2 %
# the mayorista's 2.0 % in the week of the 2015 unification would be one; its 2024 error is 4.5-5 %).  A span is
# a run of consecutive values beyond the limit: a normal day between two bad ones is not marked.
SPREAD_TIMES = 10
SPREAD_MIN = 0.03
# INDEC publishes its rates with one decimal: each is within ±ROUNDING of the exact figure.
ROUNDING = 0.05
RELATED_MIN = 0.3
MONTHS = 12


# ---- frozen values --------------------------------------------------------------------------
def frozen_values(db: sqlite3.Connection, layout: Layout, business: "Business") -> list[Finding]:
    """Spans of business days on which a quote that usually moves repeats the day before's values while the
    other series of its table move."""
    series = layout.dataset.series
    if series is None or series.frequency != DAILY or len(series.by) != 1 or not series.values:
        return []
    by, values = series.by[0], list(series.values)
    table = _series_on_business_days(db, layout, by, series.date, values, business)
    ordered = {key: sorted(points) for key, points in table.items()}
    share = {key: _changing(table[key], days) for key, days in ordered.items() if len(days) >= 2 * FROZEN_DAYS}
    moving = {key for key, part in share.items() if part >= FROZEN_SHARE}
    out = []
    for key in [k for k in table if k in moving]:  # the table's order, not a set's: the same rows every build
        points, days = table[key], ordered[key]
        for before, run in _still_runs(days, points):
            if len(run) < FROZEN_DAYS:
                continue
            moves = {
                other: _move(table[other], before, run[-1])
                for other in table
                if other != key and before in table[other] and run[-1] in table[other]
            }
            if not moves:
                continue
            still = sorted(o for o, m in moves.items() if m <= FROZEN_OTHERS_MOVE)
            if still and not _shared_freeze(series.reference, key, still, moves, moving, table, ordered, before):
                continue  # another series still too, and nothing says it is not a rate the government fixed
            value = points[run[0]]
            shown = " / ".join(_number(v) for v in value)
            slowest = min(moves, key=lambda o: moves[o])
            if not still:
                while_ = (
                    f"mientras las otras series de la tabla se movieron al menos {moves[slowest]:.1%} ({by}={slowest})"
                )
            elif moves.get(series.reference, 0) > FROZEN_OTHERS_MOVE:
                while_ = f"mientras {by}={series.reference} se movió {moves[series.reference]:.1%}"
            else:
                while_ = "quietas a la vez todas las series de la tabla que suelen moverse"
            if still:
                while_ += " (también quietas: " + ", ".join(f"{by}={o}" for o in still) + ")"
            out.append(
                Finding(
                    tabla=layout.table,
                    control=calidad.FROZEN,
                    campo=", ".join(values),
                    valor=as_json(list(value)),
                    detalle=f"{', '.join(values)} {shown} en {len(run)} días hábiles seguidos, del {run[0]} al "
                    f"{run[-1]} (igual que el {before}), {while_}; la serie cambia en "
                    f"{share[key]:.0%} de sus días hábiles (evidencia: series relacionadas)",
                    fecha=run[0],
                    serie=calidad.series_label((by,), (key,)),
                    hasta=run[-1],
                )
            )
    return out


def _changing(points: dict, days: list[str]) -> float:
    """The share of a series' business days whose values differ from the day before's."""
    return sum(points[a] != points[b] for a, b in zip(days, days[1:])) / max(1, len(days) - 1)


def _shared_freeze(
    reference: str, key, still: list, moves: dict, moving: set, table: dict, ordered: dict, before
) -> bool:
    """Whether a still run that other series share is a freeze, not a rate the government fixed: the series the
    table follows (``Series.reference``, the oficial) moved while it moved day by day in the weeks before (its
    coarse whole-peso quotes of 2011-2019 say nothing), or every other series that usually moves stood still with
    it (the mayorista and contado con liquidación of 2017-11 and 2018-03, all the table's market quotes then)."""
    if reference and key != reference and reference not in still and reference in moves:
        days = ordered[reference]
        recent = [d for d in days if d <= before][-FROZEN_RECENT:]
        if len(recent) > FROZEN_DAYS and _changing(table[reference], recent) >= FROZEN_SHARE:
            return True
    others = [o for o in moves if o in moving]
    return bool(others) and all(o in still for o in others)


def _series_on_business_days(db, layout: Layout, by: str, date: str, values: list[str], business) -> dict:
    """series key -> {business day: (values...)}, rows with a null value left out."""
    cols = ", ".join(quote(c) for c in [by, date, *values])
    nonnull = " AND ".join(f"{quote(v)} IS NOT NULL" for v in values)
    out: dict = {}
    for row in db.execute(f"SELECT {cols} FROM {quote(layout.table)} WHERE {nonnull}"):
        if isinstance(row[1], str) and business(row[1]):
            out.setdefault(row[0], {})[row[1]] = tuple(row[2:])
    return out


def _still_runs(days: list[str], points: dict) -> list[tuple[str, list[str]]]:
    """(the day before, the days repeating its values) for each run of repeated values."""
    runs: list[tuple[str, list[str]]] = []
    for a, b in zip(days, days[1:]):
        if points[a] != points[b]:
            continue
        if runs and runs[-1][1][-1] == a:
            runs[-1][1].append(b)
        else:
            runs.append((a, [b]))
    return runs


def _move(points: dict, first: str, last: str) -> float:
    """How much a series moved between two days: the largest relative change of its values."""
    changes = [abs(b / a - 1) for a, b in zip(points[first], points[last]) if _positive(a) and _positive(b)]
    return max(changes, default=0.0)


# ---- quotes on days the market is closed -----------------------------------------------------------------
def closed_market_quotes(db: sqlite3.Connection, layout: Layout, business: "Business") -> list[Finding]:
    """Quotes of a series whose market does not trade on weekends and holidays (``Series.closed_market``) that, on
    such a day, differ from the previous business day's: one finding per run of such days, marking them."""
    series = layout.dataset.series
    if series is None or not series.closed_market or len(series.by) != 1 or not series.values:
        return []
    by, values = series.by[0], list(series.values)
    cols = ", ".join(quote(c) for c in [series.date, *values])
    nonnull = " AND ".join(f"{quote(v)} IS NOT NULL" for v in values)
    out = []
    for key in series.closed_market:
        rows = db.execute(
            f"SELECT {cols} FROM {quote(layout.table)} WHERE {quote(by)} = ? AND {nonnull} ORDER BY 1", [key]
        ).fetchall()
        last: Optional[tuple] = None  # (day, values) of the last business day
        runs: list[tuple[tuple, list[tuple]]] = []
        for day, *quoted in rows:
            if not isinstance(day, str) or _date(day) is None:
                continue
            if business(day):
                last = (day, tuple(quoted))
            elif last is not None and tuple(quoted) != last[1]:
                if runs and runs[-1][0] == last and _next_day(runs[-1][1][-1][0]) == day:
                    runs[-1][1].append((day, tuple(quoted)))
                else:
                    runs.append((last, [(day, tuple(quoted))]))
        for (before, usual), days in runs:
            shown = "; ".join(f"{d} {' / '.join(_number(v) for v in q)}" for d, q in days)
            out.append(
                Finding(
                    tabla=layout.table,
                    control=calidad.CLOSED_MARKET,
                    campo=", ".join(values),
                    valor=as_json([list(usual), list(days[0][1])]),
                    detalle=f"{', '.join(values)} en {'un día' if len(days) == 1 else f'{len(days)} días'} sin "
                    f"mercado (fin de semana o feriado, según las tablas de feriados): {shown}; el día hábil anterior, "
                    f"{before}, {' / '.join(_number(v) for v in usual)}. Ese mercado no opera esos días: el valor no "
                    f"es una cotización (evidencia: la serie misma)",
                    fecha=days[0][0],
                    serie=calidad.series_label((by,), (key,)),
                    hasta=days[-1][0] if len(days) > 1 else None,
                )
            )
    return out


# ---- impossible spreads ---------------------------------------------------------------------------
def impossible_spreads(db: sqlite3.Connection, layout: Layout) -> list[Finding]:
    """Runs of consecutive values of a series whose venta / compra − 1 is beyond its limit (SPREAD_TIMES times
    the series' own median, and at least SPREAD_MIN): one finding per run, which marks only those days."""
    series = layout.dataset.series
    if series is None or not {"compra", "venta"} <= set(series.values) or len(series.by) > 1:
        return []
    by = series.by[0] if series.by else None
    key = quote(by) if by else "NULL"
    rows = db.execute(
        f"SELECT {key}, {quote(series.date)}, compra, venta FROM {quote(layout.table)} "
        "WHERE compra > 0 AND venta > 0 ORDER BY 1, 2"
    ).fetchall()
    per: dict = {}
    for serie, day, compra, venta in rows:
        if isinstance(day, str) and _date(day) is not None:
            per.setdefault(serie, []).append((day, compra, venta))
    out = []
    for serie, points in per.items():
        if len(points) < 2 * FROZEN_DAYS:
            continue
        median = statistics.median(v / c - 1 for _, c, v in points)
        limit = max(SPREAD_TIMES * median, SPREAD_MIN)
        for beyond, run in groupby(points, key=lambda p: p[2] / p[1] - 1 > limit):
            if beyond:
                out.append(_spread_finding(layout.table, by, serie, list(run), median, limit))
    return out


def _spread_finding(table: str, by: Optional[str], serie, span: list[tuple], median: float, limit: float) -> Finding:
    first, last = span[0], span[-1]
    spreads = [v / c - 1 for _, c, v in span]
    when = f"el {first[0]}" if len(span) == 1 else f"en {len(span)} valores seguidos, del {first[0]} al {last[0]},"
    low, high = _percent(min(spreads)), _percent(max(spreads))
    how_much = f"un {low}" if low == high else f"entre un {low} y un {high}"
    usual = (
        "suele ser igual a la compra"
        if _percent(median) == _percent(0)
        else f"suele superar a la compra en un {_percent(median)}"
    )
    why = "el mínimo del control" if limit == SPREAD_MIN else f"{SPREAD_TIMES} veces la habitual"
    return Finding(
        tabla=table,
        control=calidad.SPREAD,
        campo="compra, venta",
        valor=as_json({"compra": first[1], "venta": first[2]}),
        detalle=f"{when} la venta supera a la compra en {how_much} (el {first[0]}: compra {_number(first[1])}, venta "
        f"{_number(first[2])}); en la historia de esta serie la venta {usual} (la mediana) y el límite es un "
        f"{_percent(limit)} ({why}) (evidencia: la serie misma)",
        fecha=first[0],
        serie=calidad.series_label((by,), (serie,)) if by else None,
        hasta=last[0] if len(span) > 1 else None,
    )


def _percent(share: float) -> str:
    """0.0456 -> «4.6 %», as the other details and docs/investigadores.md write a share."""
    return f"{share * 100:.1f} %"


# ---- related series --------------------------------------------------------------------------------
def compounded_disagreements(db: sqlite3.Connection, layout: Layout, monthly: Optional[Layout]) -> list[Finding]:
    """A year-on-year rate against its monthly rate compounded over the 12 months that end in it
    (``Series.compounds``): one finding per run of consecutive months beyond rounding."""
    series = layout.dataset.series
    if series is None or not series.compounds or monthly is None or len(series.values) != 1:
        return []
    other = monthly.dataset.series
    if other is None or len(other.values) != 1:
        return []
    months = _monthly(db, monthly.table, other.date, other.values[0])
    yearly = _monthly(db, layout.table, series.date, series.values[0])
    order = sorted(months)
    at = {m: i for i, m in enumerate(order)}
    bad: list[tuple[str, str, float, float, float]] = []
    for month, (day, published) in sorted(yearly.items()):
        i = at.get(month)
        if i is None or i < MONTHS - 1 or _month_number(order[i - MONTHS + 1]) != _month_number(month) - MONTHS + 1:
            continue  # twelve consecutive months, or nothing to compare
        window = [months[m][1] for m in order[i - MONTHS + 1 : i + 1]]
        level = math.prod(1 + v / 100 for v in window)
        compounded = 100 * (level - 1)
        tolerance = max(RELATED_MIN, 100 * level * sum(ROUNDING / (100 + v) for v in window) + ROUNDING)
        if abs(compounded - published) > tolerance:
            bad.append((month, day, published, compounded, tolerance))
    out = []
    for run in _consecutive_months(bad):
        first, last = run[0], run[-1]
        worst = max(run, key=lambda r: abs(r[3] - r[2]))
        out.append(
            Finding(
                tabla=layout.table,
                control=calidad.RELATED_SERIES,
                campo=series.values[0],
                valor=as_json([first[2], round(first[3], 2)]),
                detalle=f"la interanual publicada difiere de la mensual ({monthly.table}) compuesta en 12 meses "
                f"más que el redondeo en {len(run)} {'mes' if len(run) == 1 else 'meses'}, de {first[0]} a {last[0]} "
                f"(el primero: {_number(first[2])} contra {first[3]:.2f}, límite ±{first[4]:.2f}; la mayor diferencia, "
                f"{worst[3] - worst[2]:+.2f} en {worst[0]}) (evidencia: series relacionadas)",
                fecha=first[1],
                hasta=last[1] if len(run) > 1 else None,
            )
        )
    return out


def _monthly(db: sqlite3.Connection, table: str, date: str, column: str) -> dict[str, tuple[str, float]]:
    """AAAA-MM -> (its date, its value), numbers only."""
    out = {}
    for day, v in db.execute(f"SELECT {quote(date)}, {quote(column)} FROM {quote(table)} ORDER BY 1"):
        if isinstance(day, str) and len(day) >= 7 and isinstance(v, (int, float)) and not isinstance(v, bool):
            out[day[:7]] = (day, float(v))
    return out


def _month_number(month: str) -> int:
    return int(month[:4]) * 12 + int(month[5:7])


def _consecutive_months(rows: list[tuple]) -> list[list[tuple]]:
    runs: list[list[tuple]] = []
    for r in rows:
        if runs and _month_number(runs[-1][-1][0]) + 1 == _month_number(r[0]):
            runs[-1].append(r)
        else:
            runs.append([r])
    return runs


# ---- figures published by others ------------------------------------------------------------------
@dataclass
class Figures:
    """The figures of referencias/cifras.tsv, and what of it could not be read (a finding each)."""

    rows: list[PublishedFigure]
    unreadable: list[Finding]


def read_figures(path: Optional[Path]) -> Figures:
    """The published figures of a TSV with a header (serie, fecha, valor, unidad, fuente, nota); none without a
    file."""
    if path is None or not path.is_file():
        return Figures([], [])
    rows, bad = [], []
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t")
        missing = [c for c in ("serie", "fecha", "valor", "fuente") if c not in (reader.fieldnames or [])]
        if missing:
            return Figures([], [_unreadable(path, 1, f"faltan las columnas {', '.join(missing)}")])
        for line, r in enumerate(reader, start=2):
            text = (r.get("valor") or "").strip()
            try:
                number = float(Decimal(text))
            except InvalidOperation:
                bad.append(_unreadable(path, line, f"valor «{text[:40]}» no es un número"))
                continue
            if _date(r.get("fecha") or "") is None or not r.get("serie"):
                bad.append(_unreadable(path, line, f"fecha «{(r.get('fecha') or '')[:40]}» o serie vacía"))
                continue
            rows.append(
                PublishedFigure(
                    serie=r["serie"].strip(),
                    fecha=r["fecha"].strip(),
                    valor=number,
                    texto=text,
                    unidad=(r.get("unidad") or "").strip() or None,
                    fuente=(r.get("fuente") or "").strip(),
                    nota=(r.get("nota") or "").strip() or None,
                )
            )
    return Figures(rows, bad)


def _unreadable(path: Path, line: int, why: str) -> Finding:
    return Finding(
        tabla="cifras_publicadas", control=calidad.PUBLISHED_FIGURE, detalle=f"{path}, línea {line}: {why}; no se usa"
    )


def published_figures(db: sqlite3.Connection, layouts: Sequence[Layout], figures: Sequence[PublishedFigure]) -> list:
    """Each figure against the database's value of its series (a table with one series of one measure) that day."""
    by_table = {layout.table: layout for layout in layouts}
    out = []
    for figure in figures:
        layout = by_table.get(figure.serie)
        series = layout.dataset.series if layout else None
        if layout is None or series is None or series.by or len(series.values) != 1:
            continue
        row = db.execute(
            f"SELECT {quote(series.values[0])} FROM {quote(layout.table)} WHERE {quote(series.date)} = ?",
            [figure.fecha],
        ).fetchone()
        ours = row[0] if row else None
        if not isinstance(ours, (int, float)) or abs(ours - figure.valor) <= _half_digit(figure.texto) + 1e-9:
            continue
        out.append(
            Finding(
                tabla=layout.table,
                control=calidad.PUBLISHED_FIGURE,
                campo=series.values[0],
                valor=as_json([ours, figure.valor]),
                detalle=f"{layout.table} del {figure.fecha}: la base dice {_number(ours)}, {figure.fuente} publicó "
                f"{figure.texto}" + (f" {figure.unidad}" if figure.unidad else "") + f" (diferencia "
                f"{ours - figure.valor:+g}; {figure.nota or 'sin nota'}) (evidencia: cifras publicadas)",
                fecha=figure.fecha,
            )
        )
    return out


def _half_digit(text: str) -> float:
    """Half a unit of the last digit written: 571 -> 0.5, 24.8 -> 0.05."""
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10**-decimals


# ---- helpers ------------------------------------------------------------------------------------------
class Business:
    """Whether a day (AAAA-MM-DD) is a business day: a weekday that is not a holiday."""

    def __init__(self, holidays: set[dt.date]):
        self.holidays = {d.isoformat() for d in holidays}
        self._memo: dict[str, bool] = {}

    def __call__(self, day: str) -> bool:
        known = self._memo.get(day)
        if known is None:
            parsed = _date(day)
            known = self._memo[day] = parsed is not None and parsed.weekday() < 5 and day not in self.holidays
        return known


def _next_day(day: str) -> str:
    return (dt.date.fromisoformat(day) + dt.timedelta(days=1)).isoformat()


def _date(value: str) -> Optional[dt.date]:
    try:
        return dt.date.fromisoformat(value) if len(value) == 10 else None
    except ValueError:
        return None


def _positive(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


def _number(value) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
