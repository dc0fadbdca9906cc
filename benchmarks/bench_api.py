"""Compara la API /v1 servida por Datasette con nginx sirviendo el espejo estático.

Levanta, sólo en 127.0.0.1 y en puertos libres:
  * nginx sirviendo ../shared/upstream (`try_files $uri/index.json =404;`), con una
    configuración generada en un directorio temporal (pid, logs y temporales propios; no toca
    /etc/nginx), como proceso hijo en primer plano;
  * nuestro servidor (`python -m argentina_datos.web.servidor`, lo mismo que `serve-datos`) con la
    base de prueba build/argentina-test.db (se construye desde el espejo si falta);
y mide con wrk cada ruta (pequeña, mediana, grande) durante unos segundos en cada uno: pedidos
por segundo, latencia p50/p99 y la razón nuestro/nginx. Mide también la primera respuesta, sin
caché, de la ruta grande en un servidor recién arrancado. Todo lo que arranca lo detiene al
terminar, también si hay un error o Ctrl-C.

Requiere nginx y wrk (paquetes Debian):

    apt-get update && apt-get install -y nginx wrk

Uso:

    .venv/bin/python benchmarks/bench_api.py [--duration 5] [--rounds 3] [--connections 32] [--workers 1]

Cada ruta se mide en rondas alternadas (nginx, nuestro, nginx, ...) y de cada servidor se informa
su mejor ronda: si otra cosa usa la máquina a la vez, castiga a los dos por igual.
"""

from __future__ import annotations

import argparse
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

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("ARGENTINA_DATOS_SHARED", REPO.parent / "shared"))
UPSTREAM = Path(os.environ.get("ARGENTINA_DATOS_SOURCE", SHARED / "upstream"))
HISTORY = Path(os.environ.get("ARGENTINA_DATOS_HISTORY", SHARED / "upstream-history"))
TEST_DB = REPO / "build" / "argentina-test.db"
HOST = "127.0.0.1"

ROUTES = [
    ("pequeña", "/v1/feriados/2025", 0.15),
    ("mediana", "/v1/finanzas/fci/rentaFija/ultimo", 0.8),
    ("grande", "/v1/cotizaciones/dolares", 0.8),
]
FIRST_LARGE_TARGET_MS = 150.0

NGINX_CONF = """\
daemon off;
master_process on;
worker_processes auto;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    default_type application/json;
    client_body_temp_path {tmp}/client_body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    server {{
        listen {host}:{port};
        root {root};
        location / {{ try_files $uri/index.json =404; }}
    }}
}}
"""


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


def get(port: int, path: str, timeout: float = 30.0) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, r.read()
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


def start_nginx(procs: Processes, nginx: str, tmp: Path) -> int:
    port = free_port()
    prefix = tmp / "nginx"
    prefix.mkdir()
    conf = prefix / "nginx.conf"
    conf.write_text(NGINX_CONF.format(tmp=prefix, host=HOST, port=port, root=UPSTREAM.resolve()))
    log = prefix / "stdout.log"
    # -e: nginx opens its compiled-in error log before reading the config unless told otherwise.
    proc = procs.start("nginx", [nginx, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log")], log)
    wait_ready(proc, port, "/v1/feriados/2025", "nginx", log)
    return port


def start_ours(procs: Processes, db: Path, tmp: Path, tag: str, workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    log = tmp / f"datasette-{tag}.log"
    cmd = [
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
    ]
    proc = procs.start("datasette", cmd, log, cwd=REPO)
    # Datasette's own page, so the /v1 caches stay cold for the first-response measurement.
    wait_ready(proc, port, "/-/versions.json", "datasette", log)
    return proc, port


def ensure_db(db: Path) -> Path:
    if db.exists():
        return db
    print(f"construyendo {db} desde {UPSTREAM} ...", flush=True)
    sys.path.insert(0, str(REPO))
    from argentina_datos.construccion.constructor import Builder
    from argentina_datos.construccion.fuentes import DirectorySource

    db.parent.mkdir(parents=True, exist_ok=True)
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


def run_wrk(wrk: str, port: int, path: str, args) -> dict:
    cmd = [
        wrk,
        f"-t{args.threads}",
        f"-c{args.connections}",
        f"-d{args.duration}s",
        "--latency",
        "--timeout",
        "10s",
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


def fmt_ms(ms: float) -> str:
    return f"{ms:.2f} ms" if ms < 100 else f"{ms:.0f} ms"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--duration", type=int, default=5, help="segundos de wrk por ruta y servidor (%(default)s)")
    p.add_argument("--connections", type=int, default=32, help="conexiones abiertas de wrk (%(default)s)")
    p.add_argument("--threads", type=int, default=1, help="hilos de wrk (%(default)s)")
    p.add_argument("--rounds", type=int, default=3, help="rondas alternadas por ruta; vale la mejor (%(default)s)")
    p.add_argument("--workers", type=int, default=1, help="procesos de nuestro servidor (%(default)s)")
    p.add_argument("--db", type=Path, default=TEST_DB, help="base a servir (por defecto %(default)s)")
    args = p.parse_args(argv)

    # SIGTERM must unwind through the finally below, like Ctrl-C does.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    procs = Processes()
    try:
        nginx, wrk = find_tool("nginx"), find_tool("wrk")
        if not (UPSTREAM / "v1").is_dir():
            raise BenchError(f"no está el espejo en {UPSTREAM} (defina ARGENTINA_DATOS_SOURCE)")
        db = ensure_db(args.db)
        with tempfile.TemporaryDirectory(prefix="bench-api-") as tmpname:
            tmp = Path(tmpname)
            nginx_port = start_nginx(procs, nginx, tmp)

            # First, uncached response of the large route on a freshly started server.
            fresh, port = start_ours(procs, db, tmp, "fresca", args.workers)
            c0, t0 = tree_cpu_seconds(fresh.pid), time.perf_counter()
            status, body = get(port, ROUTES[2][1])
            first_ms = (time.perf_counter() - t0) * 1000
            first_cpu_ms = (tree_cpu_seconds(fresh.pid) - c0) * 1000
            if status != 200:
                raise BenchError(f"{ROUTES[2][1]} respondió {status}: {body[:200]!r}")
            procs.stop(fresh)

            _, port = start_ours(procs, db, tmp, "carga", args.workers)
            rows = []
            for label, path, target in ROUTES:
                s_ng, b_ng = get(nginx_port, path)
                s_us, b_us = get(port, path)  # also warms our cache
                if s_ng != 200 or s_us != 200:
                    raise BenchError(f"{path}: nginx respondió {s_ng}, el nuestro {s_us}")
                if json.loads(b_ng) != json.loads(b_us):
                    print(f"aviso: {path} no devuelve el mismo JSON que el espejo", file=sys.stderr)
                print(f"midiendo {path} ({len(b_ng):,} bytes en el espejo, {len(b_us):,} nuestros) ...", flush=True)
                ng, us = [], []
                for _ in range(args.rounds):
                    ng.append(run_wrk(wrk, nginx_port, path, args))
                    us.append(run_wrk(wrk, port, path, args))
                best = lambda runs: max(runs, key=lambda r: r["rps"])  # noqa: E731
                rows.append((label, path, target, best(ng), best(us)))

        print()
        print(
            f"wrk -t{args.threads} -c{args.connections} -d{args.duration}s, mejor de {args.rounds} rondas; "
            f"{args.workers} proceso(s) nuestro(s); {os.cpu_count()} CPU; todo en {HOST}"
        )
        head = f"{'ruta':<36} {'servidor':<9} {'req/s':>10} {'p50':>10} {'p99':>10}"
        print(head)
        print("-" * len(head))
        ok = True
        for label, path, target, r_ng, r_us in rows:
            for name, r in (("nginx", r_ng), ("nuestro", r_us)):
                note = ""
                if r["non2xx"] or r["errors"]:
                    note = f"  ({r['non2xx']} no-2xx; {r['errors']})"
                print(
                    f"{path if name == 'nginx' else '':<36} {name:<9} {r['rps']:>10,.0f} "
                    f"{fmt_ms(r['p50']):>10} {fmt_ms(r['p99']):>10}{note}"
                )
            ratio = r_us["rps"] / r_ng["rps"]
            passed = ratio >= target
            ok &= passed
            print(
                f"{'':<36} {'razón':<9} {ratio:>10.2f}x  (meta >= {target}x: {'sí' if passed else 'NO'}, ruta {label})"
            )
        passed = first_ms <= FIRST_LARGE_TARGET_MS
        ok &= passed
        print(
            f"\nprimera respuesta sin caché de {ROUTES[2][1]} (servidor recién arrancado): "
            f"{first_ms:.0f} ms (meta <= {FIRST_LARGE_TARGET_MS:.0f} ms: {'sí' if passed else 'NO'}); "
            f"CPU del servidor en ella: {first_cpu_ms:.0f} ms"
        )
        return 0 if ok else 1
    except BenchError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        procs.stop_all()


if __name__ == "__main__":
    sys.exit(main())
