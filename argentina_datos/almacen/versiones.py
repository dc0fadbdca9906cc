"""A route's file as upstream published it on a given version, rebuilt from its record versions (the
``versiones`` and ``versiones_registros`` tables, written by construccion/historia.py).

The records of version v are those with ``desde <= v`` and no ``hasta`` at or before v, each stored once per
distinct value.  Their order is the one of the last version that wrote it (``versiones.orden``), with the
records that appeared since then after it in the order they appeared; without any, the order they appeared
in: a list that only grows at its end, as most of upstream's do, never writes one.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import orjson

from argentina_datos.almacen.propias import REGISTROS_VERSIONES, VERSIONES
from argentina_datos.almacen.publicados import written
from argentina_datos.almacen.tablas import table_exists

LIST, ENVELOPE, DOCUMENT = "lista", "sobre", "documento"
INDENTED, COMPACT, FINAL_NEWLINE = "sangría", "compacta", ", con salto final"  # versiones.escritura
END_OF_DAY = "T23:59:59Z"


def versioned_routes(conn: sqlite3.Connection) -> frozenset[str]:
    """The /v1 routes (with the leading slash) that have stored versions; none in a database without the table."""
    if not table_exists(conn, VERSIONES.name):
        return frozenset()
    return frozenset(r for (r,) in conn.execute(f"SELECT DISTINCT ruta FROM {VERSIONES.name}"))


def version_on(conn: sqlite3.Connection, route: str, day: str) -> Optional[int]:
    """The last version of ``route`` published up to the end of ``day`` (UTC); None before the first."""
    row = conn.execute(
        f"SELECT id FROM {VERSIONES.name} WHERE ruta = ? AND publicado <= ? ORDER BY publicado DESC, id DESC LIMIT 1",
        [route, day + END_OF_DAY],
    ).fetchone()
    return row[0] if row else None


def items(
    conn: sqlite3.Connection, route: str, version: int, conditions: Sequence[str] = (), args: Sequence = ()
) -> list[tuple[int, str]]:
    """(elemento, registro as JSON text) of every record of ``version`` that meets the SQL ``conditions`` (on its
    column ``registro``, with ``args``), in the file's order."""
    alive = dict(
        conn.execute(
            f"SELECT elemento, registro FROM {REGISTROS_VERSIONES.name} "
            "WHERE ruta = ? AND desde <= ? AND (hasta IS NULL OR hasta > ?)"
            + "".join(f" AND ({c})" for c in conditions),
            [route, version, version, *args],
        ).fetchall()
    )
    row = conn.execute(
        f"SELECT orden FROM {VERSIONES.name} WHERE ruta = ? AND id <= ? AND orden IS NOT NULL ORDER BY id DESC LIMIT 1",
        [route, version],
    ).fetchone()
    ordered = [i for i in orjson.loads(row[0]) if i in alive] if row else []
    placed = set(ordered)
    ordered += sorted(i for i in alive if i not in placed)
    return [(i, alive[i]) for i in ordered]


def writing(body: bytes) -> str:
    """How a file is written (versiones.escritura): indented or compact, and whether it ends with a newline."""
    how = INDENTED if body[1:2] == b"\n" else COMPACT
    return how + FINAL_NEWLINE if body.endswith(b"\n") else how


def published_on(conn: sqlite3.Connection, route: str, day: str) -> Optional[bytes]:
    """The file at ``route`` as upstream had published it by the end of ``day`` (UTC); None before its first version."""
    version = version_on(conn, route, day)
    return None if version is None else document(conn, route, version)


def document(conn: sqlite3.Connection, route: str, version: int) -> bytes:
    """The file of ``version`` as upstream published it: its records and envelope (keys in its order, nulls and
    absent keys kept), written as that file was (``escritura``; a store from before the column: indented)."""
    cursor = conn.execute(f"SELECT * FROM {VERSIONES.name} WHERE id = ?", [version])
    row = dict(zip([d[0] for d in cursor.description], cursor.fetchone()))
    texts = [text for _, text in items(conn, route, version)]
    if row["forma"] == DOCUMENT:
        data = orjson.loads(texts[0]) if texts else None
    else:
        data = orjson.loads("[" + ",".join(texts) + "]")
        if row["forma"] == ENVELOPE:
            envelope = orjson.loads(row["envoltorio"])
            envelope[row["lista"]] = data
            data = envelope
    how = row.get("escritura") or INDENTED
    body = orjson.dumps(data) if how.startswith(COMPACT) else written(data)
    return body + b"\n" if how.endswith(FINAL_NEWLINE) else body


# ---- each observation's values through the versions (end-of-day vintages) ---------------------------------------
# A value is in force on day D when it is the one of the route's last version published up to the end of D (UTC), as
# ``?publicado=D`` answers: a row of versiones_registros is in force from the day of its ``desde`` version until the
# day of its ``hasta`` one (excluded), and a value that was replaced the day it appeared never was.  An observation
# is a record's ``clave`` (its fecha and naming fields); its value is one field of the record (a series' column) or
# the whole record.  Consecutive rows with the same value (another field of the record changed) are one period.
_PERIODS = """
WITH filas AS (
  SELECT r.id, r.clave, substr(json_extract(r.registro, '$.fecha'), 1, 10) AS fecha, {value} AS valor,
         substr(a.publicado, 1, 10) AS desde, substr(b.publicado, 1, 10) AS hasta
  FROM {records} r JOIN {versions} a ON a.id = r.desde LEFT JOIN {versions} b ON b.id = r.hasta
  WHERE r.ruta = ? AND json_type(r.registro, '$.fecha') = 'text'{where}
), marcadas AS (
  SELECT *, lag(hasta) OVER w AS antes, lead(desde) OVER w AS despues,
         CASE WHEN lag(valor) OVER w IS valor AND lag(hasta) OVER w = desde THEN 0 ELSE 1 END AS primera,
         CASE WHEN lead(valor) OVER w IS valor AND lead(desde) OVER w = hasta THEN 0 ELSE 1 END AS ultima
  FROM filas WHERE hasta IS NULL OR hasta > desde WINDOW w AS (PARTITION BY clave ORDER BY id)
), tramos AS (SELECT *, sum(primera) OVER (PARTITION BY clave ORDER BY id) AS tramo FROM marcadas),
vecinos AS (
  SELECT clave, fecha, tramo, tramo = 1 AS orden, valor, min(desde) AS desde,
         max(CASE WHEN ultima THEN hasta END) AS hasta,
         max(CASE WHEN primera THEN antes END) AS antes, max(CASE WHEN ultima THEN despues END) AS despues
  FROM tramos GROUP BY clave, tramo
)
"""


def _periods_sql(value: Optional[str], filtro: dict, dated: bool = False) -> tuple[str, list]:
    """The common table expressions of the periods of ``value`` (a field of the records; None: the whole record) of
    the records whose fields equal ``filtro`` (``dated``: and whose fecha is between two more arguments); and their
    arguments after the route's."""
    where = "".join(f" AND json_extract(r.registro, {json_path(k)}) = ?" for k in filtro)
    where += " AND substr(json_extract(r.registro, '$.fecha'), 1, 10) BETWEEN ? AND ?" if dated else ""
    expression = f"json_extract(r.registro, {json_path(value)})" if value is not None else "r.registro"
    sql = _PERIODS.format(value=expression, records=REGISTROS_VERSIONES.name, versions=VERSIONES.name, where=where)
    return sql, list(filtro.values())


def json_path(field: str) -> str:
    """A JSON path to a record's key, quoted (a key is any text), for json_extract on ``registro``."""
    return "'$.\"" + field.replace("'", "''").replace('"', '\\"') + "\"'"


def value_periods(
    conn: sqlite3.Connection, route: str, value: Optional[str], filtro: dict, desde: str = "", hasta: str = "\uffff"
) -> list[tuple[str, Any, str, Optional[str], bool]]:
    """(fecha, value, first day in force, day replaced or removed or None, whether it is the observation's first
    value) of every value the field ``value`` (None: the whole record, as JSON text) of ``route``'s records matching
    ``filtro`` had, for the observations
    dated from ``desde`` to ``hasta``; by fecha, then by the day each appeared."""
    ctes, args = _periods_sql(value, filtro, dated=True)
    sql = ctes + "SELECT fecha, valor, desde, hasta, orden FROM vecinos ORDER BY fecha, clave, desde"
    return [(f, v, d, h, bool(first)) for f, v, d, h, first in conn.execute(sql, [route, *args, desde, hasta])]


@dataclass(frozen=True)
class Release:
    """A day on which the end-of-day vintage of a route (or of one series of it) changed."""

    day: str
    added: int  # observations it published for the first time (or again, after they had been removed)
    revised: int  # observations already in force the day before whose value changed
    removed: int  # observations in force the day before that it no longer has
    newest: Optional[str]  # the latest fecha among those added
    first_new: Optional[str]  # the earliest fecha added that is later than every fecha published before the day
    new: int  # how many added observations are later than every fecha published before the day


def releases(
    conn: sqlite3.Connection, route: str, value: Optional[str] = None, filtro: Optional[dict] = None
) -> list[Release]:
    """Every day the end-of-day vintage of ``route`` changed, oldest first: of the field ``value`` of its records
    that match ``filtro`` (a series), or of its whole records (None)."""
    ctes, args = _periods_sql(value, filtro or {})
    sql = (
        ctes
        + """, altas AS (
  SELECT desde AS dia, fecha,
         max(fecha) OVER (ORDER BY julianday(desde) RANGE BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS previa
  FROM vecinos WHERE antes IS NULL OR antes < desde
), sucesos AS (
  SELECT dia, 1 AS alta, 0 AS revision, 0 AS baja, fecha, fecha > coalesce(previa, '') AS nueva FROM altas
  UNION ALL SELECT desde, 0, 1, 0, NULL, 0 FROM vecinos WHERE antes = desde
  UNION ALL SELECT hasta, 0, 0, 1, NULL, 0 FROM vecinos WHERE hasta IS NOT NULL AND (despues IS NULL OR despues > hasta)
)
SELECT dia, sum(alta), sum(revision), sum(baja), max(fecha), min(CASE WHEN nueva THEN fecha END), sum(nueva)
FROM sucesos GROUP BY dia ORDER BY dia"""
    )
    return [Release(*row) for row in conn.execute(sql, [route, *args])]


def first_day(conn: sqlite3.Connection, route: str) -> Optional[str]:
    """The day of ``route``'s first stored version: what it added had been published that day or before."""
    row = conn.execute(f"SELECT min(publicado) FROM {VERSIONES.name} WHERE ruta = ?", [route]).fetchone()
    return row[0][:10] if row and row[0] else None


def carries(conn: sqlite3.Connection, route: str, field: str) -> bool:
    """Whether some stored record of ``route`` has the key ``field``."""
    sql = f"SELECT 1 FROM {REGISTROS_VERSIONES.name} WHERE ruta = ? AND json_type(registro, {json_path(field)}) IS NOT NULL LIMIT 1"
    return conn.execute(sql, [route]).fetchone() is not None
