"""``exportar-v1 ARCHIVO.db DIRECTORIO`` and ``exportar-parquet ARCHIVO.db DIRECTORIO``."""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Optional

from argentina_datos.almacen.archivo import problem as database_problem


@contextmanager
def progress_bar(what: str) -> Iterator[Optional[Callable[[int], Callable[[], None]]]]:
    """On a terminal, a rich progress bar: ``start(total)`` gives the function that advances it.
    Elsewhere (a log, cron) nothing."""
    if not sys.stdout.isatty():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), transient=True
    ) as progress:

        def start(total: int) -> Callable[[], None]:
            task = progress.add_task(what, total=total)
            return lambda: progress.advance(task)

        yield start


def _arguments(prog: str, description: str, argv) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument("base", type=Path, metavar="ARCHIVO.db", help="la base construida con build-db")
    p.add_argument("directorio", type=Path, metavar="DIRECTORIO", help="dónde escribir (se crea si no existe)")
    args = p.parse_args(argv)
    problem = database_problem(args.base)
    if problem:
        p.exit(1, f"error: {args.base}: {problem}\n")
    return args


def exportar_v1(argv=None) -> int:
    from argentina_datos.publicacion.exportar_v1 import ExportError, export

    args = _arguments(
        "exportar-v1",
        "Escribe DIRECTORIO/v1/<ruta>/index.json (y .gz) para cada ruta que la base responde, y "
        "DIRECTORIO/v1/openapi.json; sólo reescribe los archivos que cambian y borra los de rutas que ya no están.",
        argv,
    )
    try:
        with progress_bar("exportando /v1") as progress:
            report = export(args.base, args.directorio, progress)
    except ExportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{args.directorio}/v1: {report.summary()}")
    return 0


def exportar_parquet(argv=None) -> int:
    from argentina_datos.publicacion.exportar_parquet import export

    args = _arguments(
        "exportar-parquet",
        "Escribe DIRECTORIO/<tabla>.parquet para cada tabla de la base, con sus tipos y las descripciones "
        "de sus columnas.",
        argv,
    )
    with progress_bar("exportando Parquet") as progress:
        report = export(args.base, args.directorio, progress)
    print(f"{args.directorio}: {report.summary()}")
    return 0
