"""How the builder computes what the catalogue declares but no file holds: the rows of each derived
table (esquema.DerivedTable, by its table) and the value of each linked column (esquema.Link, by its
table and column).  Here, not in the catalogue: they read built tables, by their storage names."""

from __future__ import annotations

import sqlite3
from typing import Callable, Iterable, Optional, Sequence, Union

from argentina_datos.catalogo.indices import IPC_BASE
from argentina_datos.construccion.senado_nombres import roll_from_database

_FCI_SERIE_PICK = """
INSERT INTO fci_serie (fecha, fondo_id, categoria_id, vcp, ccp, patrimonio)
SELECT v.fecha, v.fondo_id, v.categoria_id, v.vcp, v.ccp, v.patrimonio
FROM fci_valores v JOIN fci_valores_listado l ON l.id = v.listado_id
WHERE v.fondo_id IS NOT NULL AND v.fecha IS NOT NULL AND {which}
ORDER BY {order}
ON CONFLICT DO NOTHING
"""


def ipc_rows(db: sqlite3.Connection) -> list[tuple]:
    """The CPI chained from the monthly inflation: each month the previous one times (1 + inflation/100),
    rescaled so that IPC_BASE is 100 (the month before the first, if the series does not reach it)."""
    months = db.execute(
        "SELECT fecha, valor FROM inflacion WHERE valor IS NOT NULL AND fecha IS NOT NULL ORDER BY fecha"
    ).fetchall()
    levels, level = [], 1.0
    for _, valor in months:
        level *= 1 + valor / 100
        levels.append(level)
    base = next((lv for (f, _), lv in zip(months, levels) if f[:7] == IPC_BASE), 1.0)
    last = levels[-1] if levels else 1.0
    return [(f, f[:7], 100 * lv / base, valor, last / lv) for (f, valor), lv in zip(months, levels)]


# A derived table -> SQL statements that fill it, or a function giving its rows.
FILLS: dict[str, Union[Sequence[str], Callable[[sqlite3.Connection], Iterable[tuple]]]] = {
    "fci_serie": (
        # The day's own listing first, inserted in key order (the table's fastest path).
        _FCI_SERIE_PICK.format(which="l.listado = v.fecha", order="v.fecha, v.fondo_id, v.categoria_id"),
        # Then what only other listings have: dated ones from the most recent, then ultimo, penultimo.
        _FCI_SERIE_PICK.format(
            which="l.listado <> v.fecha",
            order="l.listado GLOB '[0-9]*' DESC, l.listado DESC, v.categoria_id",
        ),
    ),
    "ipc": ipc_rows,
}


def _senators_of_the_votes(conn: sqlite3.Connection) -> list[tuple[int, Optional[str]]]:
    """Each vote's senator: the one the senators' list leaves for the voter's name, among namesakes the
    one whose mandate is nearest the day of the vote."""
    padron = roll_from_database(conn)
    if padron is None:
        return []
    votos = conn.execute(
        "SELECT v._id, v.nombre, a.fecha FROM senado_actas_votos v JOIN senado_actas a ON a._id = v.senado_actas_id"
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


# (table, column) of a Link -> (row, value) pairs: the row being the table's ``_id`` or its rowid.
RESOLVERS: dict[tuple[str, str], Callable[[sqlite3.Connection], Iterable[tuple[int, Optional[str]]]]] = {
    ("senado_actas_votos", "senadorId"): _senators_of_the_votes,
    ("senado_dietas_mecanismos", "senadorId"): _senators_of_the_pay_document,
}
