"""Business days by the calendar a database holds: its holiday tables, national and banking."""

from __future__ import annotations

import datetime as dt
import sqlite3

from argentina_datos.almacen.tablas import table_exists
from argentina_datos.catalogo.calendario import HOLIDAY_TABLES


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
