"""Escala: la construcción, la base, la exportación y /v1 con un upstream 1×, 2× y 4× el espejo.

Un benchmark, no una prueba: imprime cifras, no afirma nada.

Arma en un directorio temporal un upstream sintético de la misma forma que el espejo, con datos
inventados donde crece (lo demás, enlaces simbólicos al espejo):

  * 2×: el doble de días de FCI (cada listado diario, también publicado 100 años más tarde) y el
    doble de viajes del Senado (cada viaje, también 20 años antes);
  * 4×: el doble de días y el doble de fondos de FCI (cada fondo con un gemelo «… (B)» de valores
    distintos), y cuatro veces los viajes.

Por cada escala: `build-db` de cero (segundos, pico de memoria del proceso, filas), el tamaño de la
base, `exportar-v1` en un directorio vacío, y la primera respuesta y la mediana de 10 en caché de las
rutas `/v1` más grandes con `serve-datos`. El costo por registro debería quedar plano (±20 %).

    .venv/bin/python benchmarks/bench_escala.py [--escalas 1 2 4] [--source ../shared/upstream]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import HOST, free_port, get  # noqa: E402
from bench_build import build_process  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
EXPORT = "import sys; from argentina_datos.publicacion.cli import exportar_v1; sys.exit(exportar_v1(sys.argv[1:]))"
VIAJES = Path("v1/senado/viajes/index.json")
ROUTES = [
    "/v1/cotizaciones/dolares",
    "/v1/senado/viajes",
    "/v1/senado/viajes/nacionales",
    "/v1/finanzas/fci/rentaFija/ultimo",
    "/v1/finanzas/fci/mercadoDinero/{ultima}",
]


def is_fci_day(parts: tuple) -> bool:
    return parts[:3] == ("v1", "finanzas", "fci") and len(parts) == 8 and parts[4].isdigit()


def twin_funds(records: list) -> list:
    """Each fund and its made-up twin «… (B)», 3 % apart in value."""
    out = []
    for r in records:
        out.append(r)
        if isinstance(r, dict) and r.get("fondo"):
            twin = dict(r, fondo=f"{r['fondo']} (B)")
            for k in ("vcp", "ccp", "patrimonio"):
                if isinstance(twin.get(k), (int, float)):
                    twin[k] = round(twin[k] * 1.03, 6)
            out.append(twin)
    return out


def more_trips(envelope: dict, times: int) -> dict:
    """Each trip also ``times - 1`` more times, 20, 40... years earlier, with documents of their own."""
    out = dict(envelope)
    for key in ("nacionales", "internacionales"):
        trips = envelope.get(key) or []
        grown = list(trips)
        for k in range(1, times):
            for t in trips:
                fake = dict(t, anio=t["anio"] - 20 * k, documentoId=f"{t['documentoId']}-{k}")
                for d in ("fechaInicio", "fechaFin"):
                    if isinstance(fake.get(d), str) and fake[d][:4].isdigit():
                        fake[d] = str(int(fake[d][:4]) - 20 * k) + fake[d][4:]
                grown.append(fake)
        out[key] = grown
    return out


def make_upstream(mirror: Path, dest: Path, scale: int) -> None:
    days = 2 if scale >= 2 else 1
    funds = scale >= 4
    twins = dest.parent / "gemelos"  # the FCI listings with twin funds, written once
    for dirpath, _, files in os.walk(mirror):
        for name in files:
            path = Path(dirpath) / name
            rel = path.relative_to(mirror)
            parts = rel.parts
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if rel == VIAJES and scale > 1:
                target.write_bytes(json.dumps(more_trips(json.loads(path.read_bytes()), scale)).encode())
                continue
            if not is_fci_day(parts):
                target.symlink_to(path)
                continue
            source = path
            if funds:
                source = twins / rel
                source.parent.mkdir(parents=True, exist_ok=True)
                source.write_bytes(json.dumps(twin_funds(json.loads(path.read_bytes()))).encode())
            target.symlink_to(source)
            for k in range(1, days):
                later = dest / Path(*parts[:4], str(int(parts[4]) + 100 * k), *parts[5:])
                later.parent.mkdir(parents=True, exist_ok=True)
                later.symlink_to(source)


def latest_day(mirror: Path, category: str) -> str:
    days = sorted(p.parent for p in (mirror / "v1/finanzas/fci" / category).glob("[0-9]*/*/*/index.json"))
    return "/".join(days[-1].parts[-3:])


def serve(db: Path, tmp: Path):
    port = free_port()
    log = open(tmp / "serve.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "argentina_datos.web.servidor", str(db), "--host", HOST, "--port", str(port)],
        cwd=REPO,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if get(port, "/-/versions.json")[0] == 200:
                return proc, port
        except OSError:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGTERM)
    raise SystemExit("serve-datos no respondió en 120 s")


def timed_get(port: int, path: str) -> tuple[float, int]:
    start = time.perf_counter()
    status, body = get(port, path, timeout=120)
    if status != 200:
        raise SystemExit(f"{path}: {status}")
    return (time.perf_counter() - start) * 1000, len(body)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--source", type=Path, default=REPO.parent / "shared" / "upstream")
    p.add_argument("--escalas", type=int, nargs="+", default=[1, 2, 4])
    args = p.parse_args(argv)
    routes = [r.replace("{ultima}", latest_day(args.source, "mercadoDinero")) for r in ROUTES]
    rows = []
    for scale in args.escalas:
        with tempfile.TemporaryDirectory(prefix=f"escala-{scale}x-") as tmpname:
            tmp = Path(tmpname)
            upstream = tmp / "upstream"
            print(f"{scale}×: armando el upstream ...", flush=True)
            make_upstream(args.source, upstream, scale)
            db = tmp / "argentina.db"
            print(f"{scale}×: build-db ...", flush=True)
            wall, cpu, rss, records = build_process(upstream, None, db)
            size = db.stat().st_size
            print(f"{scale}×: exportar-v1 ...", flush=True)
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-c", EXPORT, str(db), str(tmp / "pub")],
                cwd=REPO,
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            export = time.perf_counter() - start
            shutil.rmtree(tmp / "pub")
            proc, port = serve(db, tmp)
            try:
                latency = {}
                for r in routes:
                    first, size_b = timed_get(port, r)
                    cached = statistics.median(timed_get(port, r)[0] for _ in range(10))
                    latency[r] = (first, cached, size_b)
            finally:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=30)
            rows.append((scale, wall, cpu, rss, records, size, export, latency))

    print()
    print(f"{os.cpu_count()} CPU; {time.strftime('%Y-%m-%d')}; upstream sintético desde {args.source}")
    head = (
        f"{'escala':>6} {'registros':>11} {'build s':>8} {'CPU s':>7} {'µs/reg':>7} {'pico MB':>8} "
        f"{'base MB':>8} {'export s':>9} {'µs/reg exp':>10}"
    )
    print(head)
    print("-" * len(head))
    rows.sort(key=lambda row: row[0])
    for scale, wall, cpu, rss, records, size, export, _ in rows:
        print(
            f"{scale:>5}× {records:>11,} {wall:>8.1f} {cpu:>7.1f} {wall / records * 1e6:>7.1f} {rss:>8.0f} "
            f"{size / 1e6:>8.0f} {export:>9.1f} {export / records * 1e6:>10.1f}"
        )
    print()
    print("/v1: primera respuesta / mediana en caché (ms), y tamaño")
    for r in routes:
        cells = "  ".join(
            f"{scale}×: {lat[r][0]:.0f} / {lat[r][1]:.1f} ms, {lat[r][2] / 1e6:.2f} MB" for scale, *_, lat in rows
        )
        print(f"  {r}: {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
