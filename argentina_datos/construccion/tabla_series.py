"""The catalogue of series as a table (``series``, searchable), and the late ones as ``calidad`` findings.

An incremental build computes again only the series of the datasets (and derived tables) it wrote again; the
others' rows are the previous build's, with what depends on the build rather than on their table computed again
(``atrasada``, from the day; ``ultimaActualizacion``, from the versions store).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Any, Collection, Optional, Sequence

import orjson
import sqlite_utils

from argentina_datos.almacen import calidad
from argentina_datos.almacen.propias import SERIES, Finding, SeriesEntry
from argentina_datos.catalogo.series import SPECS
from argentina_datos.respuestas.catalogo_series import entries, last_publications, late

# What a search looks in, in this order: bm25 weighs each column (catalogo_series.SEARCH_WEIGHTS).
FTS_COLUMNS = ["id", "titulo", "entidad", "atributos", "unidad", "tema", "descripcion"]


# Each measure's dataset (or derived table), by its table and column; the datasets in catalogue order.
_DATASET_OF = {(s.table, s.field.name): s.dataset.table for s in SPECS}
_ORDER = list(dict.fromkeys(s.dataset.table for s in SPECS))


def write(
    db: sqlite3.Connection,
    today: dt.date,
    tokenize: str,
    previous: Optional[Sequence[dict[str, Any]]] = None,
    changed: Collection[str] = (),
) -> list[Finding]:
    """Writes the ``series`` table (with full-text search on ``FTS_COLUMNS``); returns a «serie atrasada»
    finding for each series whose last observation is older than its cadence allows on ``today``.  ``previous``:
    the previous build's rows (column -> value), kept for every dataset but those ``changed`` (an incremental build's)."""
    rows = entries(db, today) if previous is None else _merged(db, today, previous, set(changed))
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


def _merged(
    db: sqlite3.Connection, today: dt.date, previous: Sequence[dict[str, Any]], changed: set[str]
) -> list[SeriesEntry]:
    """The catalogue from the series of the ``changed`` datasets, computed, and the previous build's of the others,
    in catalogue order."""
    by_dataset: dict[str, list[SeriesEntry]] = {}
    published = last_publications(db)
    for row in previous:
        dataset = _DATASET_OF[row["tabla"], row["columna"]]
        if dataset not in changed:
            row.update(
                atrasada=late(row["hasta"], row["cadencia"], today), ultimaActualizacion=published.get(row["ruta"])
            )
            by_dataset.setdefault(dataset, []).append(SeriesEntry(**row))
    for e in entries(db, today, changed):
        by_dataset.setdefault(_DATASET_OF[e.tabla, e.columna], []).append(e)
    return [e for dataset in _ORDER for e in by_dataset.get(dataset, [])]
