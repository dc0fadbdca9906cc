"""Fund names to the lowercase hyphen slugs of /v1/finanzas/fci/fondos/{nombre}."""

import re
import unicodedata
from typing import Optional


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


# Legal forms a bank's name carries or drops from one publication to the next ("S.A." / "S.A.U." /
# "SOCIEDAD ANONIMA", "O. P." = organismo público), as slug words at the end of the name.
_LEGAL_FORM = re.compile(r"(-(s-?a-?u?|sociedad-anonima(-unipersonal)?|o-p|sa|sau))+$")


def entity_id(name: str) -> str:
    """The same entity under the names a source gives it over time: «BANCO DE GALICIA Y BUENOS AIRES S.A.» and
    «… S.A.U.», «BANCO SANTANDER ARGENTINA S.A.» and «… SOCIEDAD ANONIMA» are all one slug (lowercase, no accents,
    hyphens, without the legal form at the end), and so is a name that came as UTF-8 read as Latin-1
    («CRÃ\x89DITO …» is «CRÉDITO …»): the slug of its repaired spelling."""
    return _LEGAL_FORM.sub("", slugify(repair_mojibake(name) or name))


def repair_mojibake(text: str) -> Optional[str]:
    """``text`` as it was before UTF-8 was read as Windows-1252 («Ã©» for «é») or as Latin-1, whose bytes
    0x80-0x9F are control characters («Ã\x89» for «É»); None when it does not decode as such."""
    # ASCII encodes and decodes to itself; most names are (the mirror's bank names and Senate votes: 0.55 s -> 0.16 s
    # CPU in all, loaded machine).
    if text.isascii():
        return None
    raw = bytearray()
    for ch in text:
        try:
            raw += ch.encode("cp1252")
        except UnicodeError:
            if ord(ch) > 0xFF:
                return None
            raw.append(ord(ch))
    try:
        fixed = raw.decode("utf-8")
    except UnicodeError:
        return None
    return fixed if fixed != text else None
