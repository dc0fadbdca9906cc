"""The pages' words and numbers as an Argentine reads them: the filters of Datasette 0.65 in Spanish,
row counts ("1 fila", "12.389 filas") and numbers with "." for thousands and "," for decimals.

Only the HTML pages use these (the templates of ``templates/`` and the ``render_cell`` hook of
``paginas``): the JSON and CSV of the same pages keep the numbers as they are stored.
"""

from __future__ import annotations

import json
import math
import re

# Datasette 0.65's filter lookups (datasette/filters.py, Filters._filters): key -> what the filter
# menu shows, and how the page's heading describes a filter ({c} column, {v} value).
LOOKUPS: dict[str, tuple[str, str]] = {
    "exact": ("=", "{c} = {v}"),
    "not": ("≠", "{c} ≠ {v}"),
    "contains": ("contiene", '{c} contiene "{v}"'),
    "endswith": ("termina en", '{c} termina en "{v}"'),
    "startswith": ("empieza con", '{c} empieza con "{v}"'),
    "gt": (">", "{c} > {v}"),
    "gte": ("≥", "{c} ≥ {v}"),
    "lt": ("<", "{c} < {v}"),
    "lte": ("≤", "{c} ≤ {v}"),
    "like": ("like", '{c} like "{v}"'),
    "notlike": ("not like", '{c} not like "{v}"'),
    "glob": ("glob", '{c} glob "{v}"'),
    "in": ("está en", "{c} está en {v}"),
    "notin": ("no está en", "{c} no está en {v}"),
    "arraycontains": ("la lista contiene", '{c} contiene "{v}"'),
    "arraynotcontains": ("la lista no contiene", '{c} no contiene "{v}"'),
    "date": ("el día", "{c} es el día {v}"),
    "isnull": ("es nulo", "{c} es nulo"),
    "notnull": ("no es nulo", "{c} no es nulo"),
    "isblank": ("está vacío", "{c} está vacío"),
    "notblank": ("no está vacío", "{c} no está vacío"),
}

# Integer columns that name something rather than count it: no thousands separator (a year is 2024,
# an id 12511). Primary and foreign keys here all end in "id" or are "orden".
_NAME_LIKE = re.compile(r"(^|_)(id|rowid|orden|anio|año|ano|year)$|Id$", re.IGNORECASE)


def thousands(n: int) -> str:
    """12389 -> "12.389"."""
    return f"{n:,}".replace(",", ".")


def rows(n: int, singular: str = "fila", plural: str = "filas") -> str:
    """1 -> "1 fila", 12389 -> "12.389 filas"."""
    return f"{thousands(n)} {singular if n == 1 else plural}"


def number(value: float | int) -> str | None:
    """A number as an Argentine reads it: 1430.5 -> "1.430,5", -1234567 -> "-1.234.567".  A float
    keeps the decimals Python prints for it once ``shown`` (no binary noise), and none when it is whole
    (1430.0 -> "1.430", as /v1 writes it when upstream sent 1430); one in exponent notation keeps it
    ("3,10634953e-13"); one not finite is left to Datasette (None)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, int):
        return thousands(value)
    if not math.isfinite(value):
        return None
    text = repr(shown(value))
    if "e" in text:  # 3.1063495266145467e-13 (the ipc of 1943): its SHOWN_DIGITS significant digits
        return f"{value:.{SHOWN_DIGITS}g}".replace(".", ",")
    sign, text = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, _, decimals = text.partition(".")
    return sign + thousands(int(whole)) + ("," + decimals if decimals.strip("0") else "")


# What a page shows of a float: 15 significant digits, which drop the noise of binary arithmetic
# (1.0578119999999998 is 1.057812), and at most SHOWN_DIGITS of them where a computed value carries more
# (the ipc's 10377.22160496616 is 10.377,2216), but never fewer than 2 decimals (a fund's patrimonio keeps
# its cents).  Only the pages: the JSON, the CSV and /v1 keep the stored value.
SHOWN_DIGITS = 10


def shown(value: float) -> float:
    value = float(f"{value:.15g}")
    if value == 0:
        return value
    # Digits before the point; 0 or fewer for a fraction (0.00012 has -3): a tiny value keeps its digits.
    whole_digits = math.floor(math.log10(abs(value))) + 1
    return round(value, max(2, SHOWN_DIGITS - whole_digits))


# The units of the metadata (``units``: Pint's names) that Datasette would write after the number,
# in Spanish: (singular, plural).
UNITS = {"percent": ("%", "%"), "day": ("día", "días")}


def cell(value, column: str, unit: str | None = None) -> str | None:
    """What a table cell shows for a number, or None for Datasette's own rendering: a float always
    formatted, an integer unless its column names something (an id, a year, an order); with its
    column's unit, if it has one ("2,9 %", "30 días"), which Datasette then no longer writes."""
    if isinstance(value, int) and not isinstance(value, bool) and _NAME_LIKE.search(column or ""):
        return None
    text = number(value)
    if text is None or not unit:
        return text
    if unit not in UNITS:
        return None  # a unit not translated here: Datasette's rendering, with Pint's symbol
    singular, plural = UNITS[unit]
    return f"{text}\u00a0{singular if value == 1 else plural}"


def lookup(key: str, display: str) -> str:
    """The filter menu's text for one of Datasette's lookups (its own for one not known here)."""
    return LOOKUPS[key][0] if key in LOOKUPS else display


def _quoted(value: str) -> str:
    return value if value.isdigit() else f'"{value}"'


def _clause(column: str, key: str, value: str) -> str | None:
    if key not in LOOKUPS:
        return None
    template = LOOKUPS[key][1]
    if key in ("exact", "not"):
        value = _quoted(value)
    elif key in ("in", "notin"):
        try:
            values = json.loads(value) if value.startswith("[") else [v.strip() for v in value.split(",")]
        except ValueError:
            values = value
        value = json.dumps(values, ensure_ascii=False)
    return template.format(c=column, v=value)


def _joined(bits: list[str]) -> str:
    return bits[0] if len(bits) == 1 else ", ".join(bits[:-1]) + " y " + bits[-1]


def describe(filters, args, count=None, metadata=None) -> str:
    """What Datasette 0.65 calls ``human_description_en`` ("where casa = "blue" sorted by fecha
    descending"), in Spanish: 'donde casa = "blue", ordenadas por fecha (descendente)'.

    ``filters`` is the table page's Filters (its ``selections()``), ``args`` the request's query
    string, ``count`` the rows it describes (for "ordenada"/"ordenadas") and ``metadata`` the table's
    (its default sort).  Built in the order Datasette builds its own: the search and ``_through``
    first, then the filters, then the sort."""
    bits = []
    if args.get("_search"):
        bits.append(f'la búsqueda coincide con "{args["_search"]}"')
    else:
        for key in args:
            if key.startswith("_search_"):
                bits.append(f'la búsqueda en {key[len("_search_") :]} coincide con "{args[key]}"')
    if args.get("_through"):
        try:
            through = json.loads(args["_through"])
            bits.append(f'{through["table"]}.{through["column"]} = "{through["value"]}"')
        except (ValueError, KeyError, TypeError):
            pass
    for column, key, value in filters.selections():
        clause = _clause(column, key, value)
        if clause:
            bits.append(clause)
    text = "donde " + _joined(bits) if bits else ""
    sort, sort_desc = args.get("_sort"), args.get("_sort_desc")
    if not sort and not sort_desc:
        sort, sort_desc = (metadata or {}).get("sort"), (metadata or {}).get("sort_desc")
    if sort or sort_desc:
        sorted_by = ("ordenada" if count == 1 else "ordenadas") + f" por {sort or sort_desc}"
        if sort_desc:
            sorted_by += " (descendente)"
        text = f"{text}, {sorted_by}" if text else sorted_by
    return text


# Datasette 0.65's and SQLite's English error messages, in Spanish (the pages only: a JSON error keeps them,
# programs read it).  Each pattern matches the whole message; {0}, {1} are its groups.
ERRORS: list[tuple[re.Pattern, str]] = [
    (re.compile(p, re.S), s)
    for p, s in [
        (r"404", "No existe esta página"),
        (r"Database not found", "No existe esa base"),
        (r"Table not found", "No existe esa tabla"),
        (r"Record not found", "No existe esa fila"),
        (r"No data", "Sin datos"),
        (r"Statement must be a SELECT", "La consulta tiene que ser un SELECT"),
        (r"Cannot sort table by (.*)", "No se puede ordenar la tabla por «{0}»: no es una de sus columnas"),
        (r"Cannot use _sort and _sort_desc at the same time", "No se puede usar _sort y _sort_desc a la vez"),
        (r"no such table: (.*)", "No existe la tabla «{0}»"),
        (r"no such column: (.*)", "No existe la columna «{0}»"),
        (r"no such function: (.*)", "No existe la función «{0}»"),
        (
            r"ambiguous column name: (.*)",
            "La columna «{0}» es ambigua: está en más de una tabla (escriba tabla.columna)",
        ),
        (r'near "(.*)": syntax error', "Error de sintaxis cerca de «{0}»"),
        (r"incomplete input", "La consulta está incompleta"),
        (r"unrecognized token: (.*)", "Símbolo no reconocido: {0}"),
        (r"(\d+) values for (\d+) columns", "{0} valores para {1} columnas"),
        (r"attempt to write a readonly database", "La base es de sólo lectura"),
        (r"interrupted", "La consulta tardó demasiado y se interrumpió"),
    ]
]


def error_text(message):
    """An error message as a page shows it: Datasette's or SQLite's English in Spanish, anything else (an HTML
    message, one already in Spanish) as it is."""
    if not isinstance(message, str) or hasattr(message, "__html__"):
        return message
    for pattern, spanish in ERRORS:
        found = pattern.fullmatch(message)
        if found:
            return spanish.format(*found.groups())
    return message
