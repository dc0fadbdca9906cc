"""What several test modules need: the mirror's files, fixture files in the upstream layout, small
builds of a few datasets and their /v1 answers.  (Every table and column being described is one test
for the whole build: tests/test_metadata.py.)"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import orjson
from paths import UPSTREAM

from argentina_datos.catalogo import BY_TABLE
from argentina_datos.construccion.constructor import Builder
from argentina_datos.construccion.fuentes import DirectorySource

# Three quotes of two days of the dollar and two days of the UVA, in upstream's shape: the small source of
# several modules' builds.
DOLARES_DIAS = [
    {"casa": "blue", "compra": 1000, "venta": 1020.5, "fecha": "2025-01-02"},
    {"casa": "oficial", "compra": 900, "venta": 940, "fecha": "2025-01-02"},
    {"casa": "blue", "compra": 1010, "venta": 1030, "fecha": "2025-01-03"},
]
UVA_DIAS = [{"fecha": "2016-03-31", "valor": 14.05}, {"fecha": "2016-04-01", "valor": 14.06}]


def mirror_file(route: str):
    """The mirror's file for ``route`` (/v1/X or v1/X), parsed; None when the mirror has none."""
    path = UPSTREAM / route.strip("/") / "index.json"
    return orjson.loads(path.read_bytes()) if path.exists() else None


def write_file(root: Path, route: str, content) -> Path:
    """``content`` as the file of ``route`` under ``root``: bytes and text as they are, anything else as JSON."""
    path = root / route / "index.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False))
    return path


def build_tables(root: Path, out: Path, tables) -> sqlite3.Connection:
    """A database of just these datasets, from the files under ``root``; every file must load."""
    report = Builder(DirectorySource(root), out, datasets=[BY_TABLE[t] for t in tables]).run()
    assert not report.skipped and not report.skipped_files
    return sqlite3.connect(out)


def answer(api, conn: sqlite3.Connection, route: str):
    """(status, parsed body) of ``route`` answered by ``api`` (a web.v1.api.V1) on ``conn``."""
    response = api.compute(conn, route)
    return response.status, orjson.loads(response.body)


def beside(folder: Path) -> list[str]:
    """The files in ``folder`` but those a build documents beside its output (its summary
    ARCHIVO.resumen.json, a directory source's checksums ARCHIVO.huellas.json, the builds it replaced:
    ARCHIVO.anterior...): what a build left behind."""
    import os

    documented = (".resumen.json", ".huellas.json")
    return sorted(n for n in os.listdir(folder) if not n.endswith(documented) and ".anterior" not in n)


def assert_catalogue_routes(conn: sqlite3.Connection, routes, tables, families) -> None:
    """Each of ``routes`` is a catalogue route answered from ``tables`` only, and no file of ``families``
    (v1/X: the route and those below it) was kept as a mere document."""
    from argentina_datos.respuestas.rutas import Router

    router = Router()
    for route in routes:
        endpoint, match = router.match(route)
        endpoint.parse(match)
        assert set(endpoint.datasets) <= set(tables), route
    prefixes = ["/" + f.strip("/") for f in families]
    stored = [r for (r,) in conn.execute("SELECT ruta FROM publicados WHERE tabla = 'documentos'")]
    assert not [r for r in stored if any(r == p or r.startswith(p + "/") for p in prefixes)]


def assert_refused(v1, route: str, parametro: str) -> None:
    """``route`` is a 404 naming ``parametro`` as the value that matches nothing (v1: conftest's fixture)."""
    code, body = v1(route)
    assert (code, body["parametro"]) == (404, parametro), (route, body)


# A small database of two datasets, for the exports (tests/test_exportar.py, tests/test_parquet.py).
DOLARES = [
    {"casa": "oficial", "compra": 1000, "venta": 1050.5, "fecha": "2025-01-02"},
    {"casa": "blue", "compra": 1200, "venta": 1230, "fecha": "2025-01-02"},
    {"casa": "oficial", "compra": 1001, "venta": 1051, "fecha": "2025-01-03"},
]
FERIADOS = {
    "2024": [{"fecha": "2024-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}],
    "2025": [{"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}],
}


def small_database(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    write_file(src, "v1/cotizaciones/dolares", DOLARES)
    write_file(src, "v1/cotizaciones/dolares/2025/01/02", DOLARES[:2])  # 2025/01/03 has no file: derived
    write_file(src, "v1/feriados", FERIADOS["2025"])
    for year, records in FERIADOS.items():
        write_file(src, f"v1/feriados/{year}", records)
    db = tmp_path / "chica.db"
    build_tables(src, db, ["cotizaciones_dolares", "cotizaciones_dolares_fecha", "feriados"]).close()
    return db
