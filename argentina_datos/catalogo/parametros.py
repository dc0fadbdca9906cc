"""Path parameters shared by source files and /v1 routes, with the spec's bounds."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace
from typing import Callable, Optional, Sequence

from argentina_datos.catalogo.tipos import INTEGER, TEXT


class BadParam(ValueError):
    """A path value that is malformed or out of bounds (HTTP 404: upstream has no file for it)."""

    def __init__(self, param: str, value: str, message: str):
        super().__init__(message)
        self.param, self.value = param, value


@dataclass(frozen=True)
class Param:
    name: str
    pattern: str  # full-match regex of the path text
    kind: str = TEXT
    description: str = ""
    minimum: Optional[int] = None
    maximum: Optional[int] = None  # spec maximum: above it only when data exists
    choices: Sequence[str] = ()
    loose: str = r"[^/]+"  # what the router captures before validating
    convert: Callable[[str], object] = str
    calendar: bool = False  # the text must be a real calendar date
    canonical: bool = False  # its value is the path text upstream's files use (a month as 09, not 9)
    example: str = ""
    # How an HTTP source lists this placeholder's values (it cannot list files): a function of the
    # source (its ``get_json``, ``today`` and ``fci_since``) giving the path texts to try.  None: the
    # files are not enumerated over HTTP (their routes are derived from a list instead).
    http_values: Optional[Callable[..., list[str]]] = None

    def bounds(self, top: Optional[int] = None) -> str:
        """The values taken, in words: ``top`` is the largest one served (the spec's maximum or, when
        the data goes further, its last year), the one source of every message and description."""
        hi = self.maximum if top is None else top
        if self.minimum is None:
            return f"a lo sumo {hi}" if hi is not None else ""
        return f"de {self.minimum} a {hi}" if hi is not None else f"desde {self.minimum}"

    def out_of_bounds(self, top: Optional[int] = None) -> str:
        return f"«{self.name}» va {self.bounds(top)}"

    def parse(self, text: str, top: Optional[int] = None):
        """The value of ``text``; ``top``: the largest value served (see ``bounds``)."""
        if not re.fullmatch(self.pattern, text):
            bounds = f" ({self.bounds(top)})" if self.bounds(top) else ""
            raise BadParam(
                self.name, text, f"«{text}» no es un valor válido de «{self.name}»: {self.description}{bounds}"
            )
        if self.calendar and text not in ("ultimo", "penultimo"):
            try:
                dt.date(*map(int, re.split(r"[-/]", text)))
            except ValueError:
                raise BadParam(self.name, text, f"«{text}» no es una fecha del calendario")
        value = self.convert(text)
        hi = self.maximum if top is None else top
        if isinstance(value, int) and (
            (self.minimum is not None and value < self.minimum) or (hi is not None and value > hi and top is not None)
        ):
            raise BadParam(self.name, text, self.out_of_bounds(top))
        return value


def group_name(name: str) -> str:
    """A regex group name for a parameter (``año`` is not ASCII)."""
    return "p_" + name.encode("ascii", "backslashreplace").decode().replace("\\", "_")


def template_regex(template: str, params: dict, *, loose: bool = False) -> tuple[re.Pattern, int]:
    """Compile a path template such as ``v1/feriados/{listado}`` with each parameter's regex
    (its strict ``pattern``, or the ``loose`` one the router captures before validating);
    also return how many literal characters the template has."""
    regex, literal = "", 0
    for part in re.split(r"({[^}]+})", template):
        if part.startswith("{"):
            p = params[part[1:-1]]
            regex += f"(?P<{group_name(p.name)}>{p.loose if loose else p.pattern})"
        else:
            regex += re.escape(part)
            literal += len(part)
    return re.compile(regex), literal


def year(lo: int, hi: Optional[int], what: str, example: str = "2025") -> Param:
    # The example must answer 200 on every route using this parameter (tests/test_openapi.py checks it).
    return Param(
        "año",
        r"[0-9]{4}",
        INTEGER,
        f"año de cuatro cifras {what}".strip(),
        minimum=lo,
        maximum=hi,
        convert=int,
        example=example,
    )


def slash_date_to_iso(text: str) -> str:
    return text.replace("/", "-")


CASAS = ("oficial", "blue", "bolsa", "contadoconliqui", "cripto", "mayorista", "solidario", "turista", "tarjeta")
# The spec's enum says "turista"; upstream's data and files say "tarjeta".  Both names serve the same rows.
CASA_ALIASES = {"turista": "tarjeta"}
CATEGORIAS_FCI = ("mercadoDinero", "rentaVariable", "rentaFija", "rentaMixta", "retornoTotal")


# ---- how an HTTP source lists a placeholder's values ---------------------------------
def _fixed(values: Sequence[str]) -> Callable[..., list[str]]:
    return lambda source: list(values)


def _years(source) -> list[str]:
    """From the earliest bound of any yearly file to next year."""
    return [str(y) for y in range(2011, source.today.year + 2)]


def _fci_listings(source) -> list[str]:
    days = (source.today - source.fci_since).days
    return ["ultimo", "penultimo"] + [
        (source.fci_since + dt.timedelta(d)).strftime("%Y/%m/%d") for d in range(days + 1)
    ]


def _rem_reports(source) -> list[str]:
    """The reports upstream lists in its index /v1/rems."""
    index = source.get_json("v1/rems") or []
    return [s.removeprefix("/rems/") for s in index if isinstance(s, str)]


def _fund_slugs(source) -> list[str]:
    """The funds upstream lists in /v1/finanzas/fci/fondos."""
    from argentina_datos.catalogo.slug import slugify

    envelope = source.get_json("v1/finanzas/fci/fondos")
    fondos = envelope.get("fondos", []) if isinstance(envelope, dict) else []
    return sorted({slugify(f["nombre"]) for f in fondos if isinstance(f, dict) and "nombre" in f})


def one_of(name: str, choices: Sequence[str], description: str, example: str, **kw) -> Param:
    """A path parameter that takes one of ``choices``, as they are written."""
    return Param(name, "|".join(choices), TEXT, description, choices=choices, example=example, **kw)


CASA = one_of(
    "casa",
    CASAS,
    "casa de cambio: " + ", ".join(CASAS) + ". «turista» (especificación) y «tarjeta» (datos) devuelven lo mismo",
    "blue",
    convert=lambda s: CASA_ALIASES.get(s, s),
    http_values=_fixed([c for c in CASAS if c not in CASA_ALIASES]),
)
FECHA = Param(
    "fecha",
    r"[0-9]{4}/[0-9]{2}/[0-9]{2}",
    TEXT,
    "fecha escrita AAAA/MM/DD",
    # Captures one to three segments so that 2025-01-02 or 2025/01 get a 404 naming «fecha» and what it takes.
    loose=r"[^/]+(?:/[^/]+){0,2}",
    convert=slash_date_to_iso,
    calendar=True,
    example="2025/01/02",
)
FECHA_FCI = Param(
    "fecha",
    r"[0-9]{4}/[0-9]{2}/[0-9]{2}|ultimo|penultimo",
    TEXT,
    "fecha AAAA/MM/DD, o ultimo / penultimo",
    loose=r"[^/]+(?:/[^/]+/[^/]+)?",
    convert=slash_date_to_iso,
    calendar=True,
    example="ultimo",
)
CATEGORIA_FCI = one_of(
    "categoria",
    CATEGORIAS_FCI,
    "categoría de fondo: " + ", ".join(CATEGORIAS_FCI),
    "mercadoDinero",
    http_values=_fixed(CATEGORIAS_FCI),
)
NOMBRE_FONDO = Param(
    "nombre",
    r"[a-z0-9]+(?:-[a-z0-9]+)*",
    TEXT,
    "nombre normalizado del fondo, en minúsculas y con guiones",
    example="1810-renta-dolar-clase-a",
)
SENADOR_ID = Param("id", r"[0-9]{1,9}", TEXT, "identificador numérico del senador", example="580")


def two_digits(text: str) -> str:
    return text.zfill(2)


# Upstream's month folders are not always zero-padded (…/nacionales/2019/1 and …/rem/2026/09 both exist):
# both forms are taken and answer the same, as the padded one.
MES = Param(
    "mes",
    r"0?[1-9]|1[0-2]",
    TEXT,
    "mes, con o sin cero adelante (9 o 09; 1 a 12)",
    convert=two_digits,
    canonical=True,
    example="10",
)

# Source-only placeholders (they never appear in a route the user types).
LISTADO_AÑO = Param("listado", r"[0-9]{4}", TEXT, "año del archivo", http_values=_years)
LISTADO_MES = Param(
    "listado",
    r"[0-9]{4}/[0-9]{2}|ultimo",
    TEXT,
    "informe AAAA-MM o ultimo",
    loose=r"[^/]+(?:/[^/]+)?",
    convert=slash_date_to_iso,
    http_values=_rem_reports,
)
LISTADO_FCI = Param(
    "listado",
    FECHA_FCI.pattern,
    TEXT,
    FECHA_FCI.description,
    loose=FECHA_FCI.loose,
    convert=slash_date_to_iso,
    http_values=_fci_listings,
)
FECHA_ARCHIVO = Param("fecha", r"[0-9]{4}-[0-9]{2}-[0-9]{2}", TEXT, "fecha de la versión guardada")
SLUG = Param("slug", NOMBRE_FONDO.pattern, TEXT, NOMBRE_FONDO.description, http_values=_fund_slugs)

DIVISAS = ("usd", "eur", "brl", "clp", "uyu")
MONEDA = one_of("moneda", DIVISAS, "moneda, en minúsculas: " + ", ".join(DIVISAS), "usd")
# The same value taken from a file's path: its records carry "moneda" too, in capitals (USD).
DIVISA = Param("divisa", MONEDA.pattern, TEXT, MONEDA.description, choices=DIVISAS, http_values=_fixed(DIVISAS))


def dates_in(route: str) -> Callable[..., list[str]]:
    """The days of the records of the list at ``route`` (their ``fecha``), as a per-date file's path: upstream
    publishes a file for most days of its lists (4,944 of the 5,528 days of the dollar's), and an HTTP build
    asks for each (only the new days and those that failed once a previous build has the rest)."""

    def dates(source) -> list[str]:
        lista = source.get_json(route)
        days = {
            r["fecha"]
            for r in (lista if isinstance(lista, list) else [])
            if isinstance(r, dict)
            and isinstance(r.get("fecha"), str)
            and re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", r["fecha"])
        }
        return [d.replace("-", "/") for d in sorted(days)]

    return dates


# The date of a per-date file; over HTTP, the days of the list it is a cut of.
DIA = Param("dia", FECHA.pattern, TEXT, "fecha del archivo (AAAA-MM-DD)", loose=FECHA.loose, convert=slash_date_to_iso)
DIA_DOLARES = replace(DIA, http_values=dates_in("v1/cotizaciones/dolares"))
DIA_MONEDAS = replace(DIA, http_values=dates_in("v1/cotizaciones"))
