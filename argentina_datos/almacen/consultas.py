"""Small questions about a built database: which tables it has, what a route's file published, its envelope."""

from __future__ import annotations

import datetime as dt
import sqlite3
from typing import Optional

import orjson

from argentina_datos.almacen import publicados
from argentina_datos.almacen.propias import FUENTES
from argentina_datos.catalogo.calendario import HOLIDAY_TABLES


def envelope(conn: sqlite3.Connection, ruta: str) -> Optional[dict]:
    """The scalar fields of the envelope published at ``ruta`` (e.g. fechaActualizacion)."""
    row = conn.execute(f"SELECT envoltorio FROM {FUENTES.name} WHERE ruta = ? LIMIT 1", [ruta]).fetchone()
    if row is None:
        return None
    return orjson.loads(row[0]) if row[0] else {}


def published(conn: sqlite3.Connection, ruta: str) -> bool:
    """Whether upstream published a file at ``ruta`` (an empty list is an answer, not a 404)."""
    return publicados.stored(conn, ruta) is not None


def table_exists(conn: sqlite3.Connection, table: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone() is not None


def holidays(conn: sqlite3.Connection) -> tuple[set[str], set[str]]:
    """The days of the holiday tables the database has (national and banking), and the years they cover (AAAA)."""
    days: set[str] = set()
    for table in HOLIDAY_TABLES:
        if table_exists(conn, table):
            days |= {d for (d,) in conn.execute(f"SELECT fecha FROM {table} WHERE fecha IS NOT NULL")}
    return days, {d[:4] for d in days}


def business_day(day: dt.date, holidays: set[str]) -> bool:
    """Monday to Friday and not a holiday of ``holidays`` (before the years they cover, every weekday): the rule of
    the quotes' ``habil`` column and of /v1/series/datos' ``dias=habiles``."""
    return day.weekday() < 5 and day.isoformat() not in holidays
