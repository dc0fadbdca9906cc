"""What variacion and ajustar=ipc cost (issue 21): a benchmark, it prints figures and asserts nothing.

    .venv/bin/python benchmarks/bench_variaciones.py [--db build/argentina-test.db] [--repeat 7]

For each query: the first answer on a fresh /v1 (its maxima computed first, as a running server has
them; the CPI not read yet), the same uncached once the CPI is read, and the plain route's uncached
answer; then the cached answer of each through web/v1 (what a repeated request costs).  Target:
the first .../dolares/blue?ajustar=ipc&agrupar=mes&variacion=interanual under 100 ms, and a cached
answer with the parameters costing what a cached plain one costs.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from argentina_datos.respuestas.consulta import parse  # noqa: E402
from argentina_datos.respuestas.responder import Responder  # noqa: E402
from argentina_datos.web.v1.api import V1  # noqa: E402

ROUTE = "/v1/cotizaciones/dolares/blue"
QUERIES = ["ajustar=ipc&agrupar=mes&variacion=interanual", "variacion=relativa", "ajustar=ipc"]


def ms(seconds: list[float]) -> str:
    return f"mediana {statistics.median(seconds) * 1000:.1f} ms (mín. {min(seconds) * 1000:.1f})"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--db", type=Path, default=REPO / "build" / "argentina-test.db")
    p.add_argument("--repeat", type=int, default=7)
    args = p.parse_args(argv)
    conn = sqlite3.connect(f"file:{args.db}?mode=ro&immutable=1", uri=True)
    for text in QUERIES:
        query = parse(text)
        first, again, plain = [], [], []
        for _ in range(args.repeat):
            responder = Responder()
            responder.answer(conn, "/v1/feriados/2025")  # the maxima, as a server computes them first
            start = time.perf_counter()
            assert responder.answer(conn, ROUTE, query).status == 200
            first.append(time.perf_counter() - start)
            start = time.perf_counter()
            responder.answer(conn, ROUTE, query)
            again.append(time.perf_counter() - start)
            start = time.perf_counter()
            responder.answer(conn, ROUTE)
            plain.append(time.perf_counter() - start)
        print(f"{ROUTE}?{text}")
        print(f"  primera respuesta (sin caché, IPC sin leer): {ms(first)}")
        print(f"  sin caché, IPC ya leído:                     {ms(again)}")
        print(f"  la ruta sin parámetros, sin caché:           {ms(plain)}")
    v1 = V1()
    for key, query in ((ROUTE, parse("")), (f"{ROUTE}?{QUERIES[0]}", parse(QUERIES[0]))):
        v1.remember(key, v1.compute(conn, key.split("?")[0], query))
        start = time.perf_counter()
        for _ in range(100_000):
            v1.cached(key)
        print(f"en caché {key}: {(time.perf_counter() - start) * 10:.2f} µs por pedido")
    return 0


if __name__ == "__main__":
    sys.exit(main())
