"""Data-quality findings: what the builder kept as it came but found odd.

Upstream is a live source that changes daily; a surprise in a record (a new
field, a value of another type, an impossible date, a repeated key) never
stops a build.  It is kept exactly as published and written here, one row per
finding, into the ``calidad`` table, so that researchers can see it and the
catalogue can be corrected.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from typing import Iterable, Optional, Sequence

import orjson

# The checks, declared in controles.py, are also calidad.GAP and so on.
from argentina_datos.almacen.controles import (
    AUDIT_CHECKS as AUDIT_CHECKS,
    BUY_ABOVE_SELL as BUY_ABOVE_SELL,
    CLOSED_MARKET as CLOSED_MARKET,
    CONFLICT as CONFLICT,
    DELAYED as DELAYED,
    DISAGREEMENT as DISAGREEMENT,
    ENCODING as ENCODING,
    EXCURSION as EXCURSION,
    FORBIDDEN_NULL as FORBIDDEN_NULL,
    FROZEN as FROZEN,
    GAP as GAP,
    IMPOSSIBLE_DATE as IMPOSSIBLE_DATE,
    INEXACT as INEXACT,
    JUMP as JUMP,
    LATE as LATE,
    MISSING as MISSING,
    OUT_OF_RANGE as OUT_OF_RANGE,
    PARTITION_MISMATCH as PARTITION_MISMATCH,
    PUBLISHED_FIGURE as PUBLISHED_FIGURE,
    RELATED_SERIES as RELATED_SERIES,
    REPEATED_KEY as REPEATED_KEY,
    REVISED as REVISED,
    SPREAD as SPREAD,
    STALE as STALE,
    STOPPED as STOPPED,
    UNDECLARED as UNDECLARED,
    UNIT_SWITCH as UNIT_SWITCH,
    UNREADABLE as UNREADABLE,
    WRONG_TYPE as WRONG_TYPE,
)
from argentina_datos.almacen.propias import CALIDAD, Finding

TABLE = CALIDAD.name


_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def series_label(columns: Sequence[str], values: Sequence) -> Optional[str]:
    """The ``serie`` of a finding (and of a revision): the fields that tell the series apart, «casa=blue»."""
    return ", ".join(f"{c}={v}" for c, v in zip(columns, values)) or None


def kept_text(kept: Optional[int]) -> str:
    """What a file the source did not give today left in the base: ``kept`` records of the previous build."""
    if kept is None:
        return "no hay una construcción anterior que lo tenga: la ruta no tiene datos"
    return f"se conservan sus {kept:,} registros de la construcción anterior"


def unreadable(table: str, route: str, problem: str, kept: Optional[int]) -> Finding:
    """A file the source did not give today; ``kept``: how many records of it the previous build gave back."""
    return Finding(
        tabla=table, control=UNREADABLE, ruta=route, detalle=f"no se pudo leer ({problem}): {kept_text(kept)}"
    )


def as_json(value) -> str:
    try:
        return orjson.dumps(value).decode()[:200]
    except TypeError:
        return repr(value)[:200]


def summary(findings: Iterable[Finding]) -> list[str]:
    """One line per table, check and field, with a count: what the build prints as warnings.  The
    audit's findings are about days and series, not records: one line per table and check."""
    counts = Counter((f.tabla, f.control, None if f.control in AUDIT_CHECKS else f.campo) for f in findings)
    lines = []
    for (tabla, control, campo), n in counts.items():
        if control in AUDIT_CHECKS:
            lines.append(f"{tabla}: {control}: {n:,} {'hallazgo' if n == 1 else 'hallazgos'}")
            continue
        where = f" «{campo}»" if campo else ""
        lines.append(f"{tabla}: {control}{where} en {n:,} {'registro' if n == 1 else 'registros'}")
    return lines


class DateChecker:
    """Finds text that is not a real calendar date written AAAA-MM-DD.  Remembers the
    values it has seen: a few hundred distinct days recur across thousands of files."""

    def __init__(self):
        self._good: set = set()

    def is_date(self, value) -> bool:
        if value in self._good:
            return True
        if type(value) is not str or not _ISO_DATE.fullmatch(value):
            return False
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            return False
        self._good.add(value)
        return True

    def bad_positions(self, column: list) -> list[int]:
        """Positions of the values in ``column`` that are not dates.  None and "" are "no date"
        (the REM writes one or the other for the same thing), not impossible ones."""
        distinct = set(column)
        distinct.discard(None)
        distinct.discard("")
        bad = {v for v in distinct - self._good if not self.is_date(v)}
        if not bad:
            return []
        return [i for i, v in enumerate(column) if v in bad]
