"""What a search of the catalogue of series costs at its size (issue 43): a benchmark, it prints figures and
asserts nothing.

    .venv/bin/python benchmarks/bench_series.py [--db build/argentina-test.db] [--repeat 20] [--catalogo]

A mix of searches and filters of /v1/series (what people type: a bank, a fund, the REM, a word thousands of
series have), each answered uncached by the Responder (as /v1 answers a request it has no cache for) and turned
into JSON, ``--repeat`` times; prints each query's median and the p95 of the whole mix.  Target: p95 ≤ 50 ms.
With ``--catalogo``, also how long writing the catalogue (the build's step: every series' span and names) takes
on a copy of the database.
"""

from __future__ import annotations

import argparse
import datetime as dt
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl

import orjson

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from argentina_datos.respuestas.catalogo_series import LIST_PATH  # noqa: E402
from argentina_datos.respuestas.consulta import Query  # noqa: E402
from argentina_datos.respuestas.responder import Responder  # noqa: E402

MIX = [
    "q=plazo fijo galicia",
    "q=balanz money market usd",
    "q=rem inflación",
    "q=blue",
    "q=inflacion",
    "q=dolar",
    "q=fci",
    "q=fondo",
    "q=tna",
    "q=plazo fijo",
    "q=santander",
    "q=money market",
    "q=renta fija dolares",
    "q=rem tipo de cambio 2026",
    "q=riesgo pais",
    "q=uva",
    "q=cuotaparte",
    "q=mediana",
    "q=fondo&moneda=USD",
    "tema=fci&moneda=usd",
    "tema=tasas",
    "q=renta&categoria=rentaFija",
    "q=prestamo personal",
    "q=bono cer tir",
    "q=rendimiento usdt",
    "tema=bonos&ticker=TZXO6",
    "",
    "pagina=50",
]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--db", type=Path, default=REPO / "build" / "argentina-test.db")
    p.add_argument("--repeat", type=int, default=20)
    p.add_argument("--catalogo", action="store_true", help="also time writing the catalogue, on a copy")
    args = p.parse_args(argv)
    conn = sqlite3.connect(f"file:{args.db}?mode=ro&immutable=1", uri=True)
    (count,) = conn.execute("SELECT count(*) FROM series").fetchone()
    print(f"series en el catálogo: {count:,}".replace(",", "."))
    responder = Responder()
    every = []
    for text in MIX:
        params = dict(parse_qsl(text))
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            answer = responder.answer_series(conn, LIST_PATH, params, Query())
            orjson.dumps(answer.data)
            times.append(time.perf_counter() - start)
        assert answer.status == 200, (text, answer.data)
        every += times
        print(
            f"  /v1/series?{text:<32} {len(answer.data):>4} series  mediana {statistics.median(times) * 1000:6.1f} ms"
        )
    every.sort()
    p95 = every[int(len(every) * 0.95) - 1]
    print(f"mezcla de {len(MIX)} consultas × {args.repeat}: p50 {statistics.median(every) * 1000:.1f} ms, ", end="")
    print(f"p95 {p95 * 1000:.1f} ms, máx. {every[-1] * 1000:.1f} ms (objetivo: p95 ≤ 50 ms)")
    if args.catalogo:
        from argentina_datos.construccion import tabla_series

        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "copia.db"
            shutil.copy(args.db, copy)
            db = sqlite3.connect(copy)
            db.execute("DROP TABLE IF EXISTS series_fts")
            db.execute("DROP TABLE series")
            start = time.perf_counter()
            tabla_series.write(db, dt.date.today(), "unicode61 remove_diacritics 2")
            db.commit()
            print(f"escribir el catálogo (la tabla series y su búsqueda): {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
