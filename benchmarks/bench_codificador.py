"""What the column-at-a-time writer buys (issue 45): a benchmark, it prints figures and asserts nothing.

    .venv/bin/python benchmarks/bench_codificador.py [--mirror ../shared/upstream] [--archivos 600] [--rondas 4]

Writes the same FCI daily listings of the mirror (the dataset fci_valores, the build's largest load) into an
in-memory database twice per round: through ``Codec.encode_columns`` and the column insert of
almacen/filas.py, and record by record (``encode`` alone, as for a file with something odd).  Prints each
way's seconds, the best of the rounds, and what all of fci_valores' files would take at that rate (the sample is spread over them).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import time
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from argentina_datos.almacen import calidad  # noqa: E402
from argentina_datos.almacen.filas import RowWriter  # noqa: E402
from argentina_datos.almacen.registros import Codec  # noqa: E402
from argentina_datos.almacen.tablas import Layout  # noqa: E402
from argentina_datos.catalogo import BY_TABLE  # noqa: E402

DATASET = BY_TABLE["fci_valores"]


def listings(paths: list[Path], most: int) -> list[tuple[dict, list]]:
    """(path values, records) of ``most`` of these files of /v1/finanzas/fci/{categoria}/{AAAA}/{MM}/{DD}, spread
    evenly over them (the early listings are shorter than the recent ones)."""
    out = []
    for f in paths[:: max(1, len(paths) // most)][:most]:
        categoria, y, m, d = f.parts[-5:-1]
        out.append(({"categoria": categoria, "listado": f"{y}-{m}-{d}"}, orjson.loads(f.read_bytes())))
    return out


def write_all(files: list[tuple[dict, list]]) -> float:
    writer = RowWriter(sqlite3.connect(":memory:"), Layout(DATASET), calidad.DateChecker())
    writer.create_tables()
    start = time.perf_counter()
    for values, records in files:
        writer.write(records, values, "bench")
    return time.perf_counter() - start


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mirror", type=Path, default=REPO.parent / "shared" / "upstream")
    p.add_argument("--archivos", type=int, default=600)
    p.add_argument("--rondas", type=int, default=4)
    args = p.parse_args(argv)
    paths = sorted(args.mirror.glob("v1/finanzas/fci/*/[0-9]*/[0-9]*/[0-9]*/index.json"))
    files = listings(paths, args.archivos)
    if not files:
        print(f"no hay listados de FCI por fecha en {args.mirror}", file=sys.stderr)
        return 2
    records = sum(len(r) for _, r in files)
    total = len(paths)
    by_columns = Codec.encode_columns
    times: dict[str, list[float]] = {"por columnas": [], "registro a registro": []}
    try:
        for _ in range(args.rondas):
            Codec.encode_columns = by_columns  # type: ignore[method-assign]
            times["por columnas"].append(write_all(files))
            Codec.encode_columns = lambda self, records: None  # type: ignore[method-assign]
            times["registro a registro"].append(write_all(files))
    finally:
        Codec.encode_columns = by_columns  # type: ignore[method-assign]
    print(f"{len(files)} archivos de fci_valores, {records:,} registros; {args.rondas} rondas alternadas")
    for way, seconds in times.items():
        best = min(seconds)
        print(
            f"  {way:<20} mejor {best:.2f} s ({records / best:,.0f} registros/s); "
            f"rondas {', '.join(f'{s:.2f}' for s in seconds)}; los {total:,} archivos: ~{best * total / len(files):.1f} s"
        )
    ratio = min(times["registro a registro"]) / min(times["por columnas"])
    print(f"  registro a registro / por columnas: {ratio:.2f}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
