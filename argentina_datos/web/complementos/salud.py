"""Datasette plugin: `/-/salud.json`, what a monitor asks of a running service, and `/-/vivo`, what a load
balancer asks.

/-/salud.json: the served build (when it was built, from which source, how old), the freshness of its data
(respuestas/frescura.py: each dataset's newest date against its cadence, on today's date), the last
update's result (build-db's ARCHIVO.resumen.json beside the served file: skipped files, errors, a switch
of source, a restore), the file at the served path (web/recarga.py) and the version.  Each failure has its own
field, and `estado` the one that counts most (ESTADOS): 200 only when it is «ok», 503 otherwise, so a plain
uptime monitor sees any of them and one that reads the body tells them apart.  An update that found nothing
new ("sin cambios") vouches for the build it left in place: the age counts from the later of the two.

/-/vivo: 200 whenever the server answers, whatever its data: late data or a failed update is no reason to
take a server that answers out of a load balancer.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import sqlite3
from typing import Optional

from datasette import Response, hookimpl

from argentina_datos import __version__
from argentina_datos.almacen.propias import CONSTRUCCION
from argentina_datos.documentacion.metadatos import DATABASE
from argentina_datos.respuestas import frescura
from argentina_datos.respuestas.catalogo_series import today
from argentina_datos.web import recarga
from argentina_datos.web.complementos import HEALTH_PATH, LIVE_PATH

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
    disk: Optional[dict] = None,
) -> tuple[int, dict]:
    """(status, body) of /-/salud.json for the build's own table (`build`), the last update's summary, the
    data's freshness (frescura.report) and the file at the served path (`disk`: recarga.disk_state).  Each
    failure has its own field, and `estado` names the one that counts most (ESTADOS, in order)."""
    built = _time(build.get("construido"))
    checked = built
    if update and update.get("resultado") == "sin cambios":
        confirmed = _time(update.get("inicio"))
        if confirmed and (checked is None or confirmed > checked):
            checked = confirmed
    age = None if checked is None else (now - checked).total_seconds() / 3600
    stale = max_hours is not None and (age is None or age > max_hours)
    late = bool(freshness and freshness["atrasada"])
    failed = update if update and update.get("resultado") == "fallida" else None
    restored = (update or {}).get("restauracion") if (update or {}).get("resultado") == "restaurada" else None
    problems = {
        "archivo": bool(disk and disk.get("problema")),
        "fallida": failed is not None,
        "vieja": stale,
        "restaurada": restored is not None,
        "atrasada": late,
    }
    state = next((name for name in ESTADOS if problems[name]), "ok")
    body = {
        "estado": state,
        "motivo": _reason(state, disk, failed, restored, freshness, age, max_hours),
        "construida": build.get("construido"),
        "fuente": build.get("fuente"),
        "edadHoras": None if age is None else round(age, 2),
        "edadMaximaHoras": max_hours,
        "datos": freshness,
        "fuenteAtrasada": late,
        "actualizacionFallida": None
        if failed is None
        else {"cuando": failed.get("inicio"), "error": failed.get("error"), "codigo": failed.get("codigo")},
        "archivo": disk,
        "restaurada": restored,
        "aviso": (update or {}).get("cambioDeFuente"),
        "ultimaActualizacion": update,
        "version": __version__,
        "versionBase": build.get("version"),
    }
    return (200 if state == "ok" else 503), body


# What /-/salud.json's estado says, the first that holds: the file on disk is not the one served (or cannot be
# read); our last update failed; the build is older than --edad-maxima; it was put back by build-db --restaurar;
# upstream publishes nothing new (the update worked, the data is late).
ESTADOS = ("archivo", "fallida", "vieja", "restaurada", "atrasada")


def _reason(state, disk, failed, restored, freshness, age, max_hours) -> str:
    if state == "archivo":
        return f"el archivo {disk['ruta']} no es el que se sirve: {disk['problema']}"
    if state == "fallida":
        return f"la última actualización falló: {failed.get('error') or 'sin detalle'}"
    if state == "vieja":
        return f"la base tiene {'?' if age is None else f'{age:.0f}'} horas, más que el máximo de {max_hours:g}"
    if state == "restaurada":
        return f"la base servida se restauró el {restored.get('cuando')} desde {restored.get('desde')}"
    if state == "atrasada":
        late = [d["conjunto"] for d in freshness["conjuntos"] if d["principal"] and d["atrasado"]]
        return f"la fuente no publica datos nuevos de {', '.join(late)}; la actualización funciona"
    return "al día"


def max_age() -> Optional[float]:
    value = os.environ.get(MAX_AGE_ENV)
    return float(value) if value else None


@hookimpl
def register_routes():
    return [(f"^{re.escape(HEALTH_PATH)}$", salud), (f"^{re.escape(LIVE_PATH)}$", vivo)]


async def vivo(datasette, request):
    """Liveness, for a load balancer: 200 while the server answers, whatever its data (no query)."""
    return Response.json({"vivo": True, "version": __version__}, headers={"cache-control": "no-store"})


async def salud(datasette, request):
    try:
        db = datasette.get_database(DATABASE)
    except KeyError as e:
        return Response.json({"estado": "sin base", "error": str(e), "version": __version__}, status=503)
    disk = recarga.disk_state(datasette, db)
    try:
        rows = await db.execute(f"SELECT clave, valor FROM {CONSTRUCCION.name}")
        on = today()
        datasets = await db.execute_fn(lambda conn: frescura.by_dataset(conn, on))
    except sqlite3.Error as e:
        problem = f"la base servida no se puede leer: {e}"
        disk = {"ruta": db.path, "sirviendo": False, "problema": problem}
        body = {"estado": "archivo", "motivo": problem, "archivo": disk, "version": __version__}
        return Response.json(body, status=503, headers={"cache-control": "no-store"})
    status, body = health(
        {r[0]: r[1] for r in rows.rows},
        last_update(db.path) if db.path else None,
        dt.datetime.now(dt.timezone.utc),
        max_age(),
        frescura.report(datasets, on) if datasets else None,
        disk,
    )
    return Response.json(body, status=status, headers={"cache-control": "no-store"})
