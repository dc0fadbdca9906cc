"""A table of the database as a typed pandas DataFrame, for researchers.

    import argentina_datos as ad
    cot = ad.leer("cotizaciones_dolares")            # fechas como datetime64
    serie = ad.leer("fci_serie")                     # la vista fci_serie_vista: con el nombre del fondo

What it does that ``pd.read_sql("select * from ...")`` does not: the columns the catalogue declares as dates
(text ``AAAA-MM-DD``) become ``datetime64``; a table with a view that names its ids (``<tabla>_vista``) is read
through it; booleans (``arrastrado``, ``requiereCliente``) are ``bool`` where they have no nulls.

    blue = ad.leer("cotizaciones_dolares", where="casa = 'blue'", desde="2024-01-01", dias_habiles=True)
    fci = ad.leer("fci_serie", columnas=["fecha", "fondo", "vcp"], desde="2026-01-01")

``columnas``, ``desde``/``hasta`` (on ``fecha``) and ``dias_habiles`` (no quote of a weekend or a holiday:
``habil``) are applied in SQL, so a large table (fci_serie: 1.3 million rows) is read only
as far as asked.  pandas is imported only when this is called (it is a dependency of the package).
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from argentina_datos.catalogo import DATASETS, DERIVED_TABLES
from argentina_datos.catalogo.esquema import BOOLEAN, flat_columns

if TYPE_CHECKING:
    import pandas


def datetimes(table: Optional[str] = None) -> set[str]:
    """The column names the catalogue declares as a date and time (ISO 8601 with its offset: diputados), in
    ``table`` or, without one, in any table."""
    datasets = [d for d in DATASETS if table is None or d.table == table]
    return {column for d in datasets for column, f in flat_columns(d.fields) if f.is_datetime}


def as_datetime(value) -> Optional[dt.datetime]:
    """An ISO 8601 date and time with its offset (2009-12-10T00:00:00-03:00, 2020-11-11T19:39:00.000Z), or None."""
    if not isinstance(value, str) or "T" not in value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def dates_and_booleans() -> tuple[set[str], set[str]]:
    """Every column name the catalogue declares as a date, and as a boolean (in any table)."""
    dates, booleans = set(), set()
    # By the stored name: an object's fields are columns named after both (senadores.periodoLegal_inicio).
    fields = [(column, f) for d in DATASETS for column, f in flat_columns(d.fields)]
    fields += [(f.name, f) for t in DERIVED_TABLES for f in t.fields]
    for column, f in fields:
        if f.is_date:
            dates.add(column)
        elif f.kind == BOOLEAN:
            booleans.add(column)
    for d in DATASETS:
        booleans |= {link.column for link in d.links if link.kind == BOOLEAN}
    return dates, booleans


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "argentina_datos.leer necesita pandas, una dependencia del paquete: pip install -e . (o pip install pandas)"
        ) from None
    return pandas


def default_database() -> Path:
    """$ARGENTINA_DATOS_DB, else argentina.db in the current directory."""
    return Path(os.environ.get("ARGENTINA_DATOS_DB") or "argentina.db")


DATE, BUSINESS = "fecha", "habil"


def leer(
    tabla: str,
    db: Union[str, Path, sqlite3.Connection, None] = None,
    *,
    columnas: Optional[list[str]] = None,
    desde: Union[str, dt.date, None] = None,
    hasta: Union[str, dt.date, None] = None,
    dias_habiles: bool = False,
    where: str = "",
    params: Any = (),
) -> "pandas.DataFrame":
    """The rows of ``tabla`` as a DataFrame: dates parsed, ids named.

    :param tabla: a table or view of the database (``fci_serie``, ``cotizaciones``, ...)
    :param db: the database file or an open connection; by default $ARGENTINA_DATOS_DB or ``argentina.db``
    :param columnas: only these columns, in this order (by default all)
    :param desde: only rows whose ``fecha`` is on or after this day (``AAAA-MM-DD`` or a date)
    :param hasta: only rows whose ``fecha`` is on or before this day
    :param dias_habiles: only business days (``habil``: weekdays that are not holidays; tables of quotes only):
        leaves out every quote of a weekend or a holiday, repeated from the day before or not
    :param where: an SQL condition on the table's columns, with ``?`` for ``params``
        (``where="casa = ?", params=["blue"]``)
    """
    pd = _pandas()
    if isinstance(db, sqlite3.Connection):
        conn = db
    else:
        path = Path(db) if db is not None else default_database()
        if not path.exists():
            raise FileNotFoundError(f"no existe la base {path}: constrúyala con build-db o defina ARGENTINA_DATOS_DB")
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        if tabla not in names:
            raise ValueError(f"la base no tiene la tabla «{tabla}»")
        source = tabla + "_vista" if tabla + "_vista" in names else tabla
        available = [r[1] for r in conn.execute(f'PRAGMA table_info("{source}")')]
        columns = available
        if columnas is not None:
            unknown = [c for c in columnas if c not in available]
            if unknown:
                raise ValueError(f"«{tabla}» no tiene las columnas {unknown}; tiene {columns}")
            columns = list(columnas)
        conditions, values = ([f"({where})"] if where else []), list(params)
        for name, day, op in (("desde", desde, ">="), ("hasta", hasta, "<=")):
            if day is not None:
                if DATE not in available:
                    raise ValueError(f"«{name}» filtra por fecha, y «{tabla}» no tiene la columna fecha")
                conditions.append(f'"{DATE}" {op} ?')
                values.append(_day(name, day))
        if dias_habiles:
            if BUSINESS not in available:
                raise ValueError(f"«dias_habiles» es para las cotizaciones (su columna habil); «{tabla}» no la tiene")
            conditions.append(f'"{BUSINESS}"')
        select = ", ".join(f'"{c}"' for c in columns)
        sql = f'SELECT {select} FROM "{source}"' + (" WHERE " + " AND ".join(conditions) if conditions else "")
        frame = pd.read_sql_query(sql, conn, params=values)
    finally:
        if conn is not db:
            conn.close()
    return typed(frame, table=tabla)


def _day(name: str, value: Union[str, dt.date]) -> str:
    """A day of ``desde``/``hasta`` as the database writes it (AAAA-MM-DD), or an error that names it."""
    try:
        if isinstance(value, dt.datetime):  # a pandas Timestamp too: its day, not its midnight («…T00:00:00»)
            value = value.date()
        return (value if isinstance(value, dt.date) else dt.date.fromisoformat(value)).isoformat()
    except (TypeError, ValueError):
        raise ValueError(f"«{name}» tiene que ser una fecha AAAA-MM-DD: {value!r}") from None


def typed(
    frame: "pandas.DataFrame", dates: Optional[set[str]] = None, table: Optional[str] = None
) -> "pandas.DataFrame":
    """``frame`` with its catalogue date columns as datetime64 (an impossible date becomes NaT) and its boolean
    columns as bool where they have no nulls; ``table``'s own dates and times as UTC timestamps."""
    pd = _pandas()
    known_dates, booleans = dates_and_booleans()
    # Per table: `fecha` is a date and time only in diputados_actas (elsewhere one bad date must stay NaT).
    with_time = datetimes(table) if table is not None else set()
    for column in frame.columns:
        is_date = column in (dates if dates is not None else known_dates)
        if is_date or column in with_time:
            parsed = pd.to_datetime(frame[column], format="%Y-%m-%d", errors="coerce") if is_date else None
            # A name can be a date in one table and a date and time in another (diputados_actas.fecha).
            if column in with_time and (parsed is None or parsed.isna().sum() > frame[column].isna().sum()):
                parsed = pd.to_datetime(frame[column], format="ISO8601", utc=True, errors="coerce")
            frame[column] = parsed
        elif column in booleans and frame[column].notna().all():
            frame[column] = frame[column].astype(bool)
    return frame
