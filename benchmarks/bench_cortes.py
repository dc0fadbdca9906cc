"""What a computed answer costs (issue 49): a benchmark, it prints figures and asserts nothing.

    .venv/bin/python benchmarks/bench_cortes.py [--db build/argentina-test.db] [--base ../main]

For every route template whose answer is computed from a list (a day of a list, /ultimo, a fund, an acta, a
senator's trips...) and for ``desde``/``fecha`` on the biggest lists: the first answer in a new process (the
database open, the route maxima known: what a server that answered any request has), each in its own process so
nothing of another list is warm; the process's memory (RSS) after touching one route of every template, over a
fresh one; and ``?publicado=`` on a list for days not asked before.  Targets: first cut ≤ 20 ms, memory ≤ +10 MB,
publicado ≤ 10 ms.  ``--base``: another checkout (the code before) measured the same way in the same run, for
the ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# One process: open the database, know the maxima, then time the first answer of each path given (or all of them,
# for the memory), and print JSON.
CHILD = r"""
import json, os, re, sqlite3, sys, time
sys.path.insert(0, sys.argv[1])
from argentina_datos.respuestas.consulta import parse
from argentina_datos.respuestas.responder import Responder

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

conn = sqlite3.connect(f"file:{sys.argv[2]}?mode=ro", uri=True)
responder = Responder()
responder.answer(conn, "/v1/feriados/2025")  # the maxima: what the first request of any kind computes
before = rss()
out = []
for asked in json.loads(sys.argv[3]):
    path, _, query = asked.partition("?")
    start = time.perf_counter()
    answer = responder.answer(conn, path, parse(query))
    body = answer.json() if answer.status == 200 else b""
    out.append((asked, answer.status, (time.perf_counter() - start) * 1000, len(body)))
print(json.dumps({"answers": out, "rss": rss() - before}))
"""


def run(repo: Path, db: Path, paths: list[str]) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(repo), str(db), json.dumps(paths)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def cut_routes() -> list[str]:
    """One path per computed route template, its parameters' examples, and the queries that cut the biggest lists."""
    sys.path.insert(0, str(REPO))
    from argentina_datos.respuestas.responder import fill_path
    from argentina_datos.respuestas.rutas import Router

    out = []
    for e in Router().endpoints:
        if e.computed and e.params:
            out.append(fill_path(e.path, {p.name: p.example for p in e.params}))
        elif e.computed:
            out.append(e.path + "?fecha=2024-12")
    out += [
        "/v1/cotizaciones/dolares/blue/2024/03/15",
        "/v1/cotizaciones/dolares/2019/03/15",
        "/v1/cotizaciones/dolares/blue?desde=2025-01-01&hasta=2025-01-31",
        "/v1/cotizaciones/dolares?fecha=2024-03",
        "/v1/finanzas/fci/mercadoDinero/ultimo?fecha=2025-01",
    ]
    return list(dict.fromkeys(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--db", type=Path, default=REPO / "build" / "argentina-test.db")
    ap.add_argument("--base", type=Path, help="otra copia del código (la de antes), medida igual en la misma corrida")
    ap.add_argument("--publicado", type=int, default=8, help="días de ?publicado= sin pedir antes")
    args = ap.parse_args()
    routes = cut_routes()
    days = [f"2024-{m:02d}-{d:02d}" for m in range(1, 13) for d in (5, 20)][: args.publicado]
    versioned = [f"/v1/cotizaciones/dolares/blue?publicado={d}" for d in days]
    versioned += [f"/v1/finanzas/indices/riesgo-pais/ultimo?publicado={d}" for d in days]
    for name, repo in [("ahora", REPO), ("antes", args.base)]:
        if repo is None:
            continue
        firsts = [run(repo, args.db, [path])["answers"][0] for path in routes]
        print(f"\n{name} ({repo}): primera respuesta calculada de cada ruta, cada una en un proceso nuevo")
        for path, status, ms, size in sorted(firsts, key=lambda a: -a[2])[:8]:
            print(f"  {ms:8.1f} ms  {status}  {size:>9,} B  {path}")
        times = [a[2] for a in firsts]
        print(f"  {len(times)} rutas: mediana {statistics.median(times):.1f} ms, la peor {max(times):.1f} ms")
        every = run(repo, args.db, routes)
        print(f"  memoria después de una ruta de cada plantilla: +{every['rss'] / 2**20:.1f} MB")
        pub = run(repo, args.db, versioned)["answers"]
        for label in ("/v1/cotizaciones/dolares/blue?", "/v1/finanzas/indices/riesgo-pais/ultimo?"):
            ms = [a[2] for a in pub if a[0].startswith(label) and a[1] == 200]
            if ms:
                print(
                    f"  publicado={{día nuevo}} en {label[:-1]}: mediana {statistics.median(ms):.1f} ms, peor {max(ms):.1f}"
                )


if __name__ == "__main__":
    main()
