"""``ajustar``: amounts of pesos in another unit, record by record, before any grouping.

- ``ipc``: pesos of the ``base`` month (``Deflator``: amounts times IPC(base) / IPC(month of the record's fecha), the
  CPI chained from monthly inflation, the ``ipc`` table; after its last month, the last; before its first, null);
- ``uva``: in UVA, at that day's UVA (the ``uva`` table);
- ``dolar-<casa>``: in dollars, at that day's ``venta`` of the casa (the ``cotizaciones_dolares`` table); a casa's
  common name is that casa (``dolar-mep``: the bolsa's; catalogo/sinonimos.py).

A day without its own quote or UVA takes the last one before it (the source carries them over weekends).
No amount dated before the peso's last change of unit (1992-01-01) is converted: that would multiply
australes by a factor of pesos (catalogo/series.py, CURRENCY_CHANGE).
"""

from __future__ import annotations

import bisect
import sqlite3
from typing import Callable, Optional

from argentina_datos.almacen.tablas import table_exists
from argentina_datos.catalogo.series import CURRENCY_CHANGE, LAST_CURRENCY_CHANGE
from argentina_datos.catalogo.sinonimos import CASAS_BY_NAME
from argentina_datos.respuestas.respuesta import BadQuery
from argentina_datos.respuestas.variaciones import is_number, rounded

DOLLAR = "dolar-"


class PerDay:
    """Amounts divided by the value of a daily series on their day (or the last day before it that has one)."""

    def __init__(self, values: dict[str, float]):
        self.days = sorted(values)
        self.values = values

    def divide(self, records: list, pesos: set[str]) -> list:
        def on(day: str) -> Callable[[float], Optional[float]]:
            k = bisect.bisect_right(self.days, day[:10]) - 1
            by = self.values[self.days[k]] if k >= 0 else None
            return lambda amount: rounded(amount / by) if by else None

        return converted(records, pesos, on)


def _daily(conn: sqlite3.Connection, table: str, column: str, **where: str) -> dict[str, float]:
    """A table's positive ``column`` by day (fecha's first ten characters), its other columns equal to ``where``."""
    if not table_exists(conn, table):
        return {}
    equal = "".join(f' AND "{name}" = ?' for name in where)
    sql = (
        f'SELECT substr(fecha, 1, 10), "{column}" FROM "{table}" WHERE typeof(fecha) = \'text\' '
        f"AND typeof(\"{column}\") IN ('real', 'integer') AND \"{column}\" > 0{equal} ORDER BY fecha"
    )
    return dict(conn.execute(sql, list(where.values())).fetchall())


def check_currency(records: list, pesos: set[str], how: str, span: tuple[str, str]) -> None:
    """400 if an amount to convert (``ajustar=how``) dated within ``span`` is before the peso's last change of unit."""
    desde, hasta = span
    for r in records:
        if not isinstance(r, dict) or not isinstance(r.get("fecha"), str):
            continue
        day = r["fecha"][:10]
        if day < LAST_CURRENCY_CHANGE and desde <= day <= hasta and any(is_number(r.get(k)) for k in pesos):
            raise BadQuery(
                "ajustar",
                f"«ajustar={how}» no convierte montos anteriores al {LAST_CURRENCY_CHANGE} (hay uno del "
                f"{day}): {CURRENCY_CHANGE}. Pida «desde={LAST_CURRENCY_CHANGE}» o posterior",
            )


def converter(
    conn: sqlite3.Connection, how: str, base: Optional[str], span: tuple[str, str], cpi: dict[str, float]
) -> Callable[[list, set[str]], list]:
    """The function that converts the amounts of pesos (``pesos``: their keys) of records as ``ajustar=how`` asks
    (``base``: its month, for ipc), none dated within ``span`` before 1992; ``cpi``: the CPI's levels by month."""
    convert: Callable[[list, set[str]], list]
    if how == "ipc":
        if not cpi:
            raise BadQuery("ajustar", "la base no tiene el IPC (la tabla ipc) para ajustar por inflación")
        if base is not None and base not in cpi:
            raise BadQuery("base", f"«base» = {base} no es un mes del IPC (de {min(cpi)} a {max(cpi)})")
        if base is not None and base < LAST_CURRENCY_CHANGE[:7]:
            raise BadQuery("base", f"«base» = {base}: {CURRENCY_CHANGE}; elija un mes desde {LAST_CURRENCY_CHANGE[:7]}")
        convert = Deflator(cpi, base).adjust
    elif how == "uva":
        values = _daily(conn, "uva", "valor")
        if not values:
            raise BadQuery("ajustar", "la base no tiene la serie UVA (la tabla uva) para expresar montos en UVA")
        convert = PerDay(values).divide
    else:
        casa = how.removeprefix(DOLLAR)
        casa = CASAS_BY_NAME.get(casa, casa)  # dolar-mep: the bolsa's
        values = _daily(conn, "cotizaciones_dolares", "venta", casa=casa)
        if not values:
            known = sorted(_casas(conn))
            raise BadQuery(
                "ajustar", f"«ajustar={how}»: no hay cotizaciones de la casa «{casa}»; hay: {', '.join(known)}"
            )
        convert = PerDay(values).divide

    def run(records: list, pesos: set[str]) -> list:
        check_currency(records, pesos, how, span)
        return convert(records, pesos)

    return run


def _casas(conn: sqlite3.Connection) -> set[str]:
    if not table_exists(conn, "cotizaciones_dolares"):
        return set()
    return {
        DOLLAR + str(c)
        for (c,) in conn.execute("SELECT DISTINCT casa FROM cotizaciones_dolares WHERE casa IS NOT NULL")
    }


class Deflator:
    """Pesos of a month into pesos of ``base``, from the CPI's levels by month (AAAA-MM -> level)."""

    def __init__(self, levels: dict[str, float], base: Optional[str] = None):
        self.months = sorted(levels)
        self.levels = levels
        self.base = base or self.months[-1]

    def factor(self, day: str) -> Optional[float]:
        month = day[:7]
        if month < self.months[0]:
            return None
        level = self.levels.get(min(month, self.months[-1]))
        if level is None:  # a month missing inside the series: the one before it
            level = self.levels[self.months[bisect.bisect_right(self.months, month) - 1]]
        return self.levels[self.base] / level

    def adjust(self, records: list, pesos: set[str]) -> list:
        def on(day: str) -> Callable[[float], Optional[float]]:
            factor = self.factor(day)
            return lambda value: None if factor is None else rounded(value * factor)

        return converted(records, pesos, on)


def converted(records: list, pesos: set[str], on: Callable[[str], Callable[[float], Optional[float]]]) -> list:
    """``records`` with each number of their fields ``pesos`` converted by what ``on(fecha)`` gives for the
    record's day (ajustar=ipc, uva, dolar-<casa>); a record without fecha is left as it is."""
    out = []
    for r in records:
        if not isinstance(r, dict) or not isinstance(r.get("fecha"), str):
            out.append(r)
            continue
        convert = on(r["fecha"])
        new = dict(r)
        for key in pesos:
            value = r.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                new[key] = convert(value)
        out.append(new)
    return out
