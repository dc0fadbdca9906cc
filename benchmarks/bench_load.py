"""Carga mixta sobre el servidor completo: /v1 y Datasette a la vez, con wrk.

Levanta nuestro servidor (`python -m argentina_datos.web.servidor`, lo mismo que `serve-datos`) con la
base de prueba en 127.0.0.1 y un puerto libre, y le manda durante --duration segundos, con
--connections conexiones en total repartidas entre clases de pedidos que corren a la vez (un wrk
por clase):

  * v1-chica:   /v1/feriados/2025 (2 KB, en caché)
  * v1-grande:  /v1/cotizaciones/dolares (1,97 MB, en caché; gzip)
  * v1-fechas:  miles de rutas distintas por fecha (/v1/cotizaciones/dolares/blue/AAAA/MM/DD y
                /v1/finanzas/fci/rentaFija/AAAA/MM/DD): cada una se calcula con SQL la primera vez
  * tabla:      una página de tabla de Datasette (/argentina/cotizaciones_dolares), con facetas
  * consulta:   una consulta guardada (/argentina/brecha_cambiaria)
  * 404:        páginas inexistentes de Datasette (/nopeN), que antes costaban un traceback cada una

Con --mezcla hostil, en cambio: v1-chica y v1-grande (en caché) mientras 16 conexiones mandan SQL que
antes tomaba el servidor (`randomblob(1e9)`, un `printf` de mil millones de caracteres, filas que
suman cientos de MB, un producto cruzado que llega al límite de tiempo); informa además el pico de
RSS del servidor durante la carga (metas del issue 24: p99 de /v1 ≤ 50 ms, pico ≤ 1 GB).

Antes, una ronda de --baseline segundos sólo con v1-chica da su p99 sin carga de Datasette, para
comparar. Imprime, por clase: pedidos, pedidos por segundo, p50 y p99, y los estados HTTP
recibidos; los errores (5xx, estados inesperados, errores de socket de wrk); y la memoria
residente (RSS) del servidor antes y después de la carga. No afirma nada sobre los tiempos:
informa.

Requiere wrk (apt-get install -y wrk). Uso:

    .venv/bin/python benchmarks/bench_load.py [--duration 30] [--connections 64] [--baseline 10]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_api import (  # noqa: E402
    HOST,
    TEST_DB,
    BenchError,
    Processes,
    ensure_db,
    find_tool,
    get,
    rss_mb,
    run_bench,
    start_ours,
    to_ms,
)

# (clase, parte de las conexiones, estados esperados)
CLASSES = [
    ("v1-chica", 0.25, {200}),
    ("v1-grande", 0.125, {200}),
    ("v1-fechas", 0.25, {200}),
    ("tabla", 0.1875, {200}),
    ("consulta", 0.125, {200}),
    ("404", 0.0625, {404}),
]

HOSTILE_SQL = [
    "select randomblob(1e9)",
    "select length(printf('%.*c', 999999999, 'x'))",
    "with recursive n(x) as (select 1 union all select x + 1 from n where x < 40) select x, randomblob(8e6) from n",
    "select count(*) from cotizaciones_dolares a, cotizaciones_dolares b",
]
# The hostile mix: cached /v1 answers while heavy SQL runs (its connections are fixed, not a share).
HOSTILE_CLASSES = [
    ("v1-chica", 0.5, {200}),
    ("v1-grande", 0.25, {200}),
    ("hostil", 0.0, {200, 400}),
]
HOSTILE_CONNECTIONS = 16
# The pages mix (issue 33): table pages while 12 connections each run a query that holds its SQL
# for the whole time limit (3 s): the table page's p95 is the figure (goal ≤ 1 s).
SLOW_SQL = "select count(*) from cotizaciones_dolares a, cotizaciones_dolares b"
PAGES_CLASSES = [
    ("tabla", 0.0, {200}),
    ("consulta", 0.0, {200}),
    ("lenta", 0.0, {200, 400, 429, 503}),
]
PAGES_CONNECTIONS = {"tabla": 4, "consulta": 2, "lenta": 12}
# The switch mix (issue 33): /v1 under 32 connections while a new build is renamed over the served file
# halfway through (a copy of the test database: another file, so every cached answer is dropped).
SWITCH_CLASSES = [
    ("v1-chica", 0.25, {200}),
    ("v1-grande", 0.25, {200}),
    ("v1-fechas", 0.5, {200}),
]
SWITCH_CONNECTIONS = 32

LUA = """
paths = {%(paths)s}
counter = 0
statuses = {}
local headers = {["Accept-Encoding"] = "%(encoding)s"}

request = function()
    counter = counter + 1
    return wrk.format("GET", paths[(counter %% #paths) + 1], headers)
end

response = function(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
end

local threads = {}
setup = function(thread)
    table.insert(threads, thread)
end

done = function(summary, latency, requests)
    io.write(string.format("P95 %%d\\n", latency:percentile(95)))
    for _, thread in ipairs(threads) do
        for status, n in pairs(thread:get("statuses")) do
            io.write(string.format("STATUS %%d %%d\\n", status, n))
        end
    end
end
"""


def class_paths(db: Path) -> dict[str, list[str]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        blue = [
            r[0]
            for r in conn.execute("SELECT DISTINCT fecha FROM cotizaciones_dolares WHERE casa = 'blue' ORDER BY fecha")
        ]
        fci = [
            r[0]
            for r in conn.execute(
                "SELECT DISTINCT l.listado FROM fci_valores v JOIN fci_valores_listado l ON l.id = v.listado_id "
                "JOIN fci_valores_categoria c ON c.id = v.categoria_id "
                "WHERE c.categoria = 'rentaFija' AND l.listado GLOB '[0-9]*' ORDER BY 1"
            )
        ]
    finally:
        conn.close()
    per_date = [f"/v1/cotizaciones/dolares/blue/{d.replace('-', '/')}" for d in blue]
    per_date += [f"/v1/finanzas/fci/rentaFija/{d.replace('-', '/')}" for d in fci]
    # Interleaved, so that every stretch of the run computes both kinds.
    per_date = per_date[::2] + per_date[1::2]
    return {
        "v1-chica": ["/v1/feriados/2025"],
        "v1-grande": ["/v1/cotizaciones/dolares"],
        "v1-fechas": per_date,
        "tabla": [
            "/argentina/cotizaciones_dolares?_size=50",
            "/argentina/cotizaciones_dolares?casa=blue&_size=50",
            "/argentina/cotizaciones_dolares?_sort_desc=fecha&_size=50",
        ],
        "consulta": ["/argentina/brecha_cambiaria", "/argentina/dolar_por_casa?casa=oficial"],
        "404": [f"/nope{i}" for i in range(1000)],
        "hostil": [f"/argentina.json?sql={quote(sql)}" for sql in HOSTILE_SQL],
        "lenta": [f"/argentina.json?sql={quote(SLOW_SQL)}&_n={i}" for i in range(100)],
    }


def write_script(tmp: Path, name: str, paths: list[str]) -> Path:
    script = tmp / f"{name}.lua"
    quoted = ", ".join('"' + p.replace("\\", "\\\\").replace('"', '\\"') + '"' for p in paths)
    # The large answer is what a browser or curl --compressed gets: gzip.
    script.write_text(LUA % {"paths": quoted, "encoding": "gzip" if name == "v1-grande" else "identity"})
    return script


def start_wrk(wrk: str, port: int, script: Path, connections: int, duration: int) -> subprocess.Popen:
    cmd = [
        wrk,
        "-t1",
        f"-c{connections}",
        f"-d{duration}s",
        "--latency",
        "--timeout",
        "10s",
        "-s",
        str(script),
        f"http://{HOST}:{port}",
    ]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def parse_wrk(text: str) -> dict:
    total = re.search(r"(\d+) requests in ([\d.]+)(\w+)", text)
    p50 = re.search(r"^\s+50%\s+(\S+)", text, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", text, re.M)
    p95 = re.search(r"^P95 (\d+)$", text, re.M)
    if not (total and p50 and p99):
        raise BenchError(f"salida de wrk inesperada:\n{text}")
    statuses: dict[int, int] = {}
    for status, n in re.findall(r"^STATUS (\d+) (\d+)$", text, re.M):
        statuses[int(status)] = statuses.get(int(status), 0) + int(n)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    return {
        "requests": int(total.group(1)),
        "p50": to_ms(p50.group(1)),
        "p99": to_ms(p99.group(1)),
        "p95": int(p95.group(1)) / 1000 if p95 else float("nan"),  # wrk's latency is in microseconds
        "statuses": statuses,
        "socket_errors": sum(map(int, socket_errors.groups())) if socket_errors else 0,
        "socket_text": socket_errors.group(0) if socket_errors else "",
    }


def run_classes(wrk: str, port: int, scripts: dict, connections: dict, duration: int) -> dict:
    procs = {name: start_wrk(wrk, port, scripts[name], connections[name], duration) for name in connections}
    results = {}
    for name, proc in procs.items():
        out, _ = proc.communicate(timeout=duration + 120)
        if proc.returncode != 0:
            raise BenchError(f"wrk ({name}) falló ({proc.returncode}):\n{out}")
        results[name] = parse_wrk(out)
    return results


class PeakRss(threading.Thread):
    """The server's largest RSS, sampled every 0.1 s while the load runs."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid, self.peak, self.stopped = pid, 0.0, threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(0.1):
            self.peak = max(self.peak, rss_mb(self.pid))


def fmt_ms(ms: float) -> str:
    return f"{ms:.2f} ms" if ms < 100 else f"{ms:.0f} ms"


def measure(args, procs: Processes) -> int:
    classes = {"hostil": HOSTILE_CLASSES, "paginas": PAGES_CLASSES, "cambio": SWITCH_CLASSES}.get(args.mezcla, CLASSES)
    wrk = find_tool("wrk")
    db = ensure_db(args.db)
    paths = class_paths(db)
    total = SWITCH_CONNECTIONS if args.mezcla == "cambio" else args.connections
    connections = {name: max(1, round(total * share)) for name, share, _ in classes}
    if args.mezcla == "hostil":
        connections["hostil"] = HOSTILE_CONNECTIONS
    if args.mezcla == "paginas":
        connections = dict(PAGES_CONNECTIONS, lenta=args.lentas)
        if not args.lentas:
            del connections["lenta"]
            classes = [c for c in classes if c[0] != "lenta"]
    expected = {name: ok for name, _, ok in classes}
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmpname:
        tmp = Path(tmpname)
        scripts = {name: write_script(tmp, name, paths[name]) for name in paths}
        served = db
        if args.mezcla == "cambio":
            served, new = tmp / "servida.db", tmp / "nueva.db"
            shutil.copyfile(db, served)
            shutil.copyfile(db, new)
        server, port = start_ours(procs, served, tmp, "carga", args.workers)
        # One of each fixed page first, as a server that has been up for a while has them.
        for name in ("v1-chica", "v1-grande", "tabla", "consulta"):
            for path in paths[name]:
                status, _ = get(port, path)
                if status != 200:
                    raise BenchError(f"{path} respondió {status}")
        rss_before = rss_mb(server.pid)

        baseline = None
        if args.baseline and "v1-chica" in connections:
            print(
                f"ronda base: v1-chica sola, {connections['v1-chica']} conexiones, {args.baseline} s ...",
                flush=True,
            )
            baseline = run_classes(wrk, port, scripts, {"v1-chica": connections["v1-chica"]}, args.baseline)["v1-chica"]
        print(f"carga mixta: {sum(connections.values())} conexiones, {args.duration} s ...", flush=True)
        start = time.monotonic()
        peak = PeakRss(server.pid)
        peak.start()
        switch = None
        if args.mezcla == "cambio" and not args.sin_cambio:
            # As build-db does: a complete file renamed over the served one.
            switch = threading.Timer(args.duration / 2, os.replace, (new, served))
            switch.start()
        results = run_classes(wrk, port, scripts, connections, args.duration)
        switch_lines = []
        if switch:
            switch.join()
            log = (tmp / "datasette-carga.log").read_text(errors="replace")
            switch_lines = [line for line in log.splitlines() if "base nueva" in line]
        peak.stopped.set()
        elapsed = time.monotonic() - start
        rss_after = rss_mb(server.pid)
        alive = server.poll() is None

    print()
    print(
        f"wrk -t1 por clase, {sum(connections.values())} conexiones en total, {args.duration} s; "
        f"{args.workers} proceso(s) del servidor; {os.cpu_count()} CPU; todo en {HOST}"
    )
    head = f"{'clase':<10} {'conex.':>6} {'pedidos':>9} {'req/s':>8} {'p50':>10} {'p95':>10} {'p99':>10}  estados"
    print(head)
    print("-" * len(head))
    total = errors = server_errors = 0
    by_status: dict[int, int] = {}
    for name, _, _ in classes:
        r = results[name]
        total += r["requests"]
        for status, n in r["statuses"].items():
            by_status[status] = by_status.get(status, 0) + n
            if status not in expected[name]:
                errors += n
            if status >= 500:
                server_errors += n
        errors += r["socket_errors"]
        statuses = ", ".join(f"{s}: {n:,}" for s, n in sorted(r["statuses"].items()))
        note = f"  ({r['socket_text']})" if r["socket_errors"] else ""
        print(
            f"{name:<10} {connections[name]:>6} {r['requests']:>9,} {r['requests'] / elapsed:>8,.0f} "
            f"{fmt_ms(r['p50']):>10} {fmt_ms(r['p95']):>10} {fmt_ms(r['p99']):>10}  {statuses}{note}"
        )
    print("-" * len(head))
    print(f"pedidos: {total:,}; por estado: " + ", ".join(f"{s}: {n:,}" for s, n in sorted(by_status.items())))
    print(f"errores (5xx, estados inesperados, errores de socket): {errors:,}; 5xx: {server_errors:,}")
    if baseline:
        print(
            f"p99 de v1-chica (en caché): {fmt_ms(baseline['p99'])} sola; {fmt_ms(results['v1-chica']['p99'])} "
            f"con Datasette cargado (p50 {fmt_ms(baseline['p50'])} -> {fmt_ms(results['v1-chica']['p50'])})"
        )
    if args.mezcla == "hostil":
        worst = max(results["v1-chica"]["p99"], results["v1-grande"]["p99"])
        print(f"p99 de /v1 (en caché) con SQL hostil en paralelo: {fmt_ms(worst)} (meta ≤ 50 ms)")
    if args.mezcla == "cambio":
        worst = max(results[name]["p99"] for name in ("v1-chica", "v1-grande"))
        when = "sin cambio de base (--sin-cambio)" if args.sin_cambio else "con una base nueva a mitad de la corrida"
        print(
            f"p99 de /v1 en caché {when}: {fmt_ms(worst)} (meta ≤ 100 ms); v1-fechas (cada ruta calculada "
            f"la primera vez): {fmt_ms(results['v1-fechas']['p99'])}"
        )
        for line in switch_lines:
            print(f"  registro del servidor: {line}")
    if args.mezcla == "paginas":
        print(
            f"p95 de una página de tabla con {args.lentas} conexiones de SQL de 3 s en paralelo: "
            f"{fmt_ms(results['tabla']['p95'])} (meta ≤ 1 s)"
        )
    print(
        f"RSS del servidor: {rss_before:.0f} MB antes, {rss_after:.0f} MB después, pico {peak.peak:.0f} MB"
        f"{'' if alive else ' (¡el servidor terminó!)'}"
    )
    return 0


BASELINE_HELP = "segundos de la ronda sólo con v1-chica, sin Datasette (%(default)s; 0 la omite)"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--duration", type=int, default=30, help="segundos de la carga mixta (%(default)s)")
    p.add_argument("--connections", type=int, default=64, help="conexiones en total (%(default)s)")
    p.add_argument("--baseline", type=int, default=10, help=BASELINE_HELP)
    p.add_argument("--workers", type=int, default=1, help="procesos del servidor (%(default)s)")
    p.add_argument("--db", type=Path, default=TEST_DB, help="base a servir (por defecto %(default)s)")
    p.add_argument(
        "--mezcla",
        choices=("normal", "hostil", "paginas", "cambio"),
        default="normal",
        help="normal: /v1 y Datasette; hostil: /v1 en caché con SQL pesado en paralelo; paginas: páginas de "
        "tabla y consultas guardadas mientras 12 conexiones corren SQL de 3 s; cambio: /v1 con 32 conexiones "
        "mientras una base nueva reemplaza a la servida a mitad de la corrida (%(default)s)",
    )
    p.add_argument(
        "--lentas",
        type=int,
        default=PAGES_CONNECTIONS["lenta"],
        help="con --mezcla paginas, conexiones de SQL de 3 s (%(default)s; 0: las páginas solas, para comparar)",
    )
    p.add_argument(
        "--sin-cambio", action="store_true", help="con --mezcla cambio, la misma carga sin reemplazar la base"
    )
    args = p.parse_args(argv)
    return run_bench(lambda procs: measure(args, procs))


if __name__ == "__main__":
    sys.exit(main())
