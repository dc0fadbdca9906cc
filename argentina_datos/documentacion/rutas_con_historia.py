"""The table of docs/construir.md that says which routes have a history and since when, generated from a built
database (tests/test_historia.py checks that the page carries the one of the database built from the mirror).

    python -m argentina_datos.documentacion.rutas_con_historia build/argentina-test.db --escribir
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path

from argentina_datos.almacen.propias import CONSTRUCCION, REVISIONES, VERSIONES

PAGE = "docs/construir.md"
MARKERS = ("<!-- historia:inicio -->\n", "<!-- historia:fin -->")


def routes_with_history(conn: sqlite3.Connection) -> list[tuple[str, int, str, str, int]]:
    """(route, how many versions, first day, last day, revisions) for every route with a past."""
    out = []
    revisions = dict(conn.execute(f"SELECT ruta, count(*) FROM {REVISIONES.name} GROUP BY ruta").fetchall())
    for ruta, n, first, last in conn.execute(
        f"SELECT ruta, count(*), min(publicado), max(publicado) FROM {VERSIONES.name} GROUP BY ruta ORDER BY ruta"
    ):
        out.append((ruta, n, first[:10], last[:10], revisions.get(ruta, 0)))
    return out


def markdown_table(conn: sqlite3.Connection) -> str:
    """The table; a version dated by the day of the build (a file without a date of its own) says so, so that
    the page does not change from one day's build of the same mirror to the next."""
    built = conn.execute(f"SELECT valor FROM {CONSTRUCCION.name} WHERE clave = 'construido'").fetchone()
    build_day = built[0][:10] if built and built[0] else None

    def day(d: str) -> str:
        return "el de la construcción" if d == build_day else d

    lines = [
        "| ruta | versiones | desde | hasta | revisiones |",
        "|---|---:|---|---|---:|",
    ]
    for ruta, n, first, last, revisions in routes_with_history(conn):
        lines.append(f"| `{ruta}` | {_number(n)} | {day(first)} | {day(last)} | {_number(revisions)} |")
    return "\n".join(lines) + "\n"


def _number(n: int) -> str:
    return f"{n:,}".replace(",", ".")  # as Argentines write it: 12.935


def page_with_table(page: str, table: str) -> str:
    start, end = MARKERS
    if start not in page or end not in page:
        raise ValueError(f"{PAGE} debe tener la tabla de historia entre los marcadores {start.strip()} y {end}")
    return page[: page.index(start) + len(start)] + table + page[page.index(end) :]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m argentina_datos.documentacion.rutas_con_historia",
        description=f"La tabla de rutas con historia de {PAGE}, desde una base construida.",
    )
    parser.add_argument("base", help="la base construida (build/argentina-test.db para la del espejo)")
    parser.add_argument("--escribir", action="store_true", help=f"escribirla en {PAGE} (si no, imprimirla)")
    args = parser.parse_args(argv)
    if not Path(args.base).is_file():
        parser.error(f"no existe la base {args.base}")
    with sqlite3.connect(f"file:{args.base}?mode=ro", uri=True) as conn:
        table = markdown_table(conn)
    if not args.escribir:
        sys.stdout.write(table)
        return 0
    page = Path(__file__).resolve().parents[2] / PAGE
    page.write_text(page_with_table(page.read_text(), table))
    print(f"escrito {page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
