"""The catalogue of series as a table (``series``, searchable), and the late ones as ``calidad`` findings."""

from __future__ import annotations

import datetime as dt
import sqlite3

import orjson
import sqlite_utils

from argentina_datos.almacen import calidad
from argentina_datos.almacen.propias import SERIES, Finding
from argentina_datos.respuestas.catalogo_series import Spans, entries

# What a search looks in, in this order: bm25 weighs each column (catalogo_series.SEARCH_WEIGHTS).
FTS_COLUMNS = ["id", "titulo", "entidad", "atributos", "unidad", "tema", "descripcion"]


def write(db: sqlite3.Connection, today: dt.date, tokenize: str, known: Spans | None = None) -> list[Finding]:
    """Writes the ``series`` table (with full-text search on ``FTS_COLUMNS``); returns a «serie atrasada»
    finding for each series whose last observation is older than its cadence allows on ``today``.  ``known``:
    the spans of the series of unchanged tables (catalogo_series.entries)."""
    rows = entries(db, today, known)
    lite = sqlite_utils.Database(db)
    SERIES.create(lite)
    SERIES.write(lite, rows)
    lite.table(SERIES.name).enable_fts(FTS_COLUMNS, tokenize=tokenize)
    findings = []
    for e in rows:
        if not e.atrasada:
            continue
        named = orjson.loads(e.filtro)
        days = (today - dt.date.fromisoformat(e.hasta)).days if e.hasta else None
        findings.append(
            Finding(
                tabla=e.tabla,
                control=calidad.LATE,
                campo=e.columna,
                valor=str(days),
                detalle=f"serie {e.id}: su última observación es del {e.hasta}, {days:,} días antes de la construcción "
                f"({today}); se espera una cada {e.cadencia} días como máximo ({e.frecuencia})",
                fecha=e.hasta,
                serie=calidad.series_label(list(named), list(named.values())),
            )
        )
    return findings
