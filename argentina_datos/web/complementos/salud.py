"""Datasette plugin: `/-/salud.json`, what a monitor asks of a running service.

200 with the served build (when it was built, from which source, how old), the last update's result
(build-db's ARCHIVO.resumen.json beside the served file: skipped files, errors) and the version; 503
when the data is older than `serve-datos --edad-maxima` hours. An update that found nothing new
("sin cambios") vouches for the build it left in place: the age counts from the later of the two.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
from typing import Optional

from datasette import Response, hookimpl

from argentina_datos import __version__
from argentina_datos.almacen.propias import CONSTRUCCION
from argentina_datos.documentacion.metadatos import DATABASE

MAX_AGE_ENV = "ARGENTINA_DATOS_EDAD_MAXIMA"
SUMMARY_SUFFIX = ".resumen.json"  # construccion/cli.py writes it


def _time(value: Optional[str]) -> Optional[dt.datetime]:
    if not value:
        return None
    try:
        t = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=dt.timezone.utc)


def last_update(db_path: str) -> Optional[dict]:
    try:
        with open(db_path + SUMMARY_SUFFIX, encoding="utf-8") as f:
            summary = json.load(f)
    except (OSError, ValueError):
        return None
    return summary if isinstance(summary, dict) else None


def health(build: dict, update: Optional[dict], now: dt.datetime, max_hours: Optional[float]) -> tuple[int, dict]:
    """(status, body) of /-/salud.json for the build's own table (`build`) and the last update's summary."""
    built = _time(build.get("construido"))
    checked = built
    if update and update.get("resultado") == "sin cambios":
        confirmed = _time(update.get("inicio"))
        if confirmed and (checked is None or confirmed > checked):
            checked = confirmed
    age = None if checked is None else (now - checked).total_seconds() / 3600
    stale = max_hours is not None and (age is None or age > max_hours)
    body = {
        "estado": "vieja" if stale else "ok",
        "construida": build.get("construido"),
        "fuente": build.get("fuente"),
        "edadHoras": None if age is None else round(age, 2),
        "edadMaximaHoras": max_hours,
        "ultimaActualizacion": update,
        "version": __version__,
        "versionBase": build.get("version"),
    }
    return (503 if stale else 200), body


def max_age() -> Optional[float]:
    value = os.environ.get(MAX_AGE_ENV)
    return float(value) if value else None


@hookimpl
def register_routes():
    return [(r"^/-/salud\.json$", salud)]


async def salud(datasette, request):
    try:
        db = datasette.get_database(DATABASE)
        rows = await db.execute(f"SELECT clave, valor FROM {CONSTRUCCION.name}")
    except (KeyError, sqlite3.Error) as e:
        return Response.json({"estado": "sin base", "error": str(e), "version": __version__}, status=503)
    status, body = health(
        {r[0]: r[1] for r in rows.rows},
        last_update(db.path) if db.path else None,
        dt.datetime.now(dt.timezone.utc),
        max_age(),
    )
    return Response.json(body, status=status, headers={"cache-control": "no-store"})
