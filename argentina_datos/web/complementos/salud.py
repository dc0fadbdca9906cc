"""Datasette plugin: `/-/salud.json`, what a monitor asks of a running service.

200 with the served build (when it was built, from which source, how old), the freshness of its data
(respuestas/frescura.py: each dataset's newest date against its cadence, on today's date), the last
update's result (build-db's ARCHIVO.resumen.json beside the served file: skipped files, errors, a switch
of source) and the version.  503 when the build is older than `serve-datos --edad-maxima` hours
(«vieja») or when the main data is late («atrasada»): a plain uptime monitor sees either.  An update that
found nothing new ("sin cambios") vouches for the build it left in place: the age counts from the later
of the two.
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
from argentina_datos.respuestas import frescura
from argentina_datos.respuestas.catalogo_series import today

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


def health(
    build: dict,
    update: Optional[dict],
    now: dt.datetime,
    max_hours: Optional[float],
    freshness: Optional[dict] = None,
) -> tuple[int, dict]:
    """(status, body) of /-/salud.json for the build's own table (`build`), the last update's summary and the
    data's freshness (frescura.report)."""
    built = _time(build.get("construido"))
    checked = built
    if update and update.get("resultado") == "sin cambios":
        confirmed = _time(update.get("inicio"))
        if confirmed and (checked is None or confirmed > checked):
            checked = confirmed
    age = None if checked is None else (now - checked).total_seconds() / 3600
    stale = max_hours is not None and (age is None or age > max_hours)
    late = bool(freshness and freshness["atrasada"])
    body = {
        "estado": "vieja" if stale else "atrasada" if late else "ok",
        "construida": build.get("construido"),
        "fuente": build.get("fuente"),
        "edadHoras": None if age is None else round(age, 2),
        "edadMaximaHoras": max_hours,
        "datos": freshness,
        "aviso": (update or {}).get("cambioDeFuente"),
        "ultimaActualizacion": update,
        "version": __version__,
        "versionBase": build.get("version"),
    }
    return (503 if stale or late else 200), body


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
        on = today()
        datasets = await db.execute_fn(lambda conn: frescura.by_dataset(conn, on))
    except (KeyError, sqlite3.Error) as e:
        return Response.json({"estado": "sin base", "error": str(e), "version": __version__}, status=503)
    status, body = health(
        {r[0]: r[1] for r in rows.rows},
        last_update(db.path) if db.path else None,
        dt.datetime.now(dt.timezone.utc),
        max_age(),
        frescura.report(datasets, on) if datasets else None,
    )
    return Response.json(body, status=status, headers={"cache-control": "no-store"})
