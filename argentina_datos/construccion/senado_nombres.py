"""Who a Senate document means: its files name people as «Mayans, José Miguel Ángel», «MAYANS, JOSE
MIGUEL» or «Cobos, Julio» (Cobos, Julio César Cleto in the senators' list), with married surnames
that come and go («Olalla de Moreira» / «Olalla»).  A name is linked to a senator's id only when
the senators' list leaves one candidate: by surname and given names, and among namesakes by the
mandate nearest the day of the document.  Anything less certain stays unlinked (null)."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
import unicodedata
from typing import Iterable, Optional

from argentina_datos.almacen.tablas import table_exists

# Words that join surnames or given names: «Brizuela y Doria», «Ada Rosa del Valle».
PARTICLES = frozenset({"de", "del", "la", "las", "los", "y"})


def words(texto: str) -> list[str]:
    """Lower-case ASCII words, without accents or punctuation («Uñac, José Rubén.» -> unac jose ruben)."""
    plano = unicodedata.normalize("NFKD", texto).encode("ascii", "ignore").decode().lower()
    return [w for w in re.sub(r"[^a-z]+", " ", plano).split() if w not in PARTICLES]


def partes(nombre: str) -> tuple[tuple[str, ...], list[str]]:
    """(surname words, given-name words) of «Apellido, Nombre»; without a comma, all of it is the surname."""
    apellido, _, nombres = nombre.partition(",")
    return tuple(words(apellido)), words(nombres)


def _same(a: str, b: str) -> bool:
    """The same given name, or an initial of it («Mario R.» is Mario Raymundo)."""
    return a == b or (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b))


def compatible_names(a: list[str], b: list[str]) -> bool:
    """Whether the shorter list of given names is found, in order, in the longer one («Eugenia» in
    «María Eugenia»), with at least one whole name in common (an initial alone proves nothing)."""
    corto, largo = sorted((a, b), key=len)
    if not corto or not any(w in largo for w in corto if len(w) > 1):
        return False
    i = 0
    for w in corto:
        while i < len(largo) and not _same(w, largo[i]):
            i += 1
        if i == len(largo):
            return False
        i += 1
    return True


def _prefijo(a: tuple, b: tuple) -> bool:
    corto, largo = sorted((a, b), key=len)
    return bool(corto) and largo[: len(corto)] == corto


class SenateRoll:
    """The senators of the senadores table: (id, nombre, inicio, fin) with the mandate's first and
    last day (fin None: in office)."""

    def __init__(self, senadores: Iterable[tuple]):
        # By the first word of the surname, the one every way of writing it keeps.
        self.por_apellido: dict[str, list[tuple]] = {}
        for sid, nombre, inicio, fin in senadores:
            if isinstance(sid, str) and isinstance(nombre, str):
                apellido, nombres = partes(nombre)
                if apellido:
                    self.por_apellido.setdefault(apellido[0], []).append((sid, apellido, nombres, inicio, fin))

    def candidatos(self, nombre: str) -> list[tuple]:
        apellido, nombres = partes(nombre)
        homonimos = self.por_apellido.get(apellido[0], []) if apellido else []
        mismos = [s for s in homonimos if s[1] == apellido and compatible_names(nombres, s[2])]
        if mismos:
            return mismos
        # A married surname one list adds and the other drops: «Ledesma» / «Ledesma Abdala de Zamora».
        return [s for s in homonimos if _prefijo(apellido, s[1]) and compatible_names(nombres, s[2])]

    def identify(self, nombre: str, dia: Optional[str] = None) -> Optional[str]:
        """The id of the one senator ``nombre`` can be; among namesakes, the one whose mandate is
        nearest ``dia`` (AAAA-MM-DD; None: the one in office).  None when it stays ambiguous."""
        if not isinstance(nombre, str):
            return None
        found = self.candidatos(nombre)
        if len(found) > 1:
            cercania = sorted((_distance(s[3], s[4], dia), s[0]) for s in found)
            found = [s for s in found if s[0] == cercania[0][1]] if cercania[0][0] < cercania[1][0] else []
        return found[0][0] if len(found) == 1 else None


def roll_from_database(conn: sqlite3.Connection) -> Optional[SenateRoll]:
    """The senators of the built senadores table, each with his real mandate (the legal one when the
    list has no real one); None when the build has no such table (a --keep-going build skipped it)."""
    try:
        filas = conn.execute(
            "SELECT id, nombre, coalesce(periodoReal_inicio, periodoLegal_inicio), "
            "CASE WHEN periodoReal_inicio IS NULL THEN periodoLegal_fin ELSE periodoReal_fin END "
            "FROM senadores"
        ).fetchall()
    except sqlite3.OperationalError:
        if table_exists(conn, "senadores"):  # a table that fails would leave every name unlinked, unsaid
            raise
        return None
    return SenateRoll(filas)


def _fecha(texto) -> Optional[dt.date]:
    try:
        return dt.date.fromisoformat(texto[:10]) if isinstance(texto, str) else None
    except ValueError:
        return None


def _distance(inicio, fin, dia: Optional[str]) -> float:
    """Days between ``dia`` and a mandate (0 inside it); without a day, 0 for whoever is in office.
    The list keeps one mandate per senator, so this only ranks namesakes, it proves nothing alone."""
    if dia is None:
        return 0 if fin is None else float("inf")
    d, desde, hasta = _fecha(dia), _fecha(inicio), _fecha(fin)
    if d is None:
        return float("inf")
    if desde and d < desde:
        return (desde - d).days
    if hasta and d > hasta:
        return (d - hasta).days
    return 0
