"""Fund names to the lowercase hyphen slugs of /v1/finanzas/fci/fondos/{nombre}."""

import re
import unicodedata


def slugify(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")
