"""The table of quality checks in docs/investigadores.md («Cómo leer la tabla calidad»), from their one
declaration (``almacen/controles.py``).

``python -m argentina_datos.documentacion.tabla_controles`` writes it between its markers; ``--check`` says whether
it is current (tests/test_controles.py checks it too)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from argentina_datos.almacen.controles import CONTROLS

PAGE = Path(__file__).resolve().parents[2] / "docs" / "investigadores.md"
MARKERS = ("<!-- controles:inicio -->\n", "<!-- controles:fin -->")


def markdown_table() -> str:
    rows = ["| control | cuándo | qué significa | umbral | evidencia | marca valores |", "|---|---|---|---|---|---|"]
    for c in CONTROLS:
        rows.append(
            f"| {c.name} | {c.stage} | {c.meaning} | {c.threshold} | {c.evidence} | {'sí' if c.marks else 'no'} |"
        )
    return "\n".join(rows) + "\n"


def with_table(page: str) -> str:
    start, end = MARKERS
    if start not in page or end not in page:
        raise ValueError(f"{PAGE} no tiene los marcadores {start.strip()} y {end}")
    return page[: page.index(start) + len(start)] + markdown_table() + page[page.index(end) :]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m argentina_datos.documentacion.tabla_controles",
        description=f"Escribe la tabla de controles de calidad en {PAGE.name}, entre sus marcadores.",
    )
    parser.add_argument("--check", action="store_true", help="sólo dice si está al día (sale con 1 si no)")
    args = parser.parse_args(argv)
    page = PAGE.read_text(encoding="utf-8")
    current = with_table(page)
    if args.check:
        if current != page:
            print(f"{PAGE}: la tabla de controles no está al día", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(current, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
