"""Command line of the builder: ``build-db`` / ``python build_db.py``."""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import shutil
import sqlite3
import sys
import time
import traceback
from pathlib import Path
from typing import Optional

from argentina_datos import __version__
from argentina_datos.almacen import archivo
from argentina_datos.construccion import fuente_fresca, respaldo
from argentina_datos.construccion.constructor import Builder, BuildError, BuildLock, Outcome, Reporter
from argentina_datos.construccion.fuentes import PreviousBuild, PreviousUnreadable, SourceError, open_source
from argentina_datos.construccion.paquete import default_bundle
from argentina_datos.construccion.repositorio import GitSource, is_git
from argentina_datos.respuestas import frescura
from argentina_datos.respuestas.catalogo_series import today

PUBLIC_API = "https://api.argentinadatos.com"
# Upstream's data lives here since February 2026 (the earlier esjs-argentina-datos-api stopped on 2026-02-22).
UPSTREAM_REPOSITORY = "git+https://github.com/enzonotario/argentinadatos.com"


def default_api() -> str:
    return os.environ.get("ARGENTINA_DATOS_API") or PUBLIC_API


def default_source(api: str) -> str:
    """Upstream's own repository when git is installed (every file exactly, and an update fetches only what
    changed: docs/construir.md), else its public API over HTTP."""
    return UPSTREAM_REPOSITORY if shutil.which("git") else api


def plural(n: int, cosa: str) -> str:
    return f"{n:,} {cosa}" if n == 1 else f"{n:,} {cosa}s"


def outcome_line(o: Outcome) -> str:
    if o.missing:
        return f"{o.table}: la fuente no lo tiene (sin archivos)"
    if o.error:
        return f"{o.table}: OMITIDO — {o.error}"
    if o.computed:
        return f"{o.table}: {plural(o.rows, 'fila')} calculadas de otras tablas en {o.seconds:.2f} s"
    line = f"{o.table}: {plural(o.rows, 'fila')} de {plural(o.files, 'archivo')} en {o.seconds:.2f} s"
    if o.added:
        line += f" (leídos solo los nuevos: {o.added:,}; los demás, de la construcción anterior)"
    if o.skipped_files:
        line += f" ({skipped_text(len(o.skipped_files))})"
    return line


def skipped_text(n: int) -> str:
    return f"{plural(n, 'archivo')} omitido{'s' if n > 1 else ''}"


class LineReporter(Reporter):
    """One line per dataset: for logs and CI.  The quality findings (``finding``: one line per table and check,
    ~50 on the mirror) are counted, and listed only with ``detail`` (--detalle): they are all in the calidad
    table, and a wall of «aviso:» lines read as if the build had gone wrong."""

    detail = False

    def __init__(self, stream=None, detail: bool = False):
        self.stream = stream or sys.stderr
        self.detail = detail

    def finding(self, line: str) -> None:
        if self.detail:
            self.warn(line)

    def download(self, table: str, total: int):
        """HTTP mode asks for every candidate route first: say so, it can take minutes."""
        print(f"{table}: consultando {plural(total, 'ruta')} en la fuente...", file=self.stream, flush=True)
        return lambda n: None

    def done(self, o: Outcome) -> None:
        print(outcome_line(o), file=self.stream, flush=True)

    def warn(self, line: str) -> None:
        print(f"aviso: {line}", file=self.stream, flush=True)

    def message(self, line: str) -> None:
        print(line, file=self.stream, flush=True)


class BarReporter(LineReporter):
    """A progress bar per dataset on a terminal."""

    def __init__(self, console=None, detail: bool = False):
        self.detail = detail
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.console = console or Console(stderr=True)
        self.progress = Progress(
            TextColumn("{task.description:<34}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=self.console,
            transient=False,
        )
        self.progress.start()
        self.tasks: dict = {}

    def start(self, table: str, total: int):
        task = self.progress.add_task(table, total=total)
        self.tasks[table] = task
        return lambda n: self.progress.advance(task, n)

    def download(self, table: str, total: int):
        return self.start(f"{table} (consultas HTTP)", total)

    def done(self, o: Outcome) -> None:
        task = self.tasks.get(o.table)
        if task is None:
            task = self.progress.add_task(o.table, total=1)
        if o.missing or o.error:
            label = f"{o.table} ({'falta' if o.missing else 'OMITIDO'})"
        elif o.skipped_files:
            label = f"{o.table} ({skipped_text(len(o.skipped_files))})"
        else:
            label = o.table
        self.progress.update(
            task, description=f"{label} {plural(o.rows, 'fila')}", completed=self.progress.tasks[task].total
        )

    def warn(self, line: str) -> None:
        self.progress.console.print(f"[yellow]aviso:[/] {line}", highlight=False, markup=True)

    def message(self, line: str) -> None:
        self.progress.console.print(line, highlight=False, markup=False)

    def close(self) -> None:
        self.progress.stop()


def is_http(source: str) -> bool:
    return source.startswith(("http://", "https://"))


def http_summary(counts) -> str:
    files = ", ".join(
        f"{counts.get(k, 0):,} {k}"
        for k in (
            "sin cambios",
            "sin cambios (sin pedir)",
            "nuevos",
            "cambiados",
            "ya no están",
            "ausentes (sin pedir)",
        )
    )
    return (
        f"HTTP: {plural(counts.get('pedidos', 0), 'pedido')}, {counts.get('bytes', 0) / 1e6:.1f} MB "
        f"descargados; archivos: {files}"
    )


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="build-db",
        description="Construye la base SQLite de argentina-datos a partir de una fuente "
        "(el repositorio git de upstream, un directorio con su formato estático o una URL HTTP que lo sirve).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EPILOG,
    )
    p.add_argument(
        "--source",
        help="directorio, URL base, repositorio git (git+https://…, git+file:///…) o paquete git (.bundle) "
        f"(por defecto $ARGENTINA_DATOS_SOURCE o, con git instalado, el repositorio de upstream, {UPSTREAM_REPOSITORY}; "
        "sin git, la API de --api)",
    )
    p.add_argument(
        "--api",
        default=default_api(),
        help="la API pública de upstream: la fuente sin git, y con qué se compara una fuente git atrasada "
        f"(por defecto $ARGENTINA_DATOS_API o {PUBLIC_API})",
    )
    p.add_argument(
        "--sin-comparar-api",
        action="store_true",
        help="con una fuente git atrasada, no preguntar a la API si tiene datos más nuevos (ni leerla en su lugar)",
    )
    p.add_argument(
        "--fallar-si-atrasada",
        action="store_true",
        help=f"salir con {EXIT_LATE} si, construida o ya al día, la base tiene atrasados los datos principales "
        "(scripts/update.sh lo usa: así cron y systemd lo ven)",
    )
    p.add_argument(
        "--git-cache",
        default=os.environ.get("ARGENTINA_DATOS_GIT_CACHE"),
        help="con una fuente git, la carpeta de sus clones (por defecto $ARGENTINA_DATOS_GIT_CACHE o "
        "$XDG_CACHE_HOME/argentina-datos/git)",
    )
    p.add_argument("--output", default="argentina.db", help="archivo SQLite a escribir (por defecto %(default)s)")
    p.add_argument(
        "--history",
        default=os.environ.get("ARGENTINA_DATOS_HISTORY"),
        help="directorio con versiones pasadas fechadas (v1/<ruta>/<AAAA-MM-DD>.json); "
        "por defecto $ARGENTINA_DATOS_HISTORY o, si la fuente es un directorio, "
        "su hermano upstream-history",
    )
    p.add_argument(
        "--versiones",
        default=os.environ.get("ARGENTINA_DATOS_VERSIONES"),
        help="paquete git con cada versión que upstream publicó (upstream.bundle); por defecto "
        "$ARGENTINA_DATOS_VERSIONES o, si la fuente es un directorio, upstream-versions/upstream.bundle a su lado",
    )
    p.add_argument("--sin-versiones", action="store_true", help="no leer el paquete de versiones aunque exista")
    p.add_argument(
        "--referencias",
        default=os.environ.get("ARGENTINA_DATOS_REFERENCIAS"),
        help="archivo TSV de cifras publicadas por otros (serie, fecha, valor, unidad, fuente, nota) con que la "
        "auditoría compara la base; por defecto $ARGENTINA_DATOS_REFERENCIAS o, si la fuente es un directorio, "
        "referencias/cifras.tsv a su lado (sin archivo, la tabla cifras_publicadas queda vacía)",
    )
    p.add_argument(
        "--historia-desde",
        metavar="AAAA-MM-DD",
        type=dt.date.fromisoformat,
        help="con una fuente git y sin --versiones: en la primera construcción, leer como versiones los commits "
        "desde ese día (sus archivos se piden al remoto); por defecto sólo el commit leído. Las siguientes leen "
        "los commits desde la construcción anterior",
    )
    p.add_argument(
        "--keep-going",
        action="store_true",
        help="si un archivo no se puede leer (no es JSON, no tiene la forma esperada, error HTTP), "
        "omitirlo y seguir (se listan al final)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="reconstruir toda la base aunque la fuente no haya cambiado (sin conservar los conjuntos sin cambios)",
    )
    p.add_argument(
        "--detalle",
        action="store_true",
        help="listar los hallazgos de calidad (una línea «aviso:» por tabla y control); sin esto, sólo cuántos son "
        "(están todos en la tabla calidad)",
    )
    p.add_argument(
        "--fci-desde",
        default="2019-01-01",
        type=dt.date.fromisoformat,
        help="en modo HTTP, primera fecha de los listados diarios de FCI a buscar (%(default)s)",
    )
    p.add_argument("--concurrency", type=int, default=8, help="en modo HTTP, pedidos simultáneos (%(default)s)")
    p.add_argument("--timeout", type=float, default=30.0, help="en modo HTTP, segundos por pedido (%(default)s)")
    p.add_argument(
        "--retries",
        type=int,
        default=3,
        help="en modo HTTP, intentos por URL ante un error o un tiempo agotado, con espera "
        "creciente entre ellos (%(default)s)",
    )
    p.add_argument(
        "--conservar",
        type=int,
        default=1,
        metavar="N",
        help="construcciones reemplazadas que se guardan al lado de la salida: ARCHIVO.anterior, "
        "ARCHIVO.anterior.2... (por defecto %(default)s; 0: ninguna)",
    )
    p.add_argument(
        "--restaurar",
        metavar="ARCHIVO",
        help="no construir: volver a poner ARCHIVO.anterior como ARCHIVO, byte por byte (el reemplazado "
        "queda como ARCHIVO.descartado; un servidor en marcha pasa a servirlo)",
    )
    p.add_argument(
        "--sin-anterior",
        action="store_true",
        help="empezar de cero sin leer la salida existente aunque no se pueda leer: se pierde lo que sólo "
        "ella guardaba (versiones acumuladas, validadores HTTP, copias de archivos que hoy no se leen); "
        "queda como ARCHIVO.anterior",
    )
    args = p.parse_args(argv)
    args.source = args.source or os.environ.get("ARGENTINA_DATOS_SOURCE") or default_source(args.api)
    if args.conservar < 0:
        p.error(f"--conservar debe ser 0 o más, no {args.conservar}")
    return args


EPILOG = (
    """\
código de salida:
  0  todo se leyó (o la base ya estaba al día)
  3  se reemplazó la base, pero se omitieron archivos o conjuntos (--keep-going):
     sus filas vienen de la construcción anterior donde la había
  1  no se reemplazó nada (error; la base anterior queda como estaba)
  4  sólo con --fallar-si-atrasada: la base quedó (reemplazada o ya al día), pero sus datos
     principales (dólar, inflación, UVA, riesgo país) están atrasados: la fuente no publica

Fuente por defecto: $ARGENTINA_DATOS_SOURCE; si no, con git instalado, el repositorio de upstream
("""
    + UPSTREAM_REPOSITORY
    + """), clonado parcial y sólo con datos/v1; sin git, la API (--api).
Si la fuente git está atrasada y la API tiene datos más nuevos, esa construcción lee la API y lo dice
(--sin-comparar-api lo evita).

Cada ejecución deja su resumen en ARCHIVO.resumen.json (resultado, código, omitidos, error; tras
--restaurar, resultado «restaurada», cuándo y desde qué archivo), el que lee /-/salud.json.
"""
)

SUMMARY_SUFFIX = ".resumen.json"
EXIT_OK, EXIT_FAILED, EXIT_PARTIAL, EXIT_LATE = 0, 1, 3, 4


def default_history(source: str):
    if source.startswith(("http://", "https://")) or is_git(source):
        return None
    sibling = os.path.join(os.path.dirname(os.path.abspath(source.rstrip("/"))), "upstream-history")
    return sibling if os.path.isdir(sibling) else None


def default_references(source: str):
    """``referencias/cifras.tsv`` beside a source directory, if it exists."""
    if source.startswith(("http://", "https://")) or is_git(source):
        return None
    path = os.path.join(os.path.dirname(os.path.abspath(source.rstrip("/"))), "referencias", "cifras.tsv")
    return path if os.path.isfile(path) else None


def write_summary(output: str, summary: dict) -> None:
    """``summary`` as ``ARCHIVO.resumen.json``, replaced atomically: what cron, systemd and
    /-/salud.json read of the last run."""
    path = output + SUMMARY_SUFFIX
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(summary, f, ensure_ascii=False, indent=2)
            f.write("\n")
        os.replace(tmp, path)
    except OSError as e:
        print(f"aviso: no se pudo escribir {path}: {e.strerror or e}", file=sys.stderr)


def summary_of(args, code: int, started: dt.datetime, elapsed: float, **fields) -> dict:
    return {
        "resultado": fields.pop("resultado"),
        "codigo": code,
        "archivo": args.output,
        "fuente": args.source,
        "inicio": started.isoformat(timespec="seconds"),
        "segundos": round(elapsed, 2),
        "version": __version__,
        **fields,
    }


def fail(reporter, output: str, message: str) -> int:
    reporter.close()
    print(f"error: {message}", file=sys.stderr)
    print(f"No se modificó {output}.", file=sys.stderr)
    return EXIT_FAILED


def restore(output: str) -> int:
    """build-db --restaurar: the kept build back in place, and the summary saying so (/-/salud.json reads it)."""
    started = dt.datetime.now(dt.timezone.utc)
    try:
        with BuildLock(Path(output)):
            restored, discarded = respaldo.restore(Path(output))
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        print(f"No se modificó {output}.", file=sys.stderr)
        return EXIT_FAILED
    print(
        f"{output}: restaurada desde {restored}"
        + (f"; la que reemplaza quedó como {discarded}" if discarded else "")
        + ".",
        file=sys.stderr,
    )
    restoration = {"desde": str(restored), "descartada": str(discarded) if discarded else None}
    write_summary(
        output,
        {
            "resultado": "restaurada",
            "codigo": EXIT_OK,
            "archivo": output,
            "inicio": started.isoformat(timespec="seconds"),
            "version": __version__,
            "reemplazada": True,
            "restauracion": {"cuando": started.isoformat(timespec="seconds"), **restoration},
        },
    )
    return EXIT_OK


def unreadable_previous(args) -> Optional[str]:
    """Why the existing output cannot be built upon, unless the user chose to start afresh."""
    if args.sin_anterior or not os.path.isfile(args.output):
        return None
    bad = archivo.problem(args.output)
    if bad is None:
        return None
    return (
        f"no se puede leer la base anterior {args.output}: {bad}. No se la reemplaza: lo que sólo ella guarda (las versiones "
        f"acumuladas, los validadores HTTP, las copias de los archivos que hoy no se puedan leer) se perdería. "
        f"Salidas: {respaldo.ways_out(Path(args.output))}"
    )


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.restaurar:
        return restore(args.restaurar)
    started, start = dt.datetime.now(dt.timezone.utc), time.perf_counter()
    code, summary = run(args, start)
    if code in (EXIT_OK, EXIT_PARTIAL):
        code = freshness(args, code, summary)
    write_summary(args.output, summary_of(args, code, started, time.perf_counter() - start, **summary))
    return code


def run(args, start: float) -> tuple[int, dict]:
    reporter = BarReporter(detail=args.detalle) if sys.stderr.isatty() else LineReporter(detail=args.detalle)
    failed = {"resultado": "fallida", "reemplazada": False}
    refused = unreadable_previous(args)
    if refused:
        return fail(reporter, args.output, refused), dict(failed, error=refused)
    if args.sin_anterior and os.path.exists(args.output):
        reporter.warn(
            f"--sin-anterior: se construye de cero sin leer {args.output}; se pierde lo que sólo ella guardaba "
            f"(versiones acumuladas, validadores HTTP, copias de archivos que hoy no se leen)"
            + (f"; queda como {args.output}.anterior" if args.conservar else "")
        )
    try:
        return build(args, reporter, start)
    except Failure as e:
        return e.code, dict(failed, error=e.message)


class Failure(Exception):
    def __init__(self, code: int, message: str):
        self.code, self.message = code, message


def build(args, reporter, start: float) -> tuple[int, dict]:
    def failure(message: str):
        return Failure(fail(reporter, args.output, message), message)

    history = args.history or default_history(args.source)
    bundle = (
        None
        if args.sin_versiones
        else (args.versiones or (None if is_git(args.source) else default_bundle(args.source)))
    )
    try:
        # An existing output is what a file that cannot be read today falls back on; over HTTP it also
        # makes this an update: conditional requests, past days not asked again.
        fresh = args.sin_anterior
        previous = PreviousBuild(args.output) if os.path.isfile(args.output) and not fresh else None
        source = (
            GitSource(
                args.source,
                cache=args.git_cache,
                history=history,
                since=previous.facts.get("commit") if previous else None,
            )
            if is_git(args.source)
            else open_plain(args.source, args, history, previous)
        )
        switched = None
        if isinstance(source, GitSource) and not args.sin_comparar_api:
            comparison = fuente_fresca.compare(source.root, args.source, args.api, today(), args.timeout)
            if comparison.message:
                reporter.warn(comparison.message)
            if comparison.use_api:
                switched = comparison.message
                source = open_plain(args.api, args, history, previous)
        if isinstance(source, GitSource) and bundle is None and not args.sin_versiones:
            # the source's own history is the versions' source, like a bundle
            bundle = source.versions(args.historia_desde and args.historia_desde.isoformat())
        builder = Builder(
            source,
            args.output,
            keep_going=args.keep_going,
            reporter=reporter,
            previous=previous,
            bundle=bundle,
            keep=args.conservar,
            fresh=fresh,
            references=args.referencias or default_references(args.source),
        )
        # A git checkout is read under its clone's lock: another build's checkout would change it meanwhile.
        with source.reading() if isinstance(source, GitSource) else contextlib.nullcontext():
            report = builder.run(force=args.force)
    except (BuildError, SourceError, PreviousUnreadable) as e:
        raise failure(str(e)) from None
    except OSError as e:
        raise failure(
            f"no se pudo escribir {args.output}: {e.strerror or e}" + (f" ({e.filename})" if e.filename else "")
        ) from None
    except sqlite3.Error as e:
        raise failure(f"SQLite: {e}") from None
    except KeyboardInterrupt:
        reporter.close()
        print(f"interrumpido; no se modificó {args.output}.", file=sys.stderr)
        raise Failure(130, "interrumpido") from None
    except Exception as e:  # a bug: one line that says where, not a traceback
        where = traceback.extract_tb(e.__traceback__)[-1]
        raise failure(
            f"error interno ({type(e).__name__}: {e}) en {os.path.basename(where.filename)}:{where.lineno}"
        ) from None
    reporter.close()
    elapsed = time.perf_counter() - start
    if is_http(source.description):
        print(http_summary(source.counts), file=sys.stderr)
    if isinstance(source, GitSource):
        print(source.summary(), file=sys.stderr)
    used = {"fuenteUsada": source.description, "cambioDeFuente": switched} if switched else {}
    if report.unchanged:
        print(
            f"{args.output} ya está al día con {source.description} ({elapsed:.2f} s); use --force para reconstruir.",
            file=sys.stderr,
        )
        return EXIT_OK, {"resultado": "sin cambios", "reemplazada": False, **used}
    rows = sum(o.rows for o in report.outcomes)
    print(
        f"{args.output}: {rows:,} filas en {len(report.outcomes) - len(report.missing) - len(report.skipped)} "
        f"conjuntos de datos, {elapsed:.1f} s.",
        file=sys.stderr,
    )
    if builder.kept:
        print(f"La construcción reemplazada quedó como {builder.kept}.", file=sys.stderr)
    if report.missing:
        print("La fuente no tiene: " + ", ".join(o.table for o in report.missing), file=sys.stderr)
    if report.findings:
        print(
            f"{plural(len(report.findings), 'hallazgo')} de calidad (datos guardados tal como llegaron): "
            f"ver la tabla calidad"
            + ("." if args.detalle else ", o --detalle para listarlos aquí por tabla y control."),
            file=sys.stderr,
        )
    if report.skipped or report.skipped_files:
        print("Omitidos por error (--keep-going):", file=sys.stderr)
        for o in report.skipped:
            print(f"  {o.table}: {o.error}", file=sys.stderr)
        for o in report.outcomes:
            for problem in o.skipped_files:
                print(f"  {o.table}: {problem}", file=sys.stderr)
    omitted = [{"tabla": o.table, "error": o.error} for o in report.skipped] + [
        {"tabla": o.table, "archivo": problem} for o in report.outcomes for problem in o.skipped_files
    ]
    return (EXIT_OK if report.complete else EXIT_PARTIAL), {
        "resultado": "completa" if report.complete else "parcial",
        "reemplazada": True,
        "anterior": str(builder.kept) if builder.kept else None,
        "filas": rows,
        "omitidos": omitted,
        **used,
    }


def open_plain(spec: str, args, history, previous):
    """A directory or an HTTP source, with the command line's options."""
    return open_source(
        spec,
        history,
        fci_since=args.fci_desde,
        concurrency=args.concurrency,
        timeout=args.timeout,
        retries=args.retries,
        previous=previous,
    )


def freshness(args, code: int, summary: dict) -> int:
    """The database's freshness after a build that left one: printed, kept in the summary; with
    --fallar-si-atrasada, EXIT_LATE when its main data is late."""
    on = today()
    try:
        with sqlite3.connect(f"file:{args.output}?mode=ro", uri=True) as conn:
            datasets = frescura.by_dataset(conn, on)
    except sqlite3.Error as e:
        print(f"aviso: no se pudo leer la frescura de {args.output}: {e}", file=sys.stderr)
        return code
    for line in frescura.lines(datasets, on):
        print(line, file=sys.stderr)
    summary["frescura"] = frescura.report(datasets, on)
    if args.fallar_si_atrasada and frescura.late_essentials(datasets):
        print(f"Código {EXIT_LATE}: datos principales atrasados (--fallar-si-atrasada).", file=sys.stderr)
        return EXIT_LATE
    return code


if __name__ == "__main__":
    sys.exit(main())
