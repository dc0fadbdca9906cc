"""Benchmark of the builder (a benchmark, not a test: it prints figures, it asserts nothing).

    .venv/bin/python benchmarks/bench_build.py [--source DIR] [--history DIR] [--repeat N]

In one run it measures, on the same machine and the same files:
- a full build (``build-db --force``, as a child process: wall and CPU seconds, peak RSS);
- a rebuild with nothing changed (the fingerprint check only);
- the database size over the bytes of JSON the build read (the ``fuentes`` table's
  ``bytes``), and over the whole mirror for reference;
- the raw reference to read the build time against: parsing every source file with
  orjson, plus inserting the biggest dataset's rows with plain sqlite3 executemany
  into a table with no keys, no indexes and no checks; and the ratio build / reference;
- the same full build on a mirror with N times the FCI dates (symlinks): seconds per
  100,000 rows and peak RSS at 1x and Nx.

Targets (issue 8, 2-core machine): full build <= 2.5x the raw reference, no-change rebuild
<= 3 s, size ratio <= 0.35, peak RSS that does not grow with the number of FCI dates.
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from argentina_datos.catalogo import DATASETS  # noqa: E402
from argentina_datos.construccion.constructor import Builder  # noqa: E402
from argentina_datos.construccion.fuentes import DirectorySource  # noqa: E402


def timed(fn, repeat: int = 1):
    """Best of ``repeat`` runs (the least disturbed by the rest of the machine):
    wall-clock seconds, CPU seconds of this process, and the last result."""
    best, best_cpu, result = None, None, None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = fn()
        elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        best = elapsed if best is None else min(best, elapsed)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    return best, best_cpu, result


def build_process(source: Path, history, out: Path, repeat: int = 1, extra: tuple = ("--sin-versiones",), force=True):
    """``build-db --force`` in a child process, best of ``repeat``: wall seconds, CPU seconds
    (user + sys) and peak RSS in MB of that process, from the kernel's accounting of it.  ``extra``: more
    options (by default the bundle of every version is left out: it is measured on its own)."""
    cmd = [
        sys.executable,
        "-m",
        "argentina_datos.construccion.cli",
        "--source",
        str(source),
        "--output",
        str(out),
        *(["--force"] if force else []),
        *extra,
    ]
    global LAST_STDERR
    cmd += ["--history", str(history)] if history else []
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        err = proc.stderr.read()
        LAST_STDERR = err.decode(errors="replace")
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise SystemExit(f"build-db falló ({proc.returncode}): {err.decode()[-500:]}")
        figures = (elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
        best = figures if best is None or figures[0] < best[0] else best
    with sqlite3.connect(out) as con:
        rows = con.execute("SELECT SUM(registros) FROM fuentes").fetchone()[0]
    return (*best, rows)


LAST_STDERR = ""  # what the last build printed (the versions line tells the MB of versions it read)


def versions_read_mb(stderr: str) -> float:
    found = re.search(r"versiones: .*\(([0-9.,]+) MB leídos\)", stderr)
    return float(found.group(1).replace(",", "")) if found else 0.0


def mirror_bytes(*roots: Path) -> tuple[int, int]:
    total = files = 0
    for root in roots:
        if root and root.is_dir():
            for p in root.rglob("*.json"):
                total += p.stat().st_size
                files += 1
    return total, files


def all_files(source: DirectorySource) -> list[Path]:
    paths = []
    for ds in DATASETS:
        for src in ds.sources:
            paths += [Path(source.path(r, src.history)) for r in source.expand(ds, src)]
    return paths


def parse_all(paths: list[Path]) -> int:
    n = 0
    for p in paths:
        orjson.loads(p.read_bytes())
        n += 1
    return n


def biggest_dataset(db_path: Path):
    with sqlite3.connect(db_path) as con:
        rows = con.execute(
            "SELECT tabla, SUM(registros) FROM fuentes GROUP BY tabla ORDER BY 2 DESC LIMIT 1"
        ).fetchone()
    return next(ds for ds in DATASETS if ds.table == rows[0])


def plain_insert(source: DirectorySource, dataset) -> tuple[float, int]:
    """Rows of ``dataset`` as flat tuples of its top-level values, inserted with executemany.

    Parsing is done before the clock starts: this is the cost of SQLite alone.
    """
    rows = []
    names = dataset.field_names
    for src in dataset.sources:
        for route in source.expand(dataset, src):
            data = orjson.loads(source.read(route, src.history))
            records = data[dataset.envelope_list] if dataset.envelope_list else data
            prefix = (route,)
            for i, r in enumerate(records):
                rows.append(prefix + (i,) + tuple(r.get(n) for n in names))
    width = len(names) + 2
    with tempfile.TemporaryDirectory() as tmp:
        con = sqlite3.connect(os.path.join(tmp, "plain.db"), isolation_level=None)
        con.execute("PRAGMA journal_mode = MEMORY")
        con.execute("PRAGMA synchronous = OFF")
        con.execute(f"CREATE TABLE t ({', '.join(f'c{i}' for i in range(width))})")
        start = time.perf_counter()
        con.execute("BEGIN")
        con.executemany(f"INSERT INTO t VALUES ({', '.join('?' * width)})", rows)
        con.execute("COMMIT")
        elapsed = time.perf_counter() - start
        con.close()
    return elapsed, len(rows)


def grown_mirror(root: Path, dest: Path, times: int) -> int:
    """A mirror ``times`` as big in FCI dates, made of symlinks (no data is copied).

    Every dated FCI listing v1/finanzas/fci/<categoria>/AAAA/MM/DD is also published
    under the years AAAA+100, AAAA+200...: the way the mirror grows, more dates.
    Returns how many files were added.
    """
    added = 0
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = Path(dirpath) / name
            rel = path.relative_to(root)
            targets = [rel]
            parts = rel.parts
            if parts[:3] == ("v1", "finanzas", "fci") and len(parts) == 8 and parts[4].isdigit():
                for k in range(1, times):
                    targets.append(Path(*parts[:4], str(int(parts[4]) + 100 * k), *parts[5:]))
            for t in targets:
                (dest / t).parent.mkdir(parents=True, exist_ok=True)
                (dest / t).symlink_to(path)
            added += len(targets) - 1
    return added


def main(argv=None) -> int:
    shared = REPO.parent / "shared"
    p = argparse.ArgumentParser(description="Mide la construcción de la base (no es una prueba: no afirma nada).")
    p.add_argument("--source", type=Path, default=Path(os.environ.get("ARGENTINA_DATOS_SOURCE", shared / "upstream")))
    p.add_argument("--history", type=Path, default=shared / "upstream-history")
    p.add_argument("--repeat", type=int, default=1, help="repeticiones de cada medición; se informa la mejor")
    p.add_argument(
        "--versiones",
        type=Path,
        default=shared / "upstream-versions" / "upstream.bundle",
        help="paquete git de versiones: su primera lectura, una reconstrucción sin cambios y una con --force "
        "(que copia lo guardado) se miden aparte",
    )
    p.add_argument(
        "--escala",
        type=int,
        default=2,
        help="también construye un espejo con N veces las fechas de FCI (enlaces simbólicos) "
        "para ver si el tiempo crece linealmente; 1 = no (por defecto %(default)s)",
    )
    args = p.parse_args(argv)
    history = args.history if args.history.is_dir() else None

    def source():
        return DirectorySource(args.source, history)

    print(f"fuente: {args.source}" + (f" (+ {history})" if history else ""))
    print(f"máquina: {os.cpu_count()} núcleo(s), Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "argentina.db"
        full, cpu, rss, rows = build_process(args.source, history, out, args.repeat)
        unchanged, _, again = timed(lambda: Builder(source(), out).run(), args.repeat)
        size = out.stat().st_size
        with sqlite3.connect(out) as con:
            read_bytes, read_files = con.execute("SELECT SUM(bytes), COUNT(*) FROM fuentes").fetchone()
            page_size = con.execute("PRAGMA page_size").fetchone()[0]
            tables = (
                con.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 6").fetchall()
                if _has_dbstat(con)
                else []
            )
            per_table = con.execute(
                "SELECT tabla, SUM(registros) FROM fuentes GROUP BY tabla ORDER BY 2 DESC LIMIT 5"
            ).fetchall()
        bundle = None
        if args.versiones.is_file():
            with_bundle = Path(tmp) / "con-versiones.db"
            first = build_process(args.source, history, with_bundle, extra=("--versiones", str(args.versiones)))
            versions_mb = versions_read_mb(LAST_STDERR)
            again_wall, *_ = build_process(
                args.source, history, with_bundle, extra=("--versiones", str(args.versiones)), force=False
            )
            carried = build_process(args.source, history, with_bundle, extra=("--versiones", str(args.versiones)))
            with sqlite3.connect(with_bundle) as con:
                stored = con.execute("SELECT count(*) FROM versiones").fetchone()[0]
                record_rows = con.execute("SELECT count(*) FROM versiones_registros").fetchone()[0]
                read = con.execute("SELECT SUM(bytes) FROM fuentes").fetchone()[0]
            bundle = (first, again_wall, carried, stored, record_rows, with_bundle.stat().st_size, read, versions_mb)
        grown = None
        if args.escala > 1:
            mirror_dir = Path(tmp) / "espejo"
            extra = grown_mirror(args.source.resolve(), mirror_dir, args.escala)
            big_out = Path(tmp) / "grande.db"
            g_time, g_cpu, g_rss, g_rows = build_process(mirror_dir, history, big_out, args.repeat)
            grown = (extra, g_time, g_cpu, g_rss, g_rows, big_out.stat().st_size)
        # The references last: a child forked after this process holds the rows of the plain
        # insert would start with (and report) their memory.
        big = biggest_dataset(out)
        paths = all_files(source())
        parse, _, _ = timed(lambda: parse_all(paths), args.repeat)
        insert, insert_rows = plain_insert(source(), big)

    mirror, mirror_files = mirror_bytes(args.source, history)
    mb = 1024 * 1024
    reference = parse + insert
    print(
        f"construcción completa (--force): {full:6.2f} s  ({rows:,} filas de {read_files:,} archivos;"
        f" CPU {cpu:.2f} s; memoria máxima {rss:.0f} MB)"
    )
    print(f"reconstrucción sin cambios:      {unchanged:6.2f} s  (sin cambios: {again.unchanged})")
    print(f"tamaño de la base:               {size / mb:6.1f} MB  (página de {page_size} bytes)")
    print(f"bytes leídos (fuentes.bytes):    {read_bytes / mb:6.1f} MB  -> base / leídos = {size / read_bytes:.3f}")
    print(
        f"espejo completo (*.json):        {mirror / mb:6.1f} MB en {mirror_files:,} archivos"
        f"  -> base / espejo = {size / mirror:.3f}"
    )
    print("referencia cruda medida en esta misma corrida:")
    print(f"  leer y parsear con orjson los {len(paths):,} archivos: {parse:6.2f} s")
    print(f"  insertar {insert_rows:,} filas de {big.table} con executemany plano: {insert:6.2f} s")
    print(
        f"  parseo + inserción plana: {reference:6.2f} s  -> construcción / referencia = {full / reference:.2f}x"
        f" (meta <= 2.5x)"
    )
    if bundle:
        first, again_wall, carried, stored, record_rows, b_size, b_read, versions_mb = bundle
        print(f"paquete de versiones ({args.versiones}, {args.versiones.stat().st_size / mb:.1f} MB):")
        print(
            f"  primera lectura (construcción completa con el paquete): {first[0]:6.2f} s,"
            f" {first[0] - full:+.2f} s sobre la construcción sin él (meta <= 60 s); memoria máxima {first[2]:.0f} MB"
        )
        print(
            f"  reconstrucción sin cambios:  {again_wall:6.2f} s  (meta <= 2 s más que sin el paquete: {unchanged:.2f} s)"
        )
        print(
            f"  --force sobre la base con versiones (copia lo guardado, no relee el paquete): {carried[0]:6.2f} s"
            f" ({carried[0] - full:+.2f} s)"
        )
        print(
            f"  {stored:,} versiones en {record_rows:,} filas de versiones_registros; base {b_size / mb:.1f} MB"
            f" -> base / archivos del espejo leídos = {b_size / b_read:.3f}; contando los {versions_mb:,.0f} MB de"
            f" versiones leídas, base / leídos = {b_size / (b_read + versions_mb * mb):.3f} (meta <= 0.55)"
        )
    if grown:
        extra, g_time, g_cpu, g_rss, g_rows, g_size = grown
        print(
            f"linealidad: espejo con {args.escala}x fechas de FCI (+{extra:,} archivos):"
            f" {g_time:.2f} s (CPU {g_cpu:.2f} s), {g_rows:,} filas, {g_size / mb:.1f} MB,"
            f" memoria máxima {g_rss:.0f} MB"
        )
        print(
            f"  segundos por 100.000 filas: {100_000 * full / rows:.3f} (1x) y {100_000 * g_time / g_rows:.3f}"
            f" ({args.escala}x); CPU {100_000 * cpu / rows:.3f} y {100_000 * g_cpu / g_rows:.3f}"
        )
        print(
            f"  costo marginal de las filas agregadas: {100_000 * (g_time - full) / (g_rows - rows):.3f}"
            f" s por 100.000 filas (CPU {100_000 * (g_cpu - cpu) / (g_rows - rows):.3f})"
        )
        print(f"  memoria máxima: {rss:.0f} MB (1x) y {g_rss:.0f} MB ({args.escala}x) -> {g_rss / rss:.2f}x")
    if tables:
        print("objetos más grandes de la base:")
        for name, nbytes in tables:
            print(f"  {name:<40} {nbytes / mb:6.1f} MB")
    print("conjuntos de datos más grandes (registros):")
    for table, n in per_table:
        print(f"  {table:<40} {n:>10,}")
    return 0


def _has_dbstat(con) -> bool:
    try:
        con.execute("SELECT 1 FROM dbstat LIMIT 1")
        return True
    except sqlite3.Error:
        return False


if __name__ == "__main__":
    sys.exit(main())
