"""Changes: what ``variacion`` makes of a list answer.

- ``changes``: per series, in ``fecha`` order, each measure becomes its change against a reference
  record: the previous one (``absoluta``, ``relativa``), the latest on or before the same day a year
  earlier (``interanual``; 29 February looks at 28 February), the last of the previous calendar year
  (``acumulada``).  Relative changes are fractions (0.05 is 5 %).  null where there is no reference,
  either value is null, or a relative change would divide by 0.  Records keep their keys and order.
  A rate per period (monthly inflation, in percent) is not a level: its ``acumulada`` compounds the
  year's rates up to the record, its ``interanual`` the rates of the last twelve months, its
  ``absoluta`` is in percentage points (``compounded``).
"""

from __future__ import annotations

import bisect
import datetime as dt
from typing import Callable, Optional

# Aggregates (series.py) and changes are rounded to this many decimals: a mean, a sum or a ratio of binary
# floats carries noise in the last digits (1429.2049999999997, 81.90000000000002) that no published value
# has (upstream writes at most 8 decimals); a value already exact is left as it is (an int stays an int).
DECIMALS = 10


def is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def rounded(value):
    return round(value, DECIMALS) if type(value) is float else value


ABSOLUTE, RELATIVE, YEAR_ON_YEAR, YEAR_TO_DATE = "absoluta", "relativa", "interanual", "acumulada"


def _day(record: dict) -> str:
    return record["fecha"][:10]


def _a_year_before(day: str) -> str:
    d = dt.date.fromisoformat(day)
    try:
        return d.replace(year=d.year - 1).isoformat()
    except ValueError:  # 29 February
        return d.replace(year=d.year - 1, day=28).isoformat()


def _change(mode: str, now, ref) -> Optional[float]:
    if now is None or ref is None:
        return None
    if mode == ABSOLUTE:
        value = now - ref
    elif ref == 0:
        return None
    else:
        value = now / ref - 1
    return rounded(value)


def compounded(rates: list) -> float:
    """Rates per period in percent compounded over the periods, in percent: ∏(1 + x/100) − 1."""
    product = 1.0
    for x in rates:
        product *= 1 + x / 100
    return (product - 1) * 100


def _compound_since(records: list[dict], positions: list[int], days: list[str], n: int, key: str, after: str):
    """The rates of ``key`` from the first record dated after ``after`` up to record ``n``, compounded."""
    start = bisect.bisect_right(days, after)
    values = [records[positions[k]].get(key) for k in range(start, n + 1)]
    if not values or any(not isinstance(v, (int, float)) or isinstance(v, bool) for v in values):
        return None
    return rounded(compounded(values))


def changes(
    records: list[dict],
    mode: str,
    series_of: Callable[[dict, set], tuple],
    measures: set[str],
    rates: set[str] | frozenset[str] = frozenset(),
) -> list[dict]:
    """``records`` (each with a calendar ``fecha``) with their measures turned into changes (``mode``);
    ``rates``: the measures that are rates per period, compounded (``acumulada``, ``interanual``)."""
    by_series: dict[tuple, list[int]] = {}
    for i in sorted(range(len(records)), key=lambda i: _day(records[i])):  # stable: a day's order stays
        by_series.setdefault(series_of(records[i], measures), []).append(i)
    out = [dict(r) for r in records]
    for positions in by_series.values():
        days = [_day(records[i]) for i in positions]
        for n, i in enumerate(positions):
            if mode in (ABSOLUTE, RELATIVE):
                ref = positions[n - 1] if n else None
            else:
                limit = _a_year_before(days[n]) if mode == YEAR_ON_YEAR else f"{int(days[n][:4]) - 1}-12-31"
                k = bisect.bisect_right(days, limit) - 1
                found = k >= 0 and (mode == YEAR_ON_YEAR or days[k][:4] == limit[:4])
                ref = positions[k] if found else None
            for key in measures:
                if key not in out[i]:
                    continue
                if key in rates and mode in (YEAR_TO_DATE, YEAR_ON_YEAR):
                    # From January of its year, or over the twelve months up to it (none if they are not all there).
                    after = f"{int(days[n][:4]) - 1}-12-31" if mode == YEAR_TO_DATE else _a_year_before(days[n])
                    whole = mode == YEAR_TO_DATE or (n > 0 and days[0] <= after)
                    out[i][key] = _compound_since(records, positions, days, n, key, after) if whole else None
                else:
                    out[i][key] = _change(mode, records[i][key], records[ref].get(key) if ref is not None else None)
    return out
