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

from argentina_datos.respuestas import variaciones
from argentina_datos.respuestas.variaciones import rounded

PERIODS = ("semana", "mes", "trimestre", "anio")
FUNCTIONS = ("promedio", "ultimo", "primero", "minimo", "maximo", "suma")
FORMATS = ("json", "csv", "ics")
CHANGES = ("absoluta", "relativa", "interanual", "acumulada")
# ipc: constant pesos; uva: in UVA; dolar-<casa>: in dollars at that day's venta of the casa (respuestas/conversiones.py)
ADJUSTMENTS = ("ipc", "uva", "dolar-<casa>")
_ADJUSTMENT = re.compile(r"ipc|uva|dolar-[a-z]+")
NAMES = ("desde", "hasta", "agrupar", "funcion", "formato", "fecha", "variacion", "ajustar", "base")
_MONTH = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])")
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
    variacion: Optional[str] = None  # the change of each measure, per series (respuestas/variaciones.py)
    ajustar: Optional[str] = None  # amounts of pesos in pesos of the ``base`` month (ipc), in UVA, in dollars
    base: Optional[str] = None  # AAAA-MM, with ajustar (default: the CPI's last month)

    def checked_fecha(self) -> str:
        _check_date("fecha", self.fecha or "")
        return self.fecha or ""

    @property
    def empty(self) -> bool:
        return self == Query()

    @property
    def filters(self) -> bool:
        return bool(self.desde or self.hasta or self.agrupar or self.variacion or self.ajustar)

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
        # Raw UTF-8 (?fecha=mañana, as some clients send it) reads as percent-encoded UTF-8 does.
        query_string = query_string.decode("utf-8", "replace")
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
    _check_choice(values, "variacion", CHANGES)
    if "ajustar" in values and not _ADJUSTMENT.fullmatch(values["ajustar"]):
        raise BadQuery(
            "ajustar",
            f"«ajustar» debe ser ipc, uva o dolar-<casa> (dolar-blue, dolar-oficial...); no «{values['ajustar'][:40]}»",
        )
    if "base" in values:
        if values.get("ajustar") != "ipc":
            raise BadQuery("base", "«base» va con «ajustar=ipc»: el mes en cuyos pesos se expresan los montos")
        if not _MONTH.fullmatch(values["base"]):
            raise BadQuery("base", f"«base» debe ser un mes AAAA-MM, no «{values['base'][:40]}»")
    return Query(
        values.get("desde"),
        values.get("hasta"),
        values.get("agrupar"),
        values.get("funcion") or ("promedio" if "agrupar" in values else None),
        values.get("formato") or "json",
        values.get("fecha"),
        values.get("variacion"),
        values.get("ajustar"),
        values.get("base"),
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
def apply(
    data: Any,
    query: Query,
    adjust: Optional[Callable[[list], list]] = None,
    rates: frozenset[str] = frozenset(),
    route: str = "esta ruta",
) -> Any:
    """The answer cut to [desde, hasta], grouped by period and turned into changes, as ``query`` asks.
    ``adjust`` (with ``ajustar``) turns the records' amounts of pesos into another unit; ``rates``: the
    measures that are rates per period (monthly inflation), which a period compounds; ``route`` names the
    answer in errors."""
    if not query.filters:
        return data
    param = next(n for n in ("desde", "hasta", "agrupar", "variacion", "ajustar") if getattr(query, n))
    if not isinstance(data, list):
        raise BadQuery(param, f"«{param}» es para rutas que devuelven una lista de registros con fecha")
    if data and not any(isinstance(r, dict) and "fecha" in r for r in data):
        raise BadQuery(param, f"«{param}»: los registros de esta ruta no tienen fecha")
    if query.agrupar or query.variacion:
        # Grouping holidays would only replace their dates by month starts: nothing to aggregate or compare.
        dated = [r for r in data if isinstance(r, dict) and _day(r)]
        if dated and not measures_of(dated):
            name = "agrupar" if query.agrupar else "variacion"
            raise BadQuery(
                name,
                f"«{name}» no se aplica a {route}: sus registros no tienen medidas numéricas (montos, tasas) "
                "que agrupar ni comparar",
            )
    desde, hasta = query.desde or "", query.hasta or "\uffff"
    if query.ajustar and adjust is not None:
        data = adjust(data)
    if not query.variacion:  # as before these parameters: the range first, then the periods
        records = [r for r in data if isinstance(r, dict) and desde <= (_day(r) or "") <= hasta and _day(r)]
        if query.agrupar:
            records = group(records, query.agrupar, query.funcion or "promedio", rates)
        return records
    # A change needs the record it is measured against, which may lie before the range: the whole
    # series is grouped and turned into changes, and only then cut to the range.
    records = [r for r in data if isinstance(r, dict) and _day(r)]
    if query.agrupar:
        records = group(records, query.agrupar, query.funcion or "promedio", rates)
    measures = measures_of(records)
    if records and not measures:
        raise BadQuery("variacion", "«variacion»: los registros de esta ruta no tienen medidas numéricas")
    if query.variacion == variaciones.RELATIVE and measures & rates:
        raise BadQuery(
            "variacion",
            f"«variacion=relativa» de una tasa ({', '.join(sorted(measures & rates))}) sería un cociente de tasas: "
            "use absoluta (en puntos porcentuales), acumulada o interanual",
        )
    records = variaciones.changes(records, query.variacion, series_of, measures, rates & measures)
    return [r for r in records if desde <= (_day(r) or "") <= hasta]


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


is_number = _is_number


def measures_of(records: list[dict]) -> set[str]:
    """The fields that are measures: numbers in every record that has them, never ids (actaId)."""
    numeric = {k for r in records for k, v in r.items() if k != "fecha" and _is_number(v) and not _is_identifier(k)}
    return numeric - {k for r in records for k, v in r.items() if k in numeric and v is not None and not _is_number(v)}


def series_of(record: dict, measures: set[str]) -> tuple:
    """Which series a record belongs to: its fields that are not measures (casa, moneda, ids), fecha aside."""
    return tuple((k, orjson.dumps(v)) for k, v in record.items() if k != "fecha" and k not in measures)


def group(records: list[dict], period: str, function: str, rates: frozenset[str] = frozenset()) -> list[dict]:
    """One record per period and series.  A series is told by the record's fields that are not
    numbers (casa, moneda, ...) and by its ids (actaId), fecha aside; the other numeric fields are
    aggregated over the period's records, ignoring nulls (a period where a field is always null
    gives null).  A rate per period (``rates``, in percent) is compounded where ``function`` would
    average it: the year of monthly inflations is ∏(1 + x/100) − 1; adding rates means nothing (400)."""
    numeric = measures_of(records)
    if function == "suma" and numeric & rates:
        raise BadQuery(
            "funcion",
            f"«funcion=suma» de una tasa ({', '.join(sorted(numeric & rates))}) no significa nada: sin «funcion», "
            "agrupar la compone",
        )
    groups: dict[tuple, list[dict]] = {}
    for r in sorted(records, key=lambda r: _day(r) or ""):  # stable: same-day records keep the list's order
        series = series_of(r, numeric)
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
                how = variaciones.compounded if key in rates and function == "promedio" else aggregate
                record[key] = rounded(how(values)) if values else None
            else:
                record[key] = first.get(key)
        out.append(record)
    out.sort(key=lambda r: r["fecha"])  # stable: series keep their order of first appearance
    return out


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
