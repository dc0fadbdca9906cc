"""What people call things, and which of the series a search finds come first: declarations only, read by the
search of the catalogue of series (respuestas/catalogo_series.py) and by ``ajustar=dolar-<casa>``
(respuestas/conversiones.py).

The data names a dollar «bolsa» where people say MEP, «contadoconliqui» where they say CCL or contado con
liquidación, and the CPI is «inflación» in its tables; a search for the common name finds the series, and
``ajustar=dolar-mep`` converts at the bolsa's rate.
"""

from __future__ import annotations

import unicodedata

from argentina_datos.catalogo.parametros import CASAS

# A name people use (lowercase, without accents; its last word may be typed in part: «contado con liqui») -> the
# words the catalogue uses for it.  A search finds what either finds.
SYNONYMS: dict[str, str] = {
    "mep": "bolsa",
    "ccl": "contadoconliqui",
    "contado con liquidacion": "contadoconliqui",
    "contado con liqui": "contadoconliqui",
    "cable": "contadoconliqui",
    "turista": "tarjeta",
    "dolar ahorro": "solidario",
    "paralelo": "blue",
    "informal": "blue",
    "ipc": "inflacion",
    "indice de precios": "inflacion",
    "embi": "riesgo pais",
    "inflacion esperada": "rem precios minoristas",
    "esperada": "rem",
    "expectativa": "rem",
    "bna": "nacion",
    "plazo fijo tradicional": "plazo fijo",
}

# The casa of cotizaciones_dolares a common name stands for (ajustar=dolar-mep): the synonyms that name a casa.
CASAS_BY_NAME: dict[str, str] = {name: words for name, words in SYNONYMS.items() if words in CASAS}

# Series ranked after the others a search finds (the higher, the later), because they are a variant of the
# plain thing or another copy of it: a bank's plazo fijo in UVA after its ordinary plazo fijo, the REM's
# expectations after the figures they expect, and the REM of upstream's older path (/v1/rems, whose reports end
# earlier) after the newer one's (/v1/finanzas/rem).  By table; the others are 0.
RANK_AFTER: dict[str, int] = {
    "plazo_fijo_uva_pago_periodico_historico_tasas": 1,
    "plazo_fijo_precancelable_historico": 1,
    "finanzas_rem": 1,
    "rems": 2,
}


def plain(text: str) -> str:
    """Lowercase, without accents: how the names above are written and the search's words compared."""
    return "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))


def _named(words: list[str], name: list[str]) -> bool:
    """Whether ``words`` are the common name ``name``: its words, the last one at least begun (three letters)."""
    if len(words) != len(name):
        return False
    *whole, last = words
    return whole == name[:-1] and (last == name[-1] or (len(last) >= 3 and name[-1].startswith(last)))


_BY_LENGTH = sorted(((n.split(), w.split()) for n, w in SYNONYMS.items()), key=lambda p: -len(p[0]))


def expanded(query: str) -> list[list[list[str]]]:
    """The words of a search, each group of them with its alternatives: ``[[own words], [catalogue words]]`` where
    they are a common name (the longest first), ``[[word]]`` where not."""
    words = plain(query).split()
    out: list[list[list[str]]] = []
    i = 0
    while i < len(words):
        for name, theirs in _BY_LENGTH:
            if _named(words[i : i + len(name)], name):
                out.append([words[i : i + len(name)], theirs])
                i += len(name)
                break
        else:
            out.append([[words[i]]])
            i += 1
    return out
