"""What /v1 does beyond static files: date ranges, periods and CSV, from the same answer.

The static upstream cannot filter, so a client that wants one month downloads a whole series.
Here every list answer can be cut (``desde``/``hasta``), grouped by period (``agrupar`` with
``funcion``) and written as CSV (``formato=csv``), computed from the exact answer the route
gives without parameters.  Without these parameters nothing changes, byte for byte.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional
from urllib.parse import parse_qsl

import orjson

PERIODS = ("semana", "mes", "trimestre", "anio")
FUNCTIONS = ("promedio", "ultimo", "primero", "minimo", "maximo", "suma")
FORMATS = ("json", "csv")
NAMES = ("desde", "hasta", "agrupar", "funcion", "formato", "fecha")
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class BadQuery(ValueError):
    def __init__(self, param: str, message: str):
        super().__init__(message)
        self.param = param


@dataclass(frozen=True)
class Query:
    desde: Optional[str] = None
    hasta: Optional[str] = None
    agrupar: Optional[str] = None
    funcion: Optional[str] = None
    formato: str = "json"
    # The version in force on that day, on the routes of "latest only" datasets.  Elsewhere it is
    # ignored like any unknown parameter (clients repeat path values there), so it is checked only
    # where it applies (``checked_fecha``).
    fecha: Optional[str] = None

    def checked_fecha(self) -> str:
        _check_date("fecha", self.fecha or "")
        return self.fecha or ""

    @property
    def empty(self) -> bool:
        return self == Query()

    @property
    def filters(self) -> bool:
        return bool(self.desde or self.hasta or self.agrupar)

    def key(self) -> str:
        """Part of the cache key: only the parameters that change the answer, in one order."""
        if self.empty:
            return ""
        values = [(n, getattr(self, n)) for n in NAMES]
        # An empty value is a value (desde= is a 400), not the plain answer: it keeps its own key.
        return "?" + "&".join(f"{n}={v}" for n, v in values if v is not None and not (n == "formato" and v == "json"))


def parse(query_string: bytes | str) -> Query:
    """The known parameters of a query string; unknown ones are ignored (as upstream ignores them:
    clients repeat path parameters there).  A bad value raises BadQuery naming the parameter."""
    if isinstance(query_string, bytes):
        query_string = query_string.decode("latin-1")
    values: dict[str, str] = {}
    for name, value in parse_qsl(query_string, keep_blank_values=True):
        if name in NAMES:
            values[name] = value  # the last one wins, as in most servers
    for name in ("desde", "hasta"):
        if name in values:
            _check_date(name, values[name])
    if "desde" in values and "hasta" in values and values["desde"] > values["hasta"]:
        raise BadQuery(
            "desde",
            f"«desde» ({values['desde']}) es posterior a «hasta» ({values['hasta']}): no hay fechas entre ambas",
        )
    _check_choice(values, "agrupar", PERIODS)
    _check_choice(values, "funcion", FUNCTIONS)
    _check_choice(values, "formato", FORMATS)
    if "funcion" in values and "agrupar" not in values:
        raise BadQuery("funcion", "«funcion» va con «agrupar» (semana, mes, trimestre o anio)")
    return Query(
        values.get("desde"),
        values.get("hasta"),
        values.get("agrupar"),
        values.get("funcion") or ("promedio" if "agrupar" in values else None),
        values.get("formato") or "json",
        values.get("fecha"),
    )


def _check_date(name: str, text: str) -> None:
    if not _ISO_DATE.fullmatch(text):
        raise BadQuery(name, f"«{name}» debe ser una fecha AAAA-MM-DD, no «{text[:40]}»")
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        raise BadQuery(name, f"«{name}» = {text} no es una fecha del calendario") from None


def _check_choice(values: dict, name: str, choices) -> None:
    if name in values and values[name] not in choices:
        raise BadQuery(name, f"«{name}» debe ser uno de: {', '.join(choices)}; no «{values[name][:40]}»")


# ---- applying a query to an answer ------------------------------------------------
def apply(data: Any, query: Query) -> Any:
    """The answer cut to [desde, hasta] and grouped by period, as ``query`` asks."""
    if not query.filters:
        return data
    param = "desde" if query.desde else "hasta" if query.hasta else "agrupar"
    if not isinstance(data, list):
        raise BadQuery(param, f"«{param}» es para rutas que devuelven una lista de registros con fecha")
    if data and not any(isinstance(r, dict) and "fecha" in r for r in data):
        raise BadQuery(param, f"«{param}»: los registros de esta ruta no tienen fecha")
    desde, hasta = query.desde or "", query.hasta or "\uffff"
    records = [r for r in data if isinstance(r, dict) and desde <= (_day(r) or "") <= hasta and _day(r)]
    if query.agrupar:
        records = group(records, query.agrupar, query.funcion or "promedio")
    return records


def _day(record: dict) -> Optional[str]:
    value = record.get("fecha")
    return value[:10] if isinstance(value, str) and _ISO_DATE.match(value) else None


def period_start(day: str, period: str) -> str:
    d = dt.date.fromisoformat(day)
    if period == "semana":
        d -= dt.timedelta(days=d.weekday())  # weeks start on Monday
    elif period == "mes":
        d = d.replace(day=1)
    elif period == "trimestre":
        d = d.replace(month=(d.month - 1) // 3 * 3 + 1, day=1)
    else:
        d = d.replace(month=1, day=1)
    return d.isoformat()


def _is_identifier(key: str) -> bool:
    """An id is a number that names a record (actaId): it tells series apart, it is never averaged."""
    return key == "id" or key.endswith(("Id", "_id"))


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def group(records: list[dict], period: str, function: str) -> list[dict]:
    """One record per period and series.  A series is told by the record's fields that are not
    numbers (casa, moneda, ...) and by its ids (actaId), fecha aside; the other numeric fields are
    aggregated over the period's records, ignoring nulls (a period where a field is always null
    gives null)."""
    numeric = {k for r in records for k, v in r.items() if k != "fecha" and _is_number(v) and not _is_identifier(k)}
    numeric -= {k for r in records for k, v in r.items() if k in numeric and v is not None and not _is_number(v)}
    groups: dict[tuple, list[dict]] = {}
    for r in sorted(records, key=lambda r: _day(r) or ""):  # stable: same-day records keep the list's order
        series = tuple((k, orjson.dumps(v)) for k, v in r.items() if k != "fecha" and k not in numeric)
        groups.setdefault((period_start(_day(r) or "", period), series), []).append(r)
    aggregate = AGGREGATES[function]
    out = []
    for (start, _), members in groups.items():
        first = members[0]
        record = {}
        for key in dict.fromkeys(k for m in members for k in m):
            if key == "fecha":
                record[key] = start
            elif key in numeric:
                values = [m[key] for m in members if _is_number(m.get(key))]
                record[key] = rounded(aggregate(values)) if values else None
            else:
                record[key] = first.get(key)
        out.append(record)
    out.sort(key=lambda r: r["fecha"])  # stable: series keep their order of first appearance
    return out


# Aggregates are rounded to this many decimals: a mean or a sum of binary floats carries noise in the
# last digits (1429.2049999999997, 81.90000000000002) that no published value has (upstream writes at
# most 8 decimals), and a value already exact is left as it is (an integer stays an integer).
DECIMALS = 10


def rounded(value):
    return round(value, DECIMALS) if type(value) is float else value


def _mean(values: list) -> float:
    return sum(values) / len(values)


AGGREGATES: dict[str, Callable[[list], Any]] = {
    "promedio": _mean,
    "primero": lambda v: v[0],
    "ultimo": lambda v: v[-1],
    "minimo": min,
    "maximo": max,
    "suma": sum,
}
