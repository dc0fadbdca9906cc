"""When a git source stops, the public API may not have: upstream moved its data to a new repository once
(February 2026), and a deployment that kept the old address served months-old data saying all was well.

Before a build reads a git checkout, the newest date of one daily list in it (country risk) is compared
with what its cadence allows on the reference day; when it is late, one small request asks the API for
that list's last value (``/ultimo``), and if the API is fresher the build reads the API for this run and
says so (``build-db --sin-comparar-api`` turns this off).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import orjson

from argentina_datos.catalogo import BY_TABLE

# A daily list whose last value the API answers on its own small route.
PROBE = BY_TABLE["riesgo_pais"]
PROBE_ROUTE = "v1/finanzas/indices/riesgo-pais"


@dataclass(frozen=True)
class Comparison:
    use_api: bool
    message: Optional[str]  # one line for the build's output, the summary and /-/salud.json; None: on time


def newest_in(root: Path) -> Optional[str]:
    """The newest date of the probe list in a checkout; None when it has no such list or cannot be read."""
    try:
        records = orjson.loads((root / PROBE_ROUTE / "index.json").read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    dates = [r["fecha"][:10] for r in records if isinstance(r, dict) and isinstance(r.get("fecha"), str)]
    return max(dates) if isinstance(records, list) and dates else None


def newest_at(api: str, timeout: float) -> str:
    """The API's last date of the probe list (raises httpx.HTTPError, ValueError or KeyError)."""
    import httpx

    response = httpx.get(f"{api.rstrip('/')}/{PROBE_ROUTE}/ultimo", timeout=timeout, follow_redirects=True)
    response.raise_for_status()
    day = orjson.loads(response.content)["fecha"]
    if not isinstance(day, str):
        raise ValueError(f"fecha no es texto: {day!r}")
    return day[:10]


def compare(root: Path, source: str, api: str, on: dt.date, timeout: float) -> Comparison:
    ours = newest_in(root)
    assert PROBE.series is not None
    if ours is None or (on - dt.date.fromisoformat(ours)).days <= PROBE.series.cadence:
        return Comparison(False, None)
    stale = f"la fuente git {source} está atrasada ({PROBE.title.lower()}: último dato del {ours}, al {on})"
    import httpx  # here, when the API is asked: 0.2 s of every build's start otherwise

    try:
        theirs = newest_at(api, timeout)
    except (httpx.HTTPError, ValueError, KeyError, TypeError, orjson.JSONDecodeError) as e:
        return Comparison(False, f"{stale}; no se pudo comparar con la API {api}: {e}")
    if theirs <= ours:
        return Comparison(False, f"{stale}, y la API {api} tampoco tiene datos más nuevos ({theirs})")
    return Comparison(
        True,
        f"{stale} y la API {api} tiene datos más nuevos ({theirs}): esta construcción lee la API. "
        f"Upstream puede haber movido sus datos a otro repositorio: revise --source (docs/produccion.md)",
    )
