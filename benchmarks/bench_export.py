"""Mide la publicación estática: exportar-v1 y exportar-parquet sobre la base de prueba, y nginx sirviendo
el árbol exportado (con deploy/nginx.conf) contra nginx sirviendo el espejo, en la misma corrida.

Imprime:
  * exportar-v1 del árbol entero en un directorio vacío: segundos, rutas, archivos y MB;
  * otra vez sobre el mismo árbol, sin cambios: segundos y archivos escritos (0);
  * con un día cambiado (la venta de todas las casas del último día del /v1/cotizaciones/dolares publicado,
    en una copia de la base): segundos y archivos escritos;
  * exportar-parquet de todas las tablas: segundos y MB;
  * req/s de nginx con el árbol exportado y con el espejo, en las rutas de bench_api (rondas alternadas, la
    mejor de cada uno) y la razón exportado / espejo.

Requiere nginx y wrk (apt-get install -y nginx-light wrk). Uso:

    .venv/bin/python benchmarks/bench_export.py [--duration 5] [--rounds 3] [--connections 32]
"""

from __future__ import annotations

import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_api as api  # noqa: E402
from servidor_nginx import deploy_server  # noqa: E402

from argentina_datos.almacen import publicados  # noqa: E402
from argentina_datos.publicacion import exportar_parquet, exportar_v1  # noqa: E402

ROUTE_CHANGED = "/v1/cotizaciones/dolares"


def timed_export(db: Path, out: Path, label: str) -> exportar_v1.Report:
    print(f"{label} ...", flush=True)
    report = exportar_v1.export(db, out)
    print(f"  {report.summary()}", flush=True)
    return report


def change_one_day(db: Path) -> str:
    """A new venta for every casa on the last day of the published /v1/cotizaciones/dolares (as a daily update
    changes it), in the store /v1 and the export answer from."""
    with sqlite3.connect(db) as conn:
        records = orjson.loads(publicados.body(conn, ROUTE_CHANGED) or b"[]")
        day = max(r["fecha"] for r in records)
        for r in records:
            if r["fecha"] == day:
                r["venta"] += 1
        publicados.write(
            conn, [(ROUTE_CHANGED, "cotizaciones_dolares", orjson.dumps(records, option=orjson.OPT_INDENT_2))]
        )
    return day


def measure(args, procs: api.Processes) -> int:
    nginx, wrk = api.find_tool("nginx"), api.find_tool("wrk")
    db = api.ensure_db(args.db)
    with tempfile.TemporaryDirectory(prefix="bench-export-") as tmpname:
        tmp = Path(tmpname)
        out = tmp / "publicado"
        full = timed_export(db, out, "exportar-v1: el árbol entero, en un directorio vacío")
        again = timed_export(db, out, "exportar-v1: otra vez, sin cambios")
        copy = tmp / "cambiada.db"
        shutil.copyfile(db, copy)
        day = change_one_day(copy)
        changed = timed_export(copy, out, f"exportar-v1: con un día cambiado ({day} en cotizaciones_dolares)")
        print("exportar-parquet: todas las tablas ...", flush=True)
        parquet = exportar_parquet.export(db, tmp / "parquet")
        print(f"  {parquet.summary()}", flush=True)

        exported = api.start_nginx(procs, nginx, tmp, lambda port: deploy_server(port, out), name="nginx-export")
        mirror = api.start_nginx(procs, nginx, tmp, name="nginx-espejo")
        rows = []
        for _, path, _ in api.ROUTES:
            for port in (exported, mirror):
                status, _ = api.get(port, path)
                if status != 200:
                    raise api.BenchError(f"{path}: nginx respondió {status}")
            print(f"midiendo {path} en nginx (exportado y espejo) ...", flush=True)
            ours, theirs = [], []
            for _ in range(args.rounds):
                ours.append(api.run_wrk(wrk, exported, path, args)["rps"])
                theirs.append(api.run_wrk(wrk, mirror, path, args)["rps"])
            rows.append((path, max(ours), max(theirs)))

    print()
    print(f"{'medida':<58} {'valor':>30}")
    print(f"{'exportar-v1, árbol entero':<58} {full.seconds:>28.1f} s")
    print(
        f"{'  rutas / archivos / MB':<58} {f'{full.routes:,} / {full.files:,} / {full.bytes_total / 2**20:,.0f}':>30}"
    )
    print(
        f"{'exportar-v1 otra vez, sin cambios (archivos escritos)':<58} {f'{again.seconds:.1f} s ({again.written})':>30}"
    )
    print(
        f"{'exportar-v1 con un día cambiado (archivos escritos, MB)':<58} "
        f"{f'{changed.seconds:.1f} s ({changed.written}, {changed.bytes_written / 2**20:.1f} MB)':>30}"
    )
    print(
        f"{'exportar-parquet (tablas, MB)':<58} {f'{parquet.seconds:.1f} s ({parquet.tables}, {parquet.bytes / 2**20:.1f} MB)':>30}"
    )
    print(f"\nwrk -t{args.threads} -c{args.connections} -d{args.duration}s, mejor de {args.rounds} rondas alternadas")
    print(f"{'ruta':<40} {'exportado':>12} {'espejo':>12} {'razón':>7}")
    for path, ours, theirs in rows:
        print(f"{path:<40} {ours:>12,.0f} {theirs:>12,.0f} {ours / theirs:>6.2f}x")
    return 0


def main(argv=None) -> int:
    args = api.wrk_arguments(__doc__.split("\n")[0], "base a exportar").parse_args(argv)
    return api.run_bench(lambda procs: measure(args, procs))


if __name__ == "__main__":
    sys.exit(main())
