"""``ajustar``: amounts of pesos in another unit, record by record, before any grouping.

- ``ipc``: pesos of the ``base`` month (variaciones.Deflator, the CPI of the ``ipc`` table);
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
from typing import TYPE_CHECKING, Callable, Optional

from argentina_datos.almacen.tablas import table_exists
from argentina_datos.catalogo.series import CURRENCY_CHANGE, LAST_CURRENCY_CHANGE
from argentina_datos.catalogo.sinonimos import CASAS_BY_NAME
from argentina_datos.respuestas.respuesta import BadQuery
from argentina_datos.respuestas.variaciones import Deflator, converted, is_number, rounded

if TYPE_CHECKING:  # the query is consulta's, which calls this module
    from argentina_datos.respuestas.consulta import Query

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


def check_currency(records: list, pesos: set[str], query: Query) -> None:
    """400 if an amount to convert, in the asked range, is dated before the peso's last change of unit."""
    desde, hasta = query.desde or "", query.hasta or "\uffff"
    for r in records:
        if not isinstance(r, dict) or not isinstance(r.get("fecha"), str):
            continue
        day = r["fecha"][:10]
        if day < LAST_CURRENCY_CHANGE and desde <= day <= hasta and any(is_number(r.get(k)) for k in pesos):
            raise BadQuery(
                "ajustar",
                f"«ajustar={query.ajustar}» no convierte montos anteriores al {LAST_CURRENCY_CHANGE} (hay uno del "
                f"{day}): {CURRENCY_CHANGE}. Pida «desde={LAST_CURRENCY_CHANGE}» o posterior",
            )


def converter(conn: sqlite3.Connection, query: Query, cpi: dict[str, float]) -> Callable[[list, set[str], Query], list]:
    """The function that converts the amounts of pesos (``pesos``: their keys) of a list of records, as
    ``query.ajustar`` asks; ``cpi``: the CPI's levels by month (AAAA-MM)."""
    how = query.ajustar or ""
    convert: Callable[[list, set[str]], list]
    if how == "ipc":
        if not cpi:
            raise BadQuery("ajustar", "la base no tiene el IPC (la tabla ipc) para ajustar por inflación")
        if query.base is not None and query.base not in cpi:
            raise BadQuery("base", f"«base» = {query.base} no es un mes del IPC (de {min(cpi)} a {max(cpi)})")
        if query.base is not None and query.base < LAST_CURRENCY_CHANGE[:7]:
            raise BadQuery(
                "base", f"«base» = {query.base}: {CURRENCY_CHANGE}; elija un mes desde {LAST_CURRENCY_CHANGE[:7]}"
            )
        convert = Deflator(cpi, query.base).adjust
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

    def run(records: list, pesos: set[str], asked: Query) -> list:
        check_currency(records, pesos, asked)
        return convert(records, pesos)

    return run


def _casas(conn: sqlite3.Connection) -> set[str]:
    if not table_exists(conn, "cotizaciones_dolares"):
        return set()
    return {
        DOLLAR + str(c)
        for (c,) in conn.execute("SELECT DISTINCT casa FROM cotizaciones_dolares WHERE casa IS NOT NULL")
    }
