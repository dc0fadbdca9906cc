"""Compara la API /v1 servida por Datasette con nginx sirviendo el espejo estático.

Levanta, sólo en 127.0.0.1 y en puertos libres:
  * nginx sirviendo ../shared/upstream (`try_files $uri/index.json =404;`), con una
    configuración generada en un directorio temporal (pid, logs y temporales propios; no toca
    /etc/nginx), como proceso hijo en primer plano;
  * nuestro servidor con cada servidor HTTP candidato (`--servers`, por defecto los que
    `serve-datos --server` ofrece: granian y uvicorn; también `hypercorn` si está instalado, y
    `NOMBRE:2` para dos procesos) con la base de prueba build/argentina-test.db (se construye desde
    el espejo si falta);
y mide con wrk cada ruta (pequeña, mediana, grande) durante unos segundos en cada uno: pedidos
por segundo, latencia p50/p99, la razón nuestro/nginx y la CPU que gastó cada servidor por pedido (que casi no
cambia cuando otros procesos usan la máquina, a diferencia de los pedidos por segundo), para la tabla
candidato × ruta. Con --gzip, wrk pide con Accept-Encoding: gzip (sin él, no manda Accept-Encoding). Del primer
candidato (el que corre `serve-datos`) mide además la primera respuesta, sin caché, de la ruta
grande en un servidor recién arrancado, el p99 de la ruta pequeña con 64 conexiones, y la memoria
(RSS) del servidor después de pedir una vez cada ruta del espejo (`--sin-barrido` lo omite). Todo
lo que arranca lo detiene al terminar, también si hay un error o Ctrl-C.

Requiere nginx y wrk (paquetes Debian):

    apt-get update && apt-get install -y nginx wrk

Uso:

    .venv/bin/python benchmarks/bench_api.py [--duration 5] [--rounds 3] [--connections 32]
        [--servers granian,uvicorn,granian:2]

Cada ruta se mide en rondas alternadas (nginx, cada candidato, nginx, ...) y de cada servidor se
informa su mejor ronda: si otra cosa usa la máquina a la vez, castiga a todos por igual.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # servidor_nginx: nginx's configuration and command, shared with the tests

from servidor_nginx import mirror_server, nginx_command, write_conf  # noqa: E402

from argentina_datos.web.v1.api import CACHE_BYTES  # noqa: E402

SHARED = Path(os.environ.get("ARGENTINA_DATOS_SHARED", REPO.parent / "shared"))
UPSTREAM = Path(os.environ.get("ARGENTINA_DATOS_SOURCE", SHARED / "upstream"))
HISTORY = Path(os.environ.get("ARGENTINA_DATOS_HISTORY", SHARED / "upstream-history"))
TEST_DB = REPO / "build" / "argentina-test.db"
HOST = "127.0.0.1"

ROUTES = [
    ("pequeña", "/v1/feriados/2025", 0.5),
    ("mediana", "/v1/finanzas/fci/rentaFija/ultimo", 0.9),
    ("grande", "/v1/cotizaciones/dolares", 1.0),
]
FIRST_LARGE_TARGET_MS = 100.0
SMALL_P99_CONNECTIONS, SMALL_P99_TARGET_MS = 64, 5.0


class BenchError(Exception):
    pass


def find_tool(name: str) -> str:
    path = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/local/sbin:/sbin")
    if path is None:
        raise BenchError(f"falta «{name}»: instálelo con  apt-get update && apt-get install -y nginx wrk")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def get(port: int, path: str, timeout: float = 30.0, gzipped: bool = False) -> tuple[int, bytes]:
    """Status and body (``gzipped``: asked with Accept-Encoding: gzip, and a gzip answer decompressed; a body that
    came otherwise is a BenchError)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": "gzip"} if gzipped else {})
        r = conn.getresponse()
        body = r.read()
        if gzipped and r.status == 200:
            if r.getheader("content-encoding") != "gzip":
                raise BenchError(f"{HOST}:{port}{path} no respondió gzip a Accept-Encoding: gzip")
            body = gzip.decompress(body)
        return r.status, body
    finally:
        conn.close()


def wait_ready(proc: subprocess.Popen, port: int, path: str, name: str, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise BenchError(
                f"{name} terminó al arrancar (código {proc.returncode}); ver {log}:\n"
                + log.read_text(errors="replace")[-2000:]
            )
        try:
            get(port, path, timeout=2)
            return
        except OSError:
            time.sleep(0.1)
    raise BenchError(f"{name} no respondió en {HOST}:{port} en {timeout:.0f} s; ver {log}")


class Processes:
    """Every child started here; stop() ends each one's process group."""

    def __init__(self):
        self.procs: list[tuple[str, subprocess.Popen]] = []

    def start(self, name: str, cmd: list[str], log: Path, **kwargs) -> subprocess.Popen:
        out = open(log, "wb")
        proc = subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True, **kwargs
        )
        out.close()
        self.procs.append((name, proc))
        return proc

    def stop(self, proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
        self.procs = [(n, p) for n, p in self.procs if p is not proc]

    def stop_all(self) -> None:
        for _, proc in reversed(list(self.procs)):
            self.stop(proc)


def run_bench(measure: Callable[[Processes], int]) -> int:
    """A benchmark's main: ``measure(procs)``, every process it started stopped at the end (SIGTERM
    unwinds through the ``finally`` like Ctrl-C does), and a BenchError said in one line (exit 2)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    procs = Processes()
    try:
        return measure(procs)
    except BenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        procs.stop_all()


def wrk_arguments(description: str, db_help: str) -> argparse.ArgumentParser:
    """The options of the benchmarks that compare routes with wrk in alternating rounds: theirs go after."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--duration", type=int, default=5, help="segundos de wrk por ruta y servidor (%(default)s)")
    p.add_argument("--connections", type=int, default=32, help="conexiones abiertas de wrk (%(default)s)")
    p.add_argument("--threads", type=int, default=1, help="hilos de wrk (%(default)s)")
    p.add_argument("--rounds", type=int, default=3, help="rondas alternadas por ruta; vale la mejor (%(default)s)")
    p.add_argument("--db", type=Path, default=TEST_DB, help=f"{db_help} (por defecto %(default)s)")
    p.add_argument(
        "--gzip",
        action="store_true",
        help="wrk pide con Accept-Encoding: gzip, como un navegador, requests o httpx (sin esto, wrk no manda "
        "Accept-Encoding: el cuerpo sin comprimir); nginx manda el .gz de cada archivo (gzip_static)",
    )
    return p


def start_nginx(
    procs: Processes, nginx: str, tmp: Path, server=None, name: str = "nginx", gzipped: bool = False
) -> int:
    """nginx on a free port: the mirror (``try_files $uri/index.json``), or the server block ``server(port)``
    gives (benchmarks/bench_export.py: deploy/nginx.conf serving an export). ``gzipped``: the measured routes'
    files, each with its .gz beside it (level 6, as our store), served with gzip_static from a copy."""
    port = free_port()
    prefix = tmp / name
    root = precompressed(tmp / "espejo-gz") if gzipped else UPSTREAM
    conf = write_conf(prefix, server(port) if server else mirror_server(port, root, gzip_static=gzipped))
    log = prefix / "stdout.log"
    proc = procs.start(name, nginx_command(nginx, prefix, conf), log)
    wait_ready(proc, port, "/v1/feriados/2025", name, log)
    return port


def precompressed(root: Path) -> Path:
    """The measured routes' files of the mirror under ``root``, each with its index.json.gz."""
    for _, path, _ in ROUTES:
        source = UPSTREAM / path.lstrip("/") / "index.json"
        target = root / path.lstrip("/") / "index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        body = source.read_bytes()
        target.write_bytes(body)
        target.with_name("index.json.gz").write_bytes(gzip.compress(body, compresslevel=6, mtime=0))
    return root


def server_command(server: str, db: Path, port: int, workers: int) -> list[str]:
    if server == "hypercorn":  # not one serve-datos offers: run directly, on the same app factory
        return [
            sys.executable,
            "-m",
            "hypercorn",
            "--worker-class",
            "uvloop",
            "--workers",
            str(workers),
            "--bind",
            f"{HOST}:{port}",
            "argentina_datos.web.servidor:app()",
        ]
    return [
        sys.executable,
        "-m",
        "argentina_datos.web.servidor",
        str(db),
        "--host",
        HOST,
        "--port",
        str(port),
        "--workers",
        str(workers),
        *(["--server", server] if server else []),
    ]


def start_ours(
    procs: Processes, db: Path, tmp: Path, tag: str, workers: int, server: str | None = None
) -> tuple[subprocess.Popen, int]:
    """Our server (serve-datos' default one unless `server` names another candidate)."""
    port = free_port()
    log = tmp / f"datasette-{tag}.log"
    env = {**os.environ, "ARGENTINA_DATOS_SERVE_DB": str(db.resolve()), "DATASETTE_SECRET": "bench"}
    proc = procs.start(tag, server_command(server or "", db, port, workers), log, cwd=REPO, env=env)
    # Datasette's own page, so the /v1 caches stay cold for the first-response measurement.
    wait_ready(proc, port, "/-/versions.json", tag, log)
    return proc, port


def parse_candidate(text: str) -> tuple[str, int]:
    name, _, workers = text.partition(":")
    if name not in ("granian", "uvicorn", "hypercorn") or not (workers or "1").isdigit():
        raise BenchError(f"candidato desconocido «{text}»: granian, uvicorn o hypercorn, con :N procesos")
    if name == "hypercorn":
        try:
            import hypercorn  # noqa: F401
        except ImportError:
            raise BenchError("hypercorn no está instalado: pip install hypercorn, o quítelo de --servers")
    return name, int(workers or 1)


def mirror_routes() -> list[str]:
    """Every route the mirror has a file for."""
    root = UPSTREAM / "v1"
    return sorted("/v1/" + str(f.parent.relative_to(root)) for f in root.rglob("index.json") if f.parent != root)


def sweep(port: int, routes: list[str]) -> tuple[int, float, dict]:
    """Ask every route once (one keep-alive connection, gzip accepted as clients do): (requests,
    seconds, count by status)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=60)
    statuses: dict[int, int] = {}
    start = time.perf_counter()
    try:
        for route in routes:
            conn.request("GET", route, headers={"Accept-Encoding": "gzip"})
            r = conn.getresponse()
            r.read()
            statuses[r.status] = statuses.get(r.status, 0) + 1
    finally:
        conn.close()
    return len(routes), time.perf_counter() - start, statuses


def rss_mb(pid: int) -> float:
    """Resident memory of a server process and its children (workers), in MB."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1))  # type: ignore[union-attr]
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, AttributeError):
            continue
    return total / 1024


def ensure_db(db: Path) -> Path:
    """The database, built from the mirror (a ~1 s check when the mirror and the code are unchanged: a
    database from older code would answer with another shape)."""
    sys.path.insert(0, str(REPO))
    from argentina_datos.construccion.constructor import Builder
    from argentina_datos.construccion.fuentes import DirectorySource

    db.parent.mkdir(parents=True, exist_ok=True)
    print(f"construyendo {db} desde {UPSTREAM} si hace falta ...", flush=True)
    Builder(DirectorySource(UPSTREAM, HISTORY), db).run()
    return db


def tree_cpu_seconds(pid: int) -> float:
    """CPU time used so far by a process and its descendants (Linux /proc), to tell work from waiting
    when the machine is busy with other things."""
    total, todo, seen = 0.0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
        except (OSError, IndexError, ValueError):
            continue
    return total


UNIT = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def to_ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if not m:
        raise BenchError(f"no entiendo la latencia «{text}» de wrk")
    return float(m.group(1)) * UNIT[m.group(2)]


def run_wrk(wrk: str, port: int, path: str, args, connections: int | None = None) -> dict:
    cmd = [
        wrk,
        f"-t{args.threads}",
        f"-c{connections or args.connections}",
        f"-d{args.duration}s",
        "--latency",
        "--timeout",
        "10s",
        *(["-H", "Accept-Encoding: gzip"] if args.gzip else []),
        f"http://{HOST}:{port}{path}",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.duration + 60)
    if out.returncode != 0:
        raise BenchError(f"wrk falló ({out.returncode}): {out.stderr or out.stdout}")
    text = out.stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
    p50 = re.search(r"^\s+50%\s+(\S+)", text, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", text, re.M)
    if not (rps and p50 and p99):
        raise BenchError(f"salida de wrk inesperada:\n{text}")
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", text)
    errors = re.search(r"Socket errors:.*", text)
    return {
        "rps": float(rps.group(1)),
        "p50": to_ms(p50.group(1)),
        "p99": to_ms(p99.group(1)),
        "non2xx": int(bad.group(1)) if bad else 0,
        "errors": errors.group(0) if errors else "",
    }


def costed_wrk(wrk: str, port: int, pid: int, path: str, args) -> dict:
    """run_wrk, with the CPU the server (``pid`` and its children) spent per request: unlike req/s, it hardly
    moves when other work shares the machine."""
    before = tree_cpu_seconds(pid)
    r = run_wrk(wrk, port, path, args)
    r["cpu_us"] = (tree_cpu_seconds(pid) - before) / max(r["rps"] * args.duration, 1) * 1e6
    return r


def fmt_ms(ms: float) -> str:
    return f"{ms:.2f} ms" if ms < 100 else f"{ms:.0f} ms"


def print_table(args, candidates: list[tuple[str, int]], rows: list) -> bool:
    """The candidate x route table; True if the first candidate meets every route's target."""
    print()
    print(
        f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s, mejor de {args.rounds} rondas; "
        f"{'Accept-Encoding: gzip' if args.gzip else 'sin Accept-Encoding (cuerpos sin comprimir)'}; "
        f"{os.cpu_count()} CPU; todo en {HOST}"
    )
    head = f"{'ruta':<36} {'servidor':<12} {'req/s':>10} {'p50':>10} {'p99':>10} {'razón':>7} {'CPU µs/pedido':>14}"
    print(head)
    print("-" * len(head))
    ok = True
    for label, path, target, r_ng, ours in rows:
        for i, (name, r) in enumerate([("nginx", r_ng), *zip(map(candidate_name, candidates), ours)]):
            note = f"  ({r['non2xx']} no-2xx; {r['errors']})" if r["non2xx"] or r["errors"] else ""
            ratio = "" if i == 0 else f"{r['rps'] / r_ng['rps']:.2f}x"
            print(
                f"{path if i == 0 else '':<36} {name:<12} {r['rps']:>10,.0f} "
                f"{fmt_ms(r['p50']):>10} {fmt_ms(r['p99']):>10} {ratio:>7} {r['cpu_us']:>14,.0f}{note}"
            )
        ratio = ours[0]["rps"] / r_ng["rps"]
        ok &= ratio >= target
        print(
            f"{'':<36} meta de {candidate_name(candidates[0])} (ruta {label}): >= {target}x: "
            f"{'sí' if ratio >= target else 'NO'}"
        )
    return ok


def candidate_name(candidate: tuple[str, int]) -> str:
    name, workers = candidate
    return name if workers == 1 else f"{name}:{workers}"


def measure(args, procs: Processes) -> int:
    candidates = [parse_candidate(c.strip()) for c in args.servers.split(",") if c.strip()]
    if not candidates:
        raise BenchError("--servers no nombra ningún candidato")
    nginx, wrk = find_tool("nginx"), find_tool("wrk")
    if not (UPSTREAM / "v1").is_dir():
        raise BenchError(f"no está el espejo en {UPSTREAM} (defina ARGENTINA_DATOS_SOURCE)")
    db = ensure_db(args.db)
    first = candidates[0]
    with tempfile.TemporaryDirectory(prefix="bench-api-") as tmpname:
        tmp = Path(tmpname)
        nginx_port = start_nginx(procs, nginx, tmp, gzipped=args.gzip)
        nginx_pid = procs.procs[-1][1].pid

        # First, uncached response of the large route on a freshly started server.
        fresh, port = start_ours(procs, db, tmp, "fresca", first[1], first[0])
        c0, t0 = tree_cpu_seconds(fresh.pid), time.perf_counter()
        status, body = get(port, ROUTES[2][1])
        first_ms = (time.perf_counter() - t0) * 1000
        first_cpu_ms = (tree_cpu_seconds(fresh.pid) - c0) * 1000
        if status != 200:
            raise BenchError(f"{ROUTES[2][1]} respondió {status}: {body[:200]!r}")
        procs.stop(fresh)

        servers = [start_ours(procs, db, tmp, candidate_name(c).replace(":", "-"), c[1], c[0]) for c in candidates]
        ports = [port for _, port in servers]
        rows = []
        for label, path, target in ROUTES:
            s_ng, b_ng = get(nginx_port, path, gzipped=args.gzip)
            for port in ports:
                s_us, b_us = get(port, path, gzipped=args.gzip)  # also warms the cache (and its gzip body)
                if s_ng != 200 or s_us != 200:
                    raise BenchError(f"{path}: nginx respondió {s_ng}, el nuestro {s_us}")
                if json.loads(b_ng) != json.loads(b_us):
                    print(f"aviso: {path} no devuelve el mismo JSON que el espejo", file=sys.stderr)
            print(f"midiendo {path} ({len(b_ng):,} bytes) en nginx y {args.servers} ...", flush=True)
            ng: list[dict] = []
            ours: list[list[dict]] = [[] for _ in ports]
            for _ in range(args.rounds):
                ng.append(costed_wrk(wrk, nginx_port, nginx_pid, path, args))
                for runs, (server, port) in zip(ours, servers):
                    runs.append(costed_wrk(wrk, port, server.pid, path, args))
            every = "; ".join(
                name
                + " "
                + " / ".join(f"{r['rps']:,.0f}" for r in runs)
                + " ("
                + " / ".join(f"{r['cpu_us']:,.0f}" for r in runs)
                + " µs)"
                for name, runs in [("nginx", ng), *zip(map(candidate_name, candidates), ours)]
            )
            # the spread, beside the best of the table
            print(f"  req/s de cada ronda (CPU del servidor por pedido): {every}", flush=True)
            best = lambda runs: max(runs, key=lambda r: r["rps"])  # noqa: E731
            rows.append((label, path, target, best(ng), [best(runs) for runs in ours]))

        small = ROUTES[0][1]
        print(f"midiendo el p99 de {small} con {SMALL_P99_CONNECTIONS} conexiones ...", flush=True)
        p99 = min(run_wrk(wrk, ports[0], small, args, SMALL_P99_CONNECTIONS)["p99"] for _ in range(args.rounds))
        swept = None
        if not args.sin_barrido:
            routes = mirror_routes()
            print(f"pidiendo una vez cada una de las {len(routes):,} rutas del espejo ...", flush=True)
            rss_before = rss_mb(servers[0][0].pid)
            swept = (*sweep(ports[0], routes), rss_before, rss_mb(servers[0][0].pid))

    ok = print_table(args, candidates, rows)
    name = candidate_name(first)
    print(f"\nservidor de las metas: {name}")
    passed = first_ms <= FIRST_LARGE_TARGET_MS
    ok &= passed
    print(
        f"primera respuesta sin caché de {ROUTES[2][1]} (servidor recién arrancado): "
        f"{first_ms:.0f} ms (meta <= {FIRST_LARGE_TARGET_MS:.0f} ms: {'sí' if passed else 'NO'}); "
        f"CPU del servidor en ella: {first_cpu_ms:.0f} ms"
    )
    passed = p99 <= SMALL_P99_TARGET_MS
    ok &= passed
    print(
        f"p99 de {small} con {SMALL_P99_CONNECTIONS} conexiones (mejor de {args.rounds}): {fmt_ms(p99)} "
        f"(meta <= {SMALL_P99_TARGET_MS:.0f} ms: {'sí' if passed else 'NO'})"
    )
    if swept:
        count, seconds, statuses, before, after = swept
        by_status = ", ".join(f"{n:,} × {s}" for s, n in sorted(statuses.items()))
        print(
            f"barrido: {count:,} rutas del espejo en {seconds:.0f} s ({by_status}); RSS del servidor "
            f"{before:.0f} MB antes, {after:.0f} MB después (caché de /v1 acotada a "
            f"{CACHE_BYTES >> 20} MB)"
        )
    return 0 if ok else 1


SERVERS_HELP = (
    "candidatos, el primero es el de las metas: granian, uvicorn, hypercorn; NOMBRE:N = N procesos (%(default)s)"
)


def main(argv=None) -> int:
    p = wrk_arguments(__doc__.split("\n")[0], "base a servir")
    p.add_argument("--servers", default="granian,uvicorn", help=SERVERS_HELP)
    p.add_argument("--sin-barrido", action="store_true", help="no pedir cada ruta del espejo para medir la memoria")
    args = p.parse_args(argv)
    return run_bench(lambda procs: measure(args, procs))


if __name__ == "__main__":
    sys.exit(main())
