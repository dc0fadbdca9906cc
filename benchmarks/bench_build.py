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
- where the build's time goes, from the same build's per-dataset lines (the FCI load,
  fci_serie, the other datasets, what comes after the loads, the start of the process) and
  from a second, in-process build with its phases timed (the audit, indexes, analyze...);
  next to the floor of each big part: the FCI rows inserted with executemany into
  fci_valores's real schema (its primary key, WITHOUT ROWID, lookup ids), and fci_serie's
  rows copied by SQL into its real table, with its index; and what the build would take
  with those two parts at their floor;
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

from argentina_datos.almacen.tablas import Layout, quote  # noqa: E402
from argentina_datos.catalogo import DATASETS, DERIVED_TABLES  # noqa: E402
from argentina_datos.construccion import constructor, contrastes, derivadas  # noqa: E402
from argentina_datos.construccion.cli import default_references  # noqa: E402
from argentina_datos.construccion.constructor import Builder  # noqa: E402
from argentina_datos.construccion.fuentes import DirectorySource, Upstream, partition_values  # noqa: E402


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
        "argentina_datos.construccion.comando",
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
    create = f"CREATE TABLE t ({', '.join(f'c{i}' for i in range(width))})"
    return timed_insert([create], f"INSERT INTO t VALUES ({', '.join('?' * width)})", rows), len(rows)


def timed_insert(create: list[str], insert: str, rows: list) -> float:
    """Seconds of one executemany of ``rows`` in one transaction, into the tables ``create`` makes in a new file."""
    with tempfile.TemporaryDirectory() as tmp:
        con = sqlite3.connect(os.path.join(tmp, "plain.db"), isolation_level=None)
        con.execute("PRAGMA journal_mode = MEMORY")
        con.execute("PRAGMA synchronous = OFF")
        for statement in create:
            con.execute(statement)
        start = time.perf_counter()
        con.execute("BEGIN")
        con.executemany(insert, rows)
        con.execute("COMMIT")
        elapsed = time.perf_counter() - start
        con.close()
    return elapsed


def keyed_insert(source: DirectorySource, dataset) -> tuple[float, int]:
    """The rows of ``dataset`` as the build stores them (lookup ids, the record's position), inserted with
    executemany into its real tables (Layout.create_sql: primary key, WITHOUT ROWID): the floor of its load.

    Parsing and the lookup ids are done before the clock starts, as in ``plain_insert``.
    """
    layout = Layout(dataset)
    ids: dict[str, dict] = {c: {} for c in layout.lookups}

    def stored(column, value):
        if column not in ids or value is None:
            return value
        return ids[column].setdefault(value, len(ids[column]) + 1)

    rows = []
    for src in dataset.sources:
        for route in source.expand(dataset, src):
            data = orjson.loads(source.read(route, src.history))
            records = data[dataset.envelope_list] if dataset.envelope_list else data
            parts = partition_values(dataset, src, route)
            prefix = tuple(stored(p.name, parts[p.name]) for p in layout.partition_only)
            for i, r in enumerate(records):
                rows.append(prefix + (i,) + tuple(stored(c, r.get(c)) for c in layout.field_columns))
    insert = f"INSERT INTO {quote(layout.table)} VALUES ({', '.join('?' * len(layout.insert_columns))})"
    return timed_insert(layout.create_sql(), insert, rows), len(rows)


def derived_copy(db_path: Path) -> tuple[str, int, float, float]:
    """The biggest derived table's floor: its built rows copied by SQL alone (no Python per row) into an empty
    table of its real schema, in its key order, then its indexes; rolled back.  Returns the table, its rows and
    the seconds of each."""
    con = sqlite3.connect(db_path, isolation_level=None)
    counts = {d.table: con.execute(f"SELECT count(*) FROM {quote(d.table)}").fetchone()[0] for d in DERIVED_TABLES}
    derived = max(DERIVED_TABLES, key=lambda d: counts[d.table])
    copy = quote(derived.table + "_copia")
    con.execute("BEGIN")
    con.execute(derivadas.create_sql(derived).replace(quote(derived.table), copy, 1))
    start = time.perf_counter()
    con.execute(f"INSERT INTO {copy} SELECT * FROM {quote(derived.table)}")
    insert = time.perf_counter() - start
    start = time.perf_counter()
    for n, cols in enumerate(derived.indexes):
        con.execute(f"CREATE INDEX {quote(f'copia_{n}')} ON {copy} ({', '.join(map(quote, cols))})")
    index = time.perf_counter() - start
    con.execute("ROLLBACK")
    con.close()
    return derived.table, counts[derived.table], insert, index


def phases_of(stderr: str, big_table: str) -> dict[str, float]:
    """Seconds of the build's parts, from its own lines: the biggest dataset's load, each derived table, the
    other loads (their sum), the total the build printed; what is left of the total comes after the loads."""
    loads = {
        t: float(s) for t, s in re.findall(r"^(\w+): [\d,]+ filas? de [\d,]+ archivos? en ([\d.]+) s", stderr, re.M)
    }
    derived = {
        t: float(s)
        for t, s in re.findall(r"^(\w+): [\d,]+ filas? calculadas de otras tablas en ([\d.]+) s", stderr, re.M)
    }
    total = re.search(r"filas en \d+ conjuntos de datos, ([\d.]+) s\.", stderr)
    versions = re.search(r"^versiones: .*\(([\d.]+) s\)$", stderr, re.M)
    out = {"carga de " + big_table: loads.pop(big_table, 0.0)}
    out.update(derived)
    out["carga de los demás conjuntos"] = sum(loads.values())
    out["versiones"] = float(versions.group(1)) if versions else 0.0
    out["total"] = float(total.group(1)) if total else 0.0
    return out


def timed_phases(source: Upstream, out: Path) -> dict[str, float]:
    """A full build in this process with the builder's phases after the loads timed (wrapped for this run only):
    where "everything else" goes."""
    phases: dict[str, float] = {}
    wrapped = [
        (constructor, "audit", "auditoría (controles de calidad)"),
        (contrastes, "frozen_values", "  de ella: valor congelado"),
        (contrastes, "impossible_spreads", "  de ella: diferencia compra-venta imposible"),
        (contrastes, "compounded_disagreements", "  de ella: series en desacuerdo"),
        (contrastes, "published_figures", "  de ella: cifras publicadas"),
        (constructor.tabla_series, "write", "tabla series"),
        (constructor.Builder, "_link", "columnas enlazadas"),
        (constructor.Builder, "_finish", "cierre: claves repetidas, índices, auditoría, tablas propias, FTS"),
        (constructor.Builder, "_analyze", "ANALYZE"),
        (constructor.Builder, "_check", "quick_check"),
        (derivadas, "complete", "índice y vista de las tablas calculadas"),
    ]
    originals = [(owner, name, owner.__dict__[name]) for owner, name, _ in wrapped]

    def timing(fn, label):
        def run(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                phases[label] = phases.get(label, 0.0) + time.perf_counter() - start

        return run

    for owner, name, label in wrapped:
        original = owner.__dict__[name]
        if isinstance(original, staticmethod):
            setattr(owner, name, staticmethod(timing(original.__func__, label)))
        else:
            setattr(owner, name, timing(original, label))
    try:
        start = time.perf_counter()
        Builder(source, out).run(force=True)
        phases["total (en este proceso)"] = time.perf_counter() - start
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)
    return phases


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
        build_lines = LAST_STDERR
        # with the published figures build-db found beside the source: without them the build is not the same
        references = default_references(str(args.source))
        unchanged, _, again = timed(lambda: Builder(source(), out, references=references).run(), args.repeat)
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
        detail = timed_phases(source(), Path(tmp) / "fases.db")
        derived_floor = derived_copy(out)
        paths = all_files(source())
        big_paths = [Path(source().path(r, s.history)) for s in big.sources for r in source().expand(big, s)]
        parse, _, _ = timed(lambda: parse_all(paths), args.repeat)
        big_parse, _, _ = timed(lambda: parse_all(big_paths), args.repeat)
        insert, insert_rows = plain_insert(source(), big)
        keyed, _ = keyed_insert(source(), big)

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
    phases = phases_of(build_lines, big.table)
    built = phases.pop("total")
    phases["el resto: plan, enlaces, series, documentos, cierre (auditoría, índices, FTS), ANALYZE, quick_check"] = (
        built - sum(phases.values())
    )
    phases["arranque del proceso (imports) y reemplazo del archivo"] = full - built
    print(f"dónde va la construcción ({full:.2f} s, de sus propias líneas):")
    for label, seconds in phases.items():
        print(f"  {label:<95} {seconds:6.2f} s  {seconds / full:5.1%}")
    print("  lo que hace falta sí o sí para cada parte (medido en esta misma corrida):")
    big_load = phases["carga de " + big.table]
    print(
        f"    {big.table}: parsear sus {len(big_paths):,} archivos {big_parse:.2f} s + insertar sus filas en su tabla real"
        f" (clave primaria, WITHOUT ROWID, ids) {keyed:.2f} s = {big_parse + keyed:.2f} s"
        f" -> su carga / eso = {big_load / (big_parse + keyed):.2f}x"
        f" (en la tabla sin clave: {insert:.2f} s)"
    )
    table, derived_rows, copy_insert, copy_index = derived_floor
    print(
        f"    {table}: copiar con SQL sus {derived_rows:,} filas a su tabla real {copy_insert:.2f} s + sus índices"
        f" {copy_index:.2f} s = {copy_insert + copy_index:.2f} s -> su cálculo / eso ="
        f" {phases[table] / (copy_insert + copy_index):.2f}x (el resto: elegir la fila de cada fondo y día y su moneda)"
    )
    floor = parse + keyed + copy_insert + copy_index
    print(
        f"    parseo de todo + inserción de {big.table} con clave + copia de {table} con sus índices: {floor:6.2f} s"
        f"  -> construcción / eso = {full / floor:.2f}x; eso / referencia cruda = {floor / reference:.2f}x"
    )
    at_floor = full - (big_load - big_parse - keyed) - (phases[table] - copy_insert - copy_index)
    print(
        f"    con la carga de {big.table} y {table} en su piso y lo demás igual, la construcción sería {at_floor:.2f} s"
        f" -> {at_floor / reference:.2f}x la referencia cruda"
    )
    print(
        "  la misma construcción dentro de este proceso, por fase (las fases se solapan: el cierre incluye la auditoría):"
    )
    for label, seconds in detail.items():
        print(f"    {label:<70} {seconds:6.2f} s")
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
