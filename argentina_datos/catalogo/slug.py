"""Fund names to the lowercase hyphen slugs of /v1/finanzas/fci/fondos/{nombre}."""

import re
import unicodedata


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")


# Legal forms a bank's name carries or drops from one publication to the next ("S.A." / "S.A.U." /
# "SOCIEDAD ANONIMA", "O. P." = organismo público), as slug words at the end of the name.
_LEGAL_FORM = re.compile(r"(-(s-?a-?u?|sociedad-anonima(-unipersonal)?|o-p|sa|sau))+$")


def entity_id(name: str) -> str:
    """The same entity under the names a source gives it over time: «BANCO DE GALICIA Y BUENOS AIRES S.A.» and
    «… S.A.U.», «BANCO SANTANDER ARGENTINA S.A.» and «… SOCIEDAD ANONIMA» are all one slug (lowercase, no accents,
    hyphens, without the legal form at the end)."""
    return _LEGAL_FORM.sub("", slugify(name))
