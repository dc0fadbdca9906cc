"""The builds a replacement leaves behind: ``ARCHIVO.anterior`` (and, with more generations,
``ARCHIVO.anterior.2``, ``.3``...), and putting the last one back.

The database is state: over HTTP it holds the history that no source can give again (the versions
accumulated day after day, the validators, the copies of files that could not be read). So the file
a build replaces is kept, under its own name, by a hard link made before the rename (no copy, no
moment without it); `build-db --restaurar` renames it back over the output, byte for byte, and a
running server switches to it as it does to a new build (web/recarga.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Optional

from argentina_datos.almacen import archivo
from argentina_datos.construccion.cargador import BuildError

SUFFIX = ".anterior"
DISCARDED = ".descartado"


def generation(output: Path, n: int) -> Path:
    """The n-th build before ``output`` (1: the last one)."""
    return output.with_name(output.name + SUFFIX + ("" if n == 1 else f".{n}"))


def _link_or_copy(source: Path, target: Path) -> None:
    """``target`` names ``source``'s file: a hard link, or a copy where the file system has none.
    Through a temporary name that a killed build leaves for the next one to remove (Builder)."""
    tmp = source.with_name(f"{source.name}.tmp-respaldo-{os.getpid()}")
    tmp.unlink(missing_ok=True)
    try:
        os.link(source, tmp)
    except OSError:
        shutil.copy2(source, tmp)
    os.replace(tmp, target)


def keep(output: Path, generations: int) -> Optional[Path]:
    """Before ``output`` is replaced: its file becomes ``ARCHIVO.anterior``, the older ones move one
    place down, and the one past ``generations`` goes. None when there is nothing to keep."""
    if generations < 1 or not output.exists():
        return None
    generation(output, generations + 1).unlink(missing_ok=True)  # --conservar lowered since the last build
    for n in range(generations, 1, -1):
        if generation(output, n - 1).exists():
            os.replace(generation(output, n - 1), generation(output, n))
    _link_or_copy(output, generation(output, 1))
    return generation(output, 1)


def restore(output: Path) -> tuple[Path, Optional[Path]]:
    """Put ``ARCHIVO.anterior`` back as ``output`` (a rename: byte for byte), the older generations
    one place up. The file it replaces is kept as ``ARCHIVO.descartado``. Returns (the file put back,
    where the replaced one went)."""
    last = generation(output, 1)
    if not last.exists():
        raise BuildError(f"no hay {last} para restaurar; {ways_out(output)}")
    bad = archivo.problem(last)
    if bad:
        raise BuildError(f"{last} no se puede restaurar: {bad}; {ways_out(output)}")
    discarded = None
    if output.exists():
        discarded = output.with_name(output.name + DISCARDED)
        _link_or_copy(output, discarded)
    os.replace(last, output)
    n = 2
    while generation(output, n).exists():
        os.replace(generation(output, n), generation(output, n - 1))
        n += 1
    return last, discarded


def ways_out(output: Path) -> str:
    """What an operator can do when ``output`` cannot be built upon or restored: the kept builds that can be put
    back, the file a restore set aside, and a build from scratch."""
    out = []
    last = generation(output, 1)
    if last.exists() and archivo.problem(last) is None:
        out.append(f"build-db --restaurar {output} vuelve a poner {last}")
    discarded = output.with_name(output.name + DISCARDED)
    if discarded.exists() and archivo.problem(discarded) is None:
        out.append(
            f"{discarded} es la base que reemplazó la última restauración: para volver a ella, renómbrela a {output} "
            f"(mv {discarded} {output})"
        )
    out.append(f"build-db --sin-anterior --output {output} construye de cero (se pierde lo que sólo la base guardaba)")
    return "; ".join(out)
