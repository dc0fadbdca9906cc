"""Benchmark of a new user's first start (a benchmark, not a test: it prints figures, it asserts nothing).

    .venv/bin/python benchmarks/bench_arranque.py [--port 18150] [--con-cache]

From ``git clone`` to the first 200: clones this repository (its HEAD) into a new folder beside a link to
../shared, as the README's layout has it, runs the README's command there (``bash scripts/serve.sh``) and asks
``/`` every half second until it answers 200.  Prints the seconds of each step as the command's own lines come
(the clone, the install until the first line of build-db, the build without versions, the first 200) and, after
the first 200, how long the build that adds the versions behind took.  By default the package caches are new and
empty (a new user's: ``UV_CACHE_DIR`` and ``PIP_CACHE_DIR`` in the folder); ``--con-cache`` keeps this machine's.

Target (issue 52, 2-core machine, quiet): the first 200 in under 2 minutes.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=18150)
    p.add_argument("--con-cache", action="store_true", help="the machine's package caches, not new empty ones")
    p.add_argument("--espera", type=float, default=900, help="seconds to wait for the first 200")
    args = p.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC, {os.cpu_count()} núcleos, carga {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-arranque-") as tmp:
        work = Path(tmp)
        (work / "shared").symlink_to(REPO.parent / "shared")
        env = {**os.environ, "PORT": str(args.port)}
        env.pop("ARGENTINA_DATOS_SOURCE", None)
        if not args.con_cache:
            env |= {"UV_CACHE_DIR": str(work / "cache-uv"), "PIP_CACHE_DIR": str(work / "cache-pip")}
        start = time.perf_counter()

        def say(what: str) -> None:
            print(f"{time.perf_counter() - start:7.1f} s  {what}", flush=True)

        clone = work / "argentina-datos"
        subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
        say("git clone")
        proc = subprocess.Popen(
            ["bash", "scripts/serve.sh"],
            cwd=clone,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        lines: list[str] = []

        def read() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                if not lines:
                    say(f"instalado; build-db empieza: {line.strip()[:100]}")
                lines.append(line)
                if line.startswith(str(clone / "argentina.db")) or "argentina.db:" in line[:40]:
                    say(f"construida sin versiones: {line.strip()[:120]}")

        threading.Thread(target=read, daemon=True).start()
        try:
            first = None
            while time.perf_counter() - start < args.espera and proc.poll() is None:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{args.port}/", timeout=5) as r:
                        if r.status == 200:
                            first = time.perf_counter() - start
                            break
                except OSError:
                    pass
                time.sleep(0.5)
            if first is None:
                print("".join(lines[-20:]), file=sys.stderr)
                raise SystemExit("serve.sh no respondió 200")
            say("primer 200 (meta: 120 s)")
            log = clone / "argentina.db.versiones.log"
            while time.perf_counter() - start < args.espera and "argentina.db:" not in _read(log):
                time.sleep(1)
            say("las versiones, detrás: " + next((x for x in _read(log).splitlines() if "argentina.db:" in x), "?"))
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    print(f"máquina: carga {os.getloadavg()[0]:.1f} al terminar")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


if __name__ == "__main__":
    main()
