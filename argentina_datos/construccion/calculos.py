"""How the builder computes what the catalogue declares but no file holds: the rows of each derived
table (esquema.DerivedTable, by its table) and the value of each linked column (esquema.Link, by its
table and column).  Here, not in the catalogue: they read built tables, by their storage names."""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Callable, Iterable, Optional, Sequence, Union

from argentina_datos.almacen import habiles
from argentina_datos.catalogo.indices import CURRENCIES, IPC_BASE
from argentina_datos.construccion.senado_nombres import roll_from_database

# A fund's currency: listings interleave aggregate rows (no fecha) heading the funds below them, from
# «Region: ...» down to «Moneda: Peso Argentina»; a fund's is the «Moneda:» row right above it, the one that
# heads it most often over all listings (where a fund has a card, fci_fondos.moneda, they agree; the cards
# cover a few funds only).  Each aggregate row opens a stretch of the listing that ends at the next one: the
# funds of a «Moneda:» stretch are a range of the primary key (0.8 s; a window over every row took 1.7 s).
_MONEDAS = "CASE {m} WHEN 'Peso Argentina' THEN 'ARS' WHEN 'Dolar Estadounidense' THEN 'USD' "
_MONEDAS += "WHEN 'Dolar Estadounidense Billete' THEN 'USB' ELSE {m} END"
_FCI_MONEDA_TABLE = "CREATE TEMP TABLE _fci_moneda (fondo_id INTEGER PRIMARY KEY, moneda TEXT)"
_FCI_MONEDA = (
    """
INSERT INTO _fci_moneda
WITH tramos AS (
  SELECT categoria_id, listado_id, orden, fondo_id,
         lead(orden, 1, 1000000000) OVER (PARTITION BY categoria_id, listado_id ORDER BY orden) AS hasta
  FROM fci_valores WHERE fecha IS NULL
), contado AS (
  SELECT v.fondo_id, substr(f.fondo, 9) AS moneda, count(*) AS n
  FROM tramos t JOIN fci_valores_fondo f ON f.id = t.fondo_id AND f.fondo LIKE 'Moneda: %'
  JOIN fci_valores v
    ON v.categoria_id = t.categoria_id AND v.listado_id = t.listado_id AND v.orden > t.orden AND v.orden < t.hasta
  GROUP BY v.fondo_id, f.fondo
)
SELECT fondo_id, """
    + _MONEDAS.format(m="moneda")
    + """ AS moneda FROM contado c
WHERE n = (SELECT max(n) FROM contado c2 WHERE c2.fondo_id = c.fondo_id)
GROUP BY fondo_id
"""
)

_FCI_SERIE_PICK = """
INSERT INTO fci_serie (fecha, fondo_id, categoria_id, vcp, ccp, patrimonio, moneda)
SELECT v.fecha, v.fondo_id, v.categoria_id, v.vcp, v.ccp, v.patrimonio, m.moneda
FROM fci_valores v JOIN fci_valores_listado l ON l.id = v.listado_id LEFT JOIN _fci_moneda m ON m.fondo_id = v.fondo_id
WHERE v.fondo_id IS NOT NULL AND v.fecha IS NOT NULL AND {which}
ORDER BY {order}
ON CONFLICT DO NOTHING
"""


def ipc_rows(db: sqlite3.Connection) -> list[tuple]:
    """The CPI chained from the monthly inflation: each month the previous one times (1 + inflation/100),
    rescaled so that IPC_BASE is 100 (the month before the first, if the series does not reach it).  A month's
    aPesosDeHoy also divides by the currency changes after its last day (its fecha)."""
    months = db.execute(
        "SELECT fecha, valor FROM inflacion WHERE valor IS NOT NULL AND fecha IS NOT NULL ORDER BY fecha"
    ).fetchall()
    levels, level = [], 1.0
    for _, valor in months:
        level *= 1 + valor / 100
        levels.append(level)
    base = next((lv for (f, _), lv in zip(months, levels) if f[:7] == IPC_BASE), 1.0)
    last = levels[-1] if levels else 1.0
    rows = []
    for (f, valor), lv in zip(months, levels):
        currency, later = currency_on(f)
        rows.append((f, f[:7], 100 * lv / base, valor, last / lv / later, currency))
    return rows


def currency_on(day: str) -> tuple[str, int]:
    """The currency in force on ``day`` (AAAA-MM-DD) and how many of its units make one of today's."""
    name, later = CURRENCIES[0][0], 1
    for currency, start, units in CURRENCIES[1:]:
        if day >= start:
            name = currency
        else:
            later *= units
    return name, later


# The rows of one listing dated its own day, by fund, the lowest category first (then the first in the listing):
# the listing is found by the key (each category's), the few hundred rows are sorted in memory.
_FCI_SERIE_OWN_DAY = """
INSERT INTO fci_serie (fecha, fondo_id, categoria_id, vcp, ccp, patrimonio, moneda)
SELECT v.fecha, v.fondo_id, v.categoria_id, v.vcp, v.ccp, v.patrimonio, m.moneda
FROM fci_valores v LEFT JOIN _fci_moneda m ON m.fondo_id = v.fondo_id
WHERE v.categoria_id IN (SELECT id FROM fci_valores_categoria) AND v.listado_id = ? AND v.fecha = ?
  AND v.fondo_id IS NOT NULL
ORDER BY v.fondo_id, v.categoria_id, v.orden
ON CONFLICT DO NOTHING
"""


def fci_serie(db: sqlite3.Connection) -> None:
    """Fills fci_serie (the rule is catalogo/fci.py's _SERIE_RULE)."""
    db.execute(_FCI_MONEDA_TABLE)
    db.execute(_FCI_MONEDA)
    # The day's own listing first, a listing at a time in the order of their days: the rows come in key order
    # (the table's fastest path) without sorting them all at once (1.2 s; one sort of all of them took 1.6 s).
    for listado_id, listado in db.execute("SELECT id, listado FROM fci_valores_listado ORDER BY listado").fetchall():
        db.execute(_FCI_SERIE_OWN_DAY, (listado_id, listado))
    # Then what only other listings have: dated ones from the most recent, then ultimo, penultimo.
    db.execute(
        _FCI_SERIE_PICK.format(
            which="l.listado <> v.fecha", order="l.listado GLOB '[0-9]*' DESC, l.listado DESC, v.categoria_id"
        )
    )
    db.execute("DROP TABLE _fci_moneda")


# A derived table -> SQL statements that fill it, or a function that fills it (returning None) or gives its rows.
Fill = Union[Sequence[str], Callable[[sqlite3.Connection], Optional[Iterable[tuple]]]]
FILLS: dict[str, Fill] = {"fci_serie": fci_serie, "ipc": ipc_rows}


def _senators_of_the_votes(conn: sqlite3.Connection) -> list[tuple[int, Optional[str]]]:
    """Each vote's senator: the one the senators' list leaves for the voter's name, among namesakes the
    one whose mandate is nearest the day of the vote."""
    padron = roll_from_database(conn)
    if padron is None:
        return []
    votos = conn.execute(
        "SELECT v.fila, v.nombre, a.fecha FROM senado_actas_votos v JOIN senado_actas a ON a.fila = v.senado_actas_id"
    )
    cache: dict = {}
    out = []
    for row, nombre, fecha in votos:
        dia = fecha[:10] if isinstance(fecha, str) and fecha else None
        if (nombre, dia) not in cache:
            cache[nombre, dia] = padron.identify(nombre, dia)
        out.append((row, cache[nombre, dia]))
    return out


def _senators_of_the_pay_document(conn: sqlite3.Connection) -> list[tuple[int, Optional[str]]]:
    """The document lists the senators in office, by name only (ABAD, MAXIMILIANO): among namesakes, the
    one in office."""
    padron = roll_from_database(conn)
    if padron is None:
        return []
    return [
        (row, padron.identify(nombre))
        for row, nombre in conn.execute("SELECT rowid, nombre FROM senado_dietas_mecanismos")
    ]


def carried_forward(table: str, by: str) -> Callable[[sqlite3.Connection], Iterable[tuple[int, Union[str, int, None]]]]:
    """(rowid, 1 or 0) for each row of a quote series (one per value of ``by``): 1 on a day that is not a
    business day (a weekend, or a holiday in a year the holiday tables cover) whose compra and venta repeat the
    previous row's of its series."""

    def resolve(conn: sqlite3.Connection) -> Iterable[tuple[int, Union[str, int, None]]]:
        holidays, years = habiles.holidays(conn)
        out: list[tuple[int, Union[str, int, None]]] = []
        previous: tuple = (None, None, None)
        rows = conn.execute(f"SELECT rowid, {by}, fecha, compra, venta FROM {table} ORDER BY {by}, fecha, rowid")
        for row, serie, fecha, compra, venta in rows:
            day = _date(fecha)
            idle = day is not None and (day.weekday() >= 5 or (fecha[:4] in years and fecha in holidays))
            out.append((row, int(idle and previous == (serie, compra, venta))))
            previous = (serie, compra, venta)
        return out

    return resolve


def business_day(table: str) -> Callable[[sqlite3.Connection], Iterable[tuple[int, Union[str, int, None]]]]:
    """(rowid, 1 or 0) for each row of a quote table: 1 on a weekday that is not a holiday of the holiday tables,
    null where ``fecha`` is not a calendar date."""

    def resolve(conn: sqlite3.Connection) -> Iterable[tuple[int, Union[str, int, None]]]:
        holidays, _ = habiles.holidays(conn)
        out: list[tuple[int, Union[str, int, None]]] = []
        for row, fecha in conn.execute(f"SELECT rowid, fecha FROM {table}"):
            day = _date(fecha)
            out.append((row, None if day is None else int(habiles.business_day(day, holidays))))
        return out

    return resolve


def _date(value) -> Optional[dt.date]:
    try:
        return dt.date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
    except ValueError:
        return None


# (table, column) of a Link -> (row, value) pairs: the row being the table's ``fila`` (ROW_ID) or its rowid.
RESOLVERS: dict[tuple[str, str], Callable[[sqlite3.Connection], Iterable[tuple[int, Union[str, int, None]]]]] = {
    ("senado_actas_votos", "senadorId"): _senators_of_the_votes,
    ("senado_dietas_mecanismos", "senadorId"): _senators_of_the_pay_document,
    ("cotizaciones_dolares", "arrastrado"): carried_forward("cotizaciones_dolares", "casa"),
    ("cotizaciones", "arrastrado"): carried_forward("cotizaciones", "moneda"),
    ("cotizaciones_dolares", "habil"): business_day("cotizaciones_dolares"),
    ("cotizaciones", "habil"): business_day("cotizaciones"),
}
