"""How fresh a database's data is: per dataset, its newest observation against what its cadence allows.

Read from the ``series`` table the build writes (each series' last date and cadence), so it is the records'
dates, not files' times; the reference day is ``catalogo_series.today()`` ($ARGENTINA_DATOS_HOY, else
today).  The build prints it and keeps it in ARCHIVO.resumen.json, ``/-/salud.json`` answers it, and
``build-db --fallar-si-atrasada`` (scripts/update.sh) fails on it.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import asdict, dataclass
from typing import Optional

from argentina_datos.almacen.propias import SERIES
from argentina_datos.almacen.tablas import table_exists
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.series import ESSENTIAL


@dataclass(frozen=True)
class DatasetFreshness:
    """One dataset with series: its newest observation and whether that is late on ``hoy``."""

    conjunto: str  # its table
    titulo: str
    hasta: Optional[str]  # its newest observation over all its series (AAAA-MM-DD)
    cadenciaDias: int  # days after an observation its next one is still on time (its fastest series')
    diasSinDatos: Optional[int]
    atrasado: bool
    principal: bool  # one of the data a deployment exists for (catalogo/series.py, ESSENTIAL)


def by_dataset(conn: sqlite3.Connection, on: dt.date) -> list[DatasetFreshness]:
    """Each dataset of the ``series`` table, in its order; [] when the database has none (an older build)."""
    if not table_exists(conn, SERIES.name):
        return []
    rows = conn.execute(
        # A series without a cadence is never late (a fund that closed, a bank that no longer offers it).
        f"SELECT tabla, max(hasta), min(cadencia) FROM {SERIES.name} WHERE cadencia IS NOT NULL "
        "GROUP BY tabla ORDER BY min(rowid)"
    ).fetchall()
    out = []
    for table, hasta, cadence in rows:
        days = (on - dt.date.fromisoformat(hasta[:10])).days if hasta else None
        dataset = BY_TABLE.get(table)
        out.append(
            DatasetFreshness(
                conjunto=table,
                titulo=dataset.title if dataset else table,
                hasta=hasta,
                cadenciaDias=cadence,
                diasSinDatos=days,
                atrasado=days is None or days > cadence,
                principal=table in ESSENTIAL,
            )
        )
    return out


def late_essentials(datasets: list[DatasetFreshness]) -> list[DatasetFreshness]:
    return [d for d in datasets if d.principal and d.atrasado]


def report(datasets: list[DatasetFreshness], on: dt.date) -> dict:
    """What ARCHIVO.resumen.json and /-/salud.json say: the reference day, whether the main data is late,
    and each dataset."""
    return {
        "hoy": on.isoformat(),
        "atrasada": bool(late_essentials(datasets)),
        "conjuntos": [asdict(d) for d in datasets],
    }


def describe(d: DatasetFreshness) -> str:
    if d.hasta is None:
        return f"{d.conjunto}: sin observaciones"
    state = "ATRASADO" if d.atrasado else "al día"
    return (
        f"{d.conjunto}: último dato del {d.hasta[:10]}, hace {d.diasSinDatos:,} días ({state}; "
        f"se espera uno cada {d.cadenciaDias} días como máximo)"
    )


def lines(datasets: list[DatasetFreshness], on: dt.date) -> list[str]:
    """The build's closing lines: each main dataset, then the other late ones in one line."""
    if not datasets:
        return []
    out = [f"Frescura de los datos al {on.isoformat()}:"]
    out += ["  " + describe(d) for d in datasets if d.principal]
    others = [d for d in datasets if not d.principal and d.atrasado]
    if others:
        out.append(
            f"  otros {len(others)} conjuntos atrasados: "
            + ", ".join(f"{d.conjunto} ({d.hasta[:10] if d.hasta else 'sin datos'})" for d in others)
        )
    late = late_essentials(datasets)
    if late:
        out.append(
            "AVISO: los datos principales están atrasados ("
            + ", ".join(d.conjunto for d in late)
            + "): la fuente no publica datos nuevos; ver docs/produccion.md («Fuente atrasada»)."
        )
    return out
