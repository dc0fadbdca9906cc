"""The catalogue of series and their data, aligned: ``/v1/series`` and ``/v1/series/datos``.

The build writes the catalogue (``entries``) into the ``series`` table; ``/v1/series`` lists it, searched
and filtered; ``/v1/series/datos?ids=a,b`` gives the values of several series side by side, one row per
date, each series cut, converted, grouped and changed as its kind allows (respuestas/consulta.py), or as
upstream published them on a past day (``publicado=``, from the versions store).
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import re
import sqlite3
from typing import Any, Callable, Collection, Optional
from urllib.parse import parse_qsl, urlencode

import orjson

from argentina_datos.almacen import calidad, controles, habiles, versiones
from argentina_datos.almacen.propias import CALIDAD, SERIES, VERSIONES, SeriesEntry
from argentina_datos.almacen.tablas import table_exists
from argentina_datos.catalogo import sinonimos
from argentina_datos.catalogo.esquema import DAILY, KINDS, MONTHLY, RATE, ROW_ID
from argentina_datos.catalogo.series import NAMING_FIELDS, SPECS, THEMES_WITH_SERIES, SeriesSpec, disambiguated
from argentina_datos.respuestas import consulta, conversiones, publicaciones
from argentina_datos.respuestas.consulta import Query
from argentina_datos.respuestas.respuesta import ApiError, BadQuery

LIST_PATH = "/v1/series"
DATA_PATH = "/v1/series/datos"
RELEASES_PATH = "/v1/series/publicaciones"  # respuestas/publicaciones.py
CALENDAR_PATH = "/v1/series/calendario"
PATHS = (LIST_PATH, DATA_PATH, RELEASES_PATH, CALENDAR_PATH)
MAX_IDS = 20
# The parameters of the two routes (besides those of respuestas/consulta.py), for the cache key.
OWN_NAMES = ("ids", "q", "tema", "frecuencia", "tipo", "marcar", "dias", "limite", "pagina", *NAMING_FIELDS)
# marcar=calidad: a column «id:calidad» beside each series naming the findings that doubt that value
MARK = "calidad"
# publicado=primera: a column «id:publicado» beside each series with the day its value was first published
PUBLISHED = "publicado"
# dias=habiles: a daily series' values of business days only (almacen.habiles.business_day), as the quotes' habil
# column and the saved queries average them; todos (the default): every day upstream published, weekends too
DAYS = ("todos", "habiles")
DATA_NAMES = ("ids", "marcar", "dias")  # those of /v1/series/datos; the others, of the catalogue
# agrupar with funcion=maximo, minimo, primero or ultimo: a column «id:fecha» beside each series, the day its value
# comes from (consulta.PICKS)
DAY = "fecha"
DAY_OF_VALUE = consulta.day_key("valor")
PAGE, MAX_PAGE = 100, 1000  # series per page of /v1/series: by default, and at most
# How much a search word found in each column of the full-text index weighs (bm25), in its column order
# (construccion/tabla_series.py, FTS_COLUMNS): the title and the entity before the rest.
SEARCH_WEIGHTS = {
    "id": 2.0,
    "titulo": 10.0,
    "entidad": 8.0,
    "atributos": 3.0,
    "unidad": 1.0,
    "tema": 2.0,
    "descripcion": 1.0,
}
FREQUENCIES = tuple(dict.fromkeys(s.frequency for s in SPECS))
TODAY_VARIABLE = "ARGENTINA_DATOS_HOY"  # the reference date of «atrasada» (tests); today if unset


def today() -> dt.date:
    """The day lateness is measured against: $ARGENTINA_DATOS_HOY (AAAA-MM-DD) if set, else today (UTC)."""
    fixed = os.environ.get(TODAY_VARIABLE)
    return dt.date.fromisoformat(fixed) if fixed else dt.datetime.now(dt.timezone.utc).date()


def late(hasta: Optional[str], cadence: Optional[int], on: dt.date) -> bool:
    """Whether a series whose last observation is ``hasta`` is late on ``on``: more than ``cadence`` days (None:
    never late)."""
    if cadence is None:
        return False
    return hasta is None or (on - dt.date.fromisoformat(hasta[:10])).days > cadence


# ---- the catalogue, as the build writes it --------------------------------------------------
def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _business(fecha: str, holidays: set[str]) -> bool:
    try:
        return habiles.business_day(dt.date.fromisoformat(fecha[:10]), holidays)
    except ValueError:
        return False


def _calendar_day(value: str) -> bool:
    """A date of the calendar (the source has published 2025-02-30: kept, reported, and no observation)."""
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _source(spec: SeriesSpec) -> str:
    """SQL: the rows its series are read from: its table, or its member's child table joined to its parent."""
    parent = _quote(spec.dataset.table)
    if spec.member is None:
        return parent
    child = _quote(spec.table)
    return f"{child} JOIN {parent} ON {parent}.{ROW_ID} = {child}.{_quote(spec.dataset.table + '_id')}"


def _column(spec: SeriesSpec, name: str) -> str:
    """SQL: a column of its rows, of the child table if it has one of that name, else of the dataset's table."""
    return f"{_quote(spec.table if name in spec.member_columns else spec.dataset.table)}.{_quote(name)}"


def _days_where(conn: sqlite3.Connection, source: str, column: str) -> tuple[str, list[str]]:
    """SQL: ``column`` (of the rows of ``source``) starts with a date of the calendar.  The few distinct days of a
    table are checked here, not each of its rows in SQL (fci_serie: 1.3 million rows, 600 days)."""
    day = f"substr({column}, 1, 10)"
    # DISTINCT of the column itself walks an index on it, where there is one (fci_serie: 0.26 s -> 1 ms)
    stored = [d for (d,) in conn.execute(f"SELECT DISTINCT {column} FROM {source} WHERE {column} IS NOT NULL")]
    known = dict.fromkeys(d[:10] if isinstance(d, str) else str(d)[:10] for d in stored)
    bad = [d for d in known if not (len(d) == 10 and _calendar_day(d))]
    return f"{column} IS NOT NULL" + (f" AND {day} NOT IN ({', '.join('?' * len(bad))})" if bad else ""), bad


Days = tuple[str, list[str]]  # SQL: a row's date is a day of the calendar (_days_where), and its arguments


def _dataset_spans(
    conn: sqlite3.Connection, specs: list[SeriesSpec], days: Days
) -> dict[str, dict[tuple, tuple[str, str, int]]]:
    """The series of the measures ``specs`` of one table: each measure -> each series (its naming columns' stored
    values) -> its first and last day and its count of days with a number.  One pass over the table."""
    spec = specs[0]
    keys = [_column(spec, c) for c in spec.by]
    where, args = days
    # A table whose primary key is the naming columns and the date (fci_serie) has one row per series and day: its
    # days are counted without a DISTINCT, which sorted its 1.3 million rows once per measure (3.7 s -> 2.4 s).
    key = set(getattr(spec.dataset, "key", ()) or ())
    one_a_day = bool(key) and key == {*spec.by, spec.declared.date} and spec.member is None
    # A measure's column holds a number or NULL (what did not fit its kind is NULL: almacen/registros.py), so «has a
    # number» is IS NOT NULL; a typeof() test of each value cost 0.7 s more on fci_serie's 3 measures.
    columns = []
    for i in range(len(specs)):
        columns += [f"min(CASE WHEN m{i} IS NOT NULL THEN dia END)", f"max(CASE WHEN m{i} IS NOT NULL THEN dia END)"]
        columns.append(f"count(m{i})" if one_a_day else f"count(DISTINCT CASE WHEN m{i} IS NOT NULL THEN dia END)")
    # the inner query names its columns k0, k1... (the naming ones) and m0, m1... (the measures): a child's and its
    # parent's may share a name
    measures = "".join(f", {_column(s, s.field.name)} AS m{i}" for i, s in enumerate(specs))
    inner = "".join(f"{k} AS k{i}, " for i, k in enumerate(keys))
    named = "".join(f"k{i}, " for i in range(len(keys)))
    sql = (
        f"SELECT {named}{', '.join(columns)} FROM (SELECT {inner}substr({_column(spec, spec.declared.date)}, 1, 10) "
        f"AS dia{measures} FROM {_source(spec)} WHERE {' AND '.join([where, *(f'{k} IS NOT NULL' for k in keys)])})"
        + (f" GROUP BY {named.rstrip(', ')}" if keys else "")
    )
    n = len(keys)
    out: dict[str, dict[tuple, tuple[str, str, int]]] = {s.field.name: {} for s in specs}
    for row in conn.execute(sql, args):
        for i, s in enumerate(specs):
            first, last, count = row[n + 3 * i : n + 3 * i + 3]
            if first is not None:
                out[s.field.name][tuple(row[:n])] = (first, last, count)
    return out


def _describer(conn: sqlite3.Connection, spec: SeriesSpec, days: Days) -> Callable[[tuple], dict[str, Any]]:
    """The columns that name or describe a series of ``spec`` (from its naming columns' stored values), by the
    names they are shown with, with their value on its last day; an id into a lookup table (``fondo_id``) is
    shown as the name it stands for (``fondo``)."""
    by, others = list(spec.by), [c for c in spec.names if c not in spec.by]
    rows: dict[tuple, dict[str, Any]] = {}
    if others:
        day = _column(spec, spec.declared.date)
        where, args = days
        keys = ", ".join(_column(spec, c) for c in by)
        # max() makes SQLite take the other columns from the row of the last day
        sql = (
            f"SELECT {keys}, {', '.join(_column(spec, c) for c in others)}, max({day}) FROM {_source(spec)} "
            f"WHERE {where} GROUP BY {keys}"
        )
        rows = {tuple(r[: len(by)]): dict(zip(others, r[len(by) : -1])) for r in conn.execute(sql, args)}
    names = {c: _lookup(conn, table, c.removesuffix("_id")) for c, table in spec.lookups.items()}

    def describe(key: tuple) -> dict[str, Any]:
        values = {**dict(zip(by, key)), **rows.get(key, {})}
        return {
            shown: names[c].get(values.get(c), values.get(c)) if c in names else values.get(c)
            for c, shown in spec.names.items()
        }

    return describe


def _lookup(conn: sqlite3.Connection, table: str, column: str) -> dict[Any, Any]:
    return dict(conn.execute(f"SELECT id, {_quote(column)} FROM {_quote(table)}").fetchall())


def last_publications(conn: sqlite3.Connection) -> dict[str, str]:
    """Each route with stored versions -> when its last one was published (a series' ``ultimaActualizacion``)."""
    if not table_exists(conn, VERSIONES.name):
        return {}
    return dict(conn.execute(f"SELECT ruta, max(publicado) FROM {VERSIONES.name} GROUP BY ruta").fetchall())


def entries(conn: sqlite3.Connection, on: dt.date, datasets: Collection[str] | None = None) -> list[SeriesEntry]:
    """Every series the database has data for, in catalogue order (by dataset, then by the names of the series,
    then by measure).  ``datasets``: only the series of these datasets (or derived tables), by their table's name
    (an incremental build's changed ones: construccion/tabla_series.py keeps the others')."""
    out = []
    order = []  # each series' place: its dataset's in the catalogue, its naming values, its measure's
    last_published = last_publications(conn)
    taken: set[str] = set()
    read: dict[str, tuple[Callable[[tuple], dict[str, Any]], dict[str, dict[tuple, tuple[str, str, int]]]]] = {}
    for n, spec in enumerate(SPECS):
        table = spec.table
        if datasets is not None and spec.dataset.table not in datasets or not table_exists(conn, table):
            continue
        first = next(i for i, s in enumerate(SPECS) if s.dataset is spec.dataset)
        if table not in read:
            same = [s for s in SPECS if s.dataset is spec.dataset]
            days = _days_where(conn, _source(spec), _column(spec, spec.declared.date))
            read[table] = (_describer(conn, spec, days), _dataset_spans(conn, same, days))
        describe, computed = read[table]
        spans = computed[spec.field.name]
        found = []
        for key, span in spans.items():
            named = describe(key)
            found.append(([str(named[spec.names[c]]) for c in spec.by], key, named, span))
        for shown, key, named, (desde, hasta, count) in sorted(found, key=lambda f: f[0]):
            order.append((first, shown, n))
            route = spec.route_of(key)
            cadence = spec.late_after if spec.declared.report_late else None
            series_id = spec.series_id(shown)
            if series_id in taken:  # two names with one slug (the id rule, catalogo/series.py)
                series_id = disambiguated(series_id, orjson.dumps(shown).decode())
            taken.add(series_id)
            labels = [named[spec.names[c]] for c in (spec.declared.labels or spec.by)]
            out.append(
                SeriesEntry(
                    id=series_id,
                    titulo=spec.title(labels),
                    descripcion=f"{spec.field.description} ({spec.dataset.title}, tabla {spec.table})"
                    + (f"; {words}" if (words := spec.keywords(shown)) else ""),
                    tema=spec.theme,
                    unidad=spec.unit(named),
                    frecuencia=spec.frequency,
                    tipo=spec.kind,
                    desde=desde,
                    hasta=hasta,
                    observaciones=count,
                    fuente=spec.dataset.origin,
                    ruta=route,
                    tabla=spec.table,
                    columna=spec.field.name,
                    filtro=orjson.dumps(dict(zip(spec.by, key))).decode(),
                    entidad=", ".join(str(v) for v in labels if v is not None) or None,
                    atributos=orjson.dumps(named).decode(),
                    ultimaActualizacion=last_published.get(route),
                    cadencia=cadence,
                    atrasada=late(hasta, cadence, on),
                )
            )
    return [e for _, e in sorted(zip(order, out), key=lambda pair: pair[0])]


# ---- /v1/series ---------------------------------------------------------------------------
def own_params(query_string: bytes | str) -> dict[str, str]:
    """The parameters of the series routes (the last of each wins), and those no /v1 route takes (``ignored``)."""
    if isinstance(query_string, bytes):
        query_string = query_string.decode("utf-8", "replace")  # as consulta.parse reads it
    return {n: v for n, v in parse_qsl(query_string, keep_blank_values=True) if n not in consulta.BY_NAME}


def ignored(params: dict[str, str]) -> list[str]:
    """The names of ``params`` that no series route takes: named in the answer (``aviso``), never a 400, since a
    spreadsheet adds one that changes (``&x=2``) to make the same URL be asked again."""
    return [n for n in params if n not in OWN_NAMES]


def cache_key(params: dict[str, str]) -> str:
    """The series parameters' values, and the names of the ignored ones (any value: the same answer)."""
    return "".join(f"&{n}={params[n]}" for n in OWN_NAMES if n in params) + "".join(f"&{n}" for n in ignored(params))


def warning(path: str, params: dict[str, str]) -> Optional[str]:
    """What the answer says of the parameters it ignored (None: none), naming those it takes."""
    names = ignored(params)
    if not names:
        return None
    own = [n for n in OWN_NAMES if (n in DATA_NAMES) == (path == DATA_PATH)]
    takes = (
        list(TAKES[path])
        if path in TAKES
        else [*own, *(p.name for p in consulta.PARAMETERS if path == DATA_PATH or not p.transforms)]
    )
    return (
        f"{'se ignoró' if len(names) == 1 else 'se ignoraron'} {', '.join(f'«{n[:40]}»' for n in names)}: "
        f"{path} toma {', '.join(takes)}"
    )


def _as_json(row: dict, on: dt.date) -> dict:
    out = dict(row)
    out["filtro"] = orjson.loads(row["filtro"])
    if "atributos" in row:
        out["atributos"] = orjson.loads(row["atributos"])
    out["atrasada"] = late(row["hasta"], row["cadencia"], on)
    return out


def _choice(params: dict, name: str, choices) -> Optional[str]:
    value = params.get(name)
    if value is not None and value not in choices:
        raise BadQuery(name, f"«{name}» debe ser uno de: {', '.join(choices)}; no «{value[:40]}»")
    return value


def _page(params: dict, name: str, default: int, most: int) -> int:
    text = params.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= most:  # not «²», which int() refuses
        raise BadQuery(name, f"«{name}» debe ser un entero de 1 a {most:,}; no «{text[:40]}»".replace(",", "."))
    return int(text)


def catalogue(conn: sqlite3.Connection, params: dict[str, str], on: dt.date) -> tuple[list[dict], bool]:
    """A page of the ``series`` table, searched (``q``: every word, as the start of a word, in its id, title,
    entity, attributes, unit, theme or description, without minding accents or capitals; the best matches
    first), filtered (``tema``, ``frecuencia``, ``tipo`` and the fields that name or describe series:
    ``moneda=USD``) and paged (``limite`` series from page ``pagina``); and whether a next page has series."""
    if not table_exists(conn, SERIES.name):
        raise BadQuery("q", "la base no tiene el catálogo de series (tabla series): constrúyala de nuevo")
    for name in ("marcar", "dias"):
        if name in params:
            raise BadQuery(name, f"«{name}» no se aplica al catálogo de series; sí a /v1/series/datos")
    where, args = [], []
    for name, choices in (("tema", THEMES_WITH_SERIES), ("frecuencia", FREQUENCIES), ("tipo", KINDS)):
        value = _choice(params, name, choices)
        if value is not None:
            where.append(f's."{name}" = ?')
            args.append(value)
    for name in NAMING_FIELDS:
        if name in params:
            # Any capitals: moneda=usd finds USD, casa=Blue the blue
            where.append(f"lower(json_extract(s.atributos, '$.\"{name}\"')) = lower(?)")
            args.append(params[name])
    limit = _page(params, "limite", PAGE, MAX_PAGE)
    offset = (_page(params, "pagina", 1, 10**6) - 1) * limit
    rows = _catalogue_rows(conn, params, where, args, limit + 1, offset, on)  # one more: is there a next page?
    return rows[:limit], len(rows) > limit


def _catalogue_rows(
    conn: sqlite3.Connection, params: dict[str, str], where: list[str], args: list, limit: int, offset: int, on: dt.date
) -> list[dict]:
    words = (params.get("q") or "").split()
    filters = "".join(f" AND {w}" for w in where)
    if not words:
        sql = f"SELECT s.* FROM {SERIES.name} s WHERE 1{filters} ORDER BY rowid LIMIT ? OFFSET ?"
        cursor = conn.execute(sql, [*args, limit, offset])
    else:
        match = _match(params.get("q") or "")
        rows = _searched(conn, match, filters, args)
        if rows is None:  # words that thousands of series have: in catalogue order
            sql = (
                f"SELECT s.* FROM {SERIES.name} s WHERE s.rowid IN (SELECT rowid FROM {SERIES.name}_fts "
                f"WHERE {SERIES.name}_fts MATCH ?){filters} ORDER BY rowid LIMIT ? OFFSET ?"
            )
            cursor = conn.execute(sql, [match, *args, limit, offset])
        else:
            page = rows[offset : offset + limit]
            cursor = conn.execute(
                f"SELECT rowid, * FROM {SERIES.name} WHERE rowid IN ({', '.join('?' * len(page))})", page
            )
            names = [d[0] for d in cursor.description][1:]
            by_rowid = {row[0]: row[1:] for row in cursor}
            return _counted(conn, [_as_json(dict(zip(names, by_rowid[r])), on) for r in page])
    names = [d[0] for d in cursor.description]
    return _counted(conn, [_as_json(dict(zip(names, row)), on) for row in cursor])


def _match(query: str) -> str:
    """The full-text query of a search: every word, as the start of a word («infla» finds «Inflación»), quoted so
    that no character of it is FTS syntax; a name people use (catalogo/sinonimos.py: «mep») or the catalogue's
    words for it («bolsa»)."""

    def every(words: list[str]) -> str:
        return " AND ".join('"' + w.replace('"', '""') + '"*' for w in words)

    groups = [
        every(ways[0]) if len(ways) == 1 else "(" + " OR ".join(f"({every(w)})" for w in ways) + ")"
        for ways in sinonimos.expanded(query)
    ]
    return " AND ".join(groups)


def next_page(params: dict[str, str], query: Query) -> str:
    """The URL of the catalogue's next page, for the answer's ``Link: <...>; rel="next"`` header (in the same
    format, with the same decimal mark)."""
    asked = {**params, "pagina": str(int(params.get("pagina") or 1) + 1)}
    return f"{LIST_PATH}?{urlencode({**asked, **dict(query.given)})}"


def _counted(conn: sqlite3.Connection, rows: list[dict]) -> list[dict]:
    """``rows`` of the catalogue, each with ``calidad``: how many findings are about its series; and its rhythm of
    publication (``publicacion``)."""
    counts = _finding_counts(conn)
    for row in rows:
        row["calidad"] = sum(n for campo, n in counts.get(_where(row), {}).items() if _about(campo, row["columna"]))
    return _with_rhythm(conn, rows)


def _with_rhythm(conn: sqlite3.Connection, rows: list[dict]) -> list[dict]:
    """``rows`` of the catalogue, each with ``publicacion``: its route's rhythm of publication and next expected
    publication (respuestas/publicaciones.py), or null for a series without versions of its own."""
    versioned = versiones.versioned_routes(conn)
    known: dict[tuple[str, str], Optional[dict]] = {}  # (route, frequency) -> its rhythm: once per answer
    for row in rows:
        of = (row["ruta"], row["frecuencia"])
        if of not in known:
            found = publicaciones.rhythm(conn, *of) if row["ruta"] in versioned and not _is_history(row) else None
            known[of] = found.as_json() if found is not None else None
        row["publicacion"] = known[of]
    return rows


def _is_history(entry: dict) -> bool:
    """A series of a history table: its values already are those of each version its route published."""
    return getattr(_SPEC_OF[(entry["tabla"], entry["columna"])].dataset, "versions_of", None) is not None


# ---- what the calidad table says about a series ------------------------------------------------
def _where(entry: dict) -> tuple[str, Optional[str]]:
    """The (tabla, serie) a finding about ``entry`` has: its table and its naming values as calidad writes them."""
    filtro = entry["filtro"]
    return entry["tabla"], calidad.series_label(list(filtro), list(filtro.values()))


def _about(campo: Optional[str], column: str) -> bool:
    """Whether a finding on ``campo`` (null: the whole record or series; «compra, venta») is about ``column``."""
    return campo is None or column in campo.split(", ")


def _finding_counts(conn: sqlite3.Connection) -> dict[tuple, dict[Optional[str], int]]:
    """(tabla, serie) -> campo -> how many findings: every series' count in one query."""
    if not table_exists(conn, CALIDAD.name):
        return {}
    out: dict[tuple, dict[Optional[str], int]] = {}
    for tabla, serie, campo, n in conn.execute(
        f"SELECT tabla, serie, campo, count(*) FROM {CALIDAD.name} GROUP BY tabla, serie, campo"
    ):
        out.setdefault((tabla, serie), {})[campo] = n
    return out


def _flagged_spans(conn: sqlite3.Connection, entry: dict) -> list[tuple[str, str, str]]:
    """(first day, last day, check) of the findings that doubt ``entry``'s values (controles.Control.marks)."""
    marking = [c.name for c in controles.CONTROLS if c.marks]
    if not table_exists(conn, CALIDAD.name):
        return []
    tabla, serie = _where(entry)
    rows = conn.execute(
        f"SELECT fecha, coalesce(hasta, fecha), control, campo FROM {CALIDAD.name} WHERE tabla = ? AND serie IS ? "
        f"AND fecha IS NOT NULL AND control IN ({', '.join('?' * len(marking))}) ORDER BY fecha",
        [tabla, serie, *marking],
    )
    return [(first, last, control) for first, last, control, campo in rows if _about(campo, entry["columna"])]


def _marks(spans: list[tuple[str, str, str]], days: list[str], agrupar: Optional[str]) -> dict[str, str]:
    """day -> the checks (joined by «; ») whose spans overlap the day or the period it starts."""
    out = {}
    for day in days:
        end = _period_end(day, agrupar) if agrupar else day
        found = list(dict.fromkeys(control for first, last, control in spans if first <= end and last >= day))
        if found:
            out[day] = "; ".join(found)
    return out


# A search that thousands of series match («fondo», «fci») is not ranked: bm25 over each of them would take
# tens of milliseconds, and a word that common does not tell them apart.  Those come in catalogue order.
RANKED_AT_MOST = 2000


def _searched(conn: sqlite3.Connection, match: str, filters: str, args: list) -> Optional[list[int]]:
    """The rowids of the series that ``match`` and ``filters`` find, best first, or None if there are more than
    RANKED_AT_MOST.  Best: a plain series before its variants (sinonimos.RANK_AFTER), then bm25 with
    SEARCH_WEIGHTS; the series of one entity (a fund's value, shares and net
    assets) together, in catalogue order, ranked by the best of them."""
    fts = f"{SERIES.name}_fts"
    (count,) = conn.execute(f"SELECT count(*) FROM {fts} WHERE {fts} MATCH ?", [match]).fetchone()
    if count > RANKED_AT_MOST:
        return None
    weights = ", ".join(str(w) for w in SEARCH_WEIGHTS.values())
    sql = (
        f"SELECT s.rowid, s.tabla, s.entidad, bm25({fts}, {weights}) FROM {fts} JOIN {SERIES.name} s "
        f"ON s.rowid = {fts}.rowid WHERE {fts} MATCH ?{filters}"
    )
    scored = conn.execute(sql, [match, *args]).fetchall()
    best: dict[tuple, float] = {}
    for _, tabla, entidad, score in scored:
        best[(tabla, entidad)] = min(score, best.get((tabla, entidad), score))
    after = sinonimos.RANK_AFTER
    return [r[0] for r in sorted(scored, key=lambda r: (after.get(r[1], 0), best[(r[1], r[2])], r[0]))]


def series_ids(conn: sqlite3.Connection) -> list[str]:
    """The ids of the database's catalogue of series, in its order (none without the table)."""
    if not table_exists(conn, SERIES.name):
        return []
    return [i for (i,) in conn.execute(f"SELECT id FROM {SERIES.name} ORDER BY rowid")]


# ---- /v1/series/datos ------------------------------------------------------------------------
def _entries_by_id(conn: sqlite3.Connection, ids: list[str], on: dt.date) -> list[dict]:
    """The catalogue entries of ``ids``, in that order; a 400 naming every unknown one."""
    if not table_exists(conn, SERIES.name):
        raise BadQuery("ids", "la base no tiene el catálogo de series (tabla series): constrúyala de nuevo")
    found = {}
    for i in ids:
        cursor = conn.execute(f"SELECT * FROM {SERIES.name} WHERE id = ?", [i])
        row = cursor.fetchone()
        if row is not None:
            found[i] = _as_json(dict(zip([d[0] for d in cursor.description], row)), on)
    unknown = [i for i in ids if i not in found]
    if unknown:
        named = []
        for n, u in enumerate(unknown):
            near = nearest_ids(conn, u) if n < SUGGESTED_AT_MOST else []
            named.append(repr(u[:60]) + (f" (¿quiso decir {' o '.join(near)}?)" if near else ""))
        raise BadQuery("ids", f"no hay series con id {', '.join(named)}; el catálogo está en /v1/series")
    return _counted(conn, [found[i] for i in ids])  # with calidad, as /v1/series lists them


SUGGESTED_AT_MOST = 3  # unknown ids of one request that get suggestions (each costs a search)
ALIKE_AT_MOST = 2000  # ids whose spelling an unknown id is compared with


def nearest_ids(conn: sqlite3.Connection, asked: str, most: int = 3) -> list[str]:
    """The ids of the series a caller who wrote ``asked`` likely meant: the one spelled so in other capitals
    (INFLACION), else what a search for its words finds (cotizaciones_dolares.mep.venta: the bolsa's), else the
    ids spelled most alike within its table (or among the ids of one part: inflation, inflacion)."""
    (same,) = conn.execute(
        f"SELECT group_concat(id, ' ') FROM {SERIES.name} WHERE lower(id) = lower(?)", [asked]
    ).fetchone()
    if same:
        return same.split()[:most]
    words = " ".join(w for w in re.split(r"[._~\s-]+", asked[:200]) if w)
    rows = (_searched(conn, _match(words), "", []) or [])[:most] if words else []
    if rows:
        by_rowid = dict(
            conn.execute(f"SELECT rowid, id FROM {SERIES.name} WHERE rowid IN ({', '.join('?' * len(rows))})", rows)
        )
        return [by_rowid[r] for r in rows]
    table = asked.split(".")[0].lower()
    alike = [
        i
        for (i,) in conn.execute(
            f"SELECT id FROM {SERIES.name} WHERE lower(tabla) = ? OR instr(id, '.') = 0 LIMIT ?",
            [table, ALIKE_AT_MOST + 1],
        )
    ]
    # Spelling compared with a table of thousands (the funds') would take a second an id: then the search alone.
    return difflib.get_close_matches(asked, alike, n=most, cutoff=0.6) if len(alike) <= ALIKE_AT_MOST else []


def parse_ids(params: dict[str, str]) -> list[str]:
    """The columns asked for: each a series id, or ``id:variacion`` (that series as its change alone)."""
    text = params.get("ids")
    if not text:
        raise BadQuery("ids", "falta «ids»: los ids de las series separados por comas (de /v1/series), hasta 20")
    ids = list(dict.fromkeys(i.strip() for i in text.split(",") if i.strip()))
    if not ids:
        raise BadQuery("ids", "«ids» no nombra ninguna serie")
    if len(ids) > MAX_IDS:
        raise BadQuery("ids", f"«ids» nombra {len(ids)} series: el máximo es {MAX_IDS}")
    changes = consulta.BY_NAME["variacion"].choices
    for token in ids:
        mode = token.partition(":")[2]
        if ":" in token and mode not in changes:
            raise BadQuery(
                "ids",
                f"«{token[:80]}»: después de «:» va una variación ({', '.join(changes)}), no «{mode[:40]}»",
            )
    return ids


def _records(
    conn: sqlite3.Connection, entry: dict, fecha: Optional[str], span: tuple[str, str] = ("", "\uffff")
) -> list[dict]:
    """The series' records (each with fecha and its column), as the database has them or, with ``fecha`` (the
    parameter ``publicado``), as upstream published its route that day; ``primera``: each observation's first
    published value, with the day (``publicado``), of the observations dated within ``span``."""
    filtro = entry["filtro"]
    if fecha is None:
        return _stored(conn, entry)
    _check_versioned(conn, entry, fecha)
    if fecha == consulta.FIRST:
        periods = versiones.value_periods(conn, entry["ruta"], entry["columna"], filtro, *span)
        return [{"fecha": f, entry["columna"]: v, PUBLISHED: d} for f, v, d, _, first in periods if first]
    body = versiones.published_on(conn, entry["ruta"], fecha)
    if body is None:
        first = versiones.first_day(conn, entry["ruta"])
        why = f"sus versiones empiezan el {first}" if first else f"{entry['ruta']} no tiene versiones guardadas"
        raise ApiError(
            404, f"«publicado» = {fecha}: no se sabe cómo estaba la serie {entry['id']} ese día ({why})", "publicado"
        )
    data = orjson.loads(body)
    if isinstance(data, dict):  # an envelope around the list
        data = next((v for v in data.values() if isinstance(v, list)), [])
    records = [r for r in data if isinstance(r, dict)]
    return [r for r in records if all(r.get(k) == v for k, v in filtro.items())]


def _check_versioned(conn: sqlite3.Connection, entry: dict, fecha: str) -> None:
    """A 400 for a series whose values already are those of each version (a history table), or named by a value its
    route's records do not carry; a 404 for one whose route has no stored versions."""
    filtro = entry["filtro"]
    if _is_history(entry):
        # A series over a history table (a bank's rate, a bond's price on each day we hold) already is what each
        # version published; the versions' records carry no date of their own to make it from.
        raise BadQuery(
            "publicado",
            f"«publicado»: la serie {entry['id']} (nombrada por {', '.join(filtro)}) es la historia de {entry['ruta']}: "
            f"sus valores ya son los de cada versión publicada (tabla {entry['tabla']}); pídala sin «publicado» "
            "(con «hasta», lo publicado hasta ese día)",
        )
    if versiones.first_day(conn, entry["ruta"]) is None:
        raise ApiError(
            404,
            f"«publicado={fecha}»: {entry['ruta']}, la ruta de {entry['id']}, no tiene versiones guardadas",
            "publicado",
        )
    unpublished = [k for k in filtro if not versiones.carries(conn, entry["ruta"], k)]
    if unpublished:
        # A series named by a value its route's records do not carry (a path value: fci_otros' entidad), which the
        # records of a version cannot be matched by.
        raise BadQuery(
            "publicado",
            f"«publicado»: la serie {entry['id']} se nombra por {', '.join(unpublished)}, que {entry['ruta']} no "
            f"publica; sus valores ya son los de cada versión publicada (tabla {entry['tabla']}): pídala sin «publicado»",
        )


def _stored(conn: sqlite3.Connection, entry: dict) -> list[dict]:
    """The series' dated values as its table holds them (its naming columns equal to its ``filtro``), by date: one
    a date, the last stored (a child's own date repeats in each version of its parent that carries it)."""
    column, spec = entry["columna"], _SPEC_OF[(entry["tabla"], entry["columna"])]
    day = _column(spec, spec.declared.date)
    where = "".join(f" AND {_column(spec, c)} IS ?" for c in entry["filtro"])
    # of one date, the value of the last version (the parent's date) and its last row within the version
    parent = _quote(spec.dataset.table)
    then = f", {parent}.{_quote(spec.declared.date)}, {parent}.{ROW_ID}, {_quote(spec.table)}.{ROW_ID}"
    then = then if spec.member else ""
    sql = (
        f"SELECT {day}, {_column(spec, column)} FROM {_source(spec)} WHERE {day} IS NOT NULL{where} "
        f"ORDER BY {day}{then}"
    )
    values = dict(conn.execute(sql, list(entry["filtro"].values())).fetchall())
    return [{"fecha": d, column: v} for d, v in values.items()]


_SPEC_OF = {(s.table, s.field.name): s for s in SPECS}


def data(
    conn: sqlite3.Connection,
    params: dict[str, str],
    query: Query,
    on: dt.date,
    cpi: Optional[dict[str, float]] = None,
) -> dict[str, Any]:
    """``{"series": [entries], "datos": [{"fecha", id: value...}]}``, dates in order, null where a series lacks one,
    and ``aviso`` naming the parameters it ignored, if any.  ``cpi``: the CPI's levels by month (AAAA-MM), for
    ``ajustar=ipc``."""
    answer = _aligned(conn, params, query, on, cpi)[0]
    said = warning(DATA_PATH, params)
    return {**answer, "aviso": said} if said else answer


def table(
    conn: sqlite3.Connection,
    params: dict[str, str],
    query: Query,
    on: dt.date,
    cpi: Optional[dict[str, float]] = None,
) -> list[dict[str, Any]]:
    """The rows of ``data`` for a CSV: each column headed by what its numbers are after the query, «título
    (unidad) [clave]» (``column_header``), its key in the JSON rows (the id asked for) between brackets."""
    answer, headers = _aligned(conn, params, query, on, cpi)
    return [{headers.get(k, k): v for k, v in row.items()} for row in answer["datos"]]


def column_header(entry: dict, key: str) -> str:
    """A CSV column's header: the series' title and unit as labelled (after ajustar, agrupar, variacion) and, between
    brackets, ``key``, the column's name in the JSON rows: «Dólar blue: venta (pesos por dólar)
    [cotizaciones_dolares.blue.venta]»."""
    unit = f" ({entry['unidad']})" if entry.get("unidad") else ""
    return f"{entry['titulo']}{unit} [{key}]"


def _aligned(
    conn: sqlite3.Connection,
    params: dict[str, str],
    query: Query,
    on: dt.date,
    cpi: Optional[dict[str, float]],
) -> tuple[dict[str, Any], dict[str, str]]:
    """``data``'s answer, and the CSV header of each of its columns but fecha (column key -> header)."""
    tokens = parse_ids(params)
    mark = params.get("marcar")
    if mark is not None and mark != MARK:
        raise BadQuery("marcar", f"«marcar» sólo puede ser «{MARK}», no «{mark[:40]}»")
    business = _choice(params, "dias", DAYS) == "habiles"
    holidays = habiles.holidays(conn)[0] if business else set()
    ids = list(dict.fromkeys(t.partition(":")[0] for t in tokens))
    entries_ = _entries_by_id(conn, ids, on)
    if query.publicado == consulta.ALL:
        if params.get("dias", "todos") != "todos":
            raise BadQuery("dias", "«dias» no va con «publicado=todas», que da cada valor tal como se publicó")
        return _every_value(conn, tokens, entries_, query, mark), {}
    as_stored = dict(zip(ids, entries_))
    by_id = dict(as_stored)
    if query.ajustar:
        not_pesos = [e["id"] for e in entries_ if not (e["unidad"] or "").startswith("pesos")]
        if not_pesos:
            raise BadQuery(
                "ajustar", f"«ajustar={query.ajustar}» convierte montos en pesos; no lo son: {', '.join(not_pesos)}"
            )
    convert = conversiones.converter(conn, query.ajustar, query.base, query.span, cpi or {}) if query.ajustar else None
    plain = query.replaced(ajustar=None, base=None, publicado=None, formato=None)
    columns: dict[str, dict[str, Any]] = {}
    headers: dict[str, str] = {}
    first_days: dict[str, dict[str, str]] = {}  # publicado=primera: token -> each row's day of first publication
    # a value the function picked from one day's (maximo...) comes with that day, in the column «id:fecha»
    picked = query.agrupar is not None and query.funcion in consulta.PICKS
    days_of: dict[str, dict[str, Any]] = {}
    month = _cpi_month(conn, query)
    for token in tokens:
        entry, mode = as_stored[token.partition(":")[0]], token.partition(":")[2]
        asked = plain.replaced(variacion=mode) if mode else plain
        column = entry["columna"]
        # the observations of the range alone, where no change needs the one before it
        span = ("", "\uffff") if asked.variacion else query.span
        published = [r for r in _records(conn, entry, query.publicado, span) if isinstance(r.get("fecha"), str)]
        records = [{"fecha": r["fecha"], "valor": r.get(column)} for r in published]
        if query.publicado == consulta.FIRST:
            first_days[token] = _first_days(published, query)
        if business and entry["frecuencia"] == DAILY:
            records = [r for r in records if _business(r["fecha"], holidays)]
        if convert is not None:
            records = convert(records, {"valor"})
        rates = frozenset({"valor"}) if entry["tipo"] == RATE else frozenset()
        try:
            done = consulta.apply(records, asked, rates=rates) if asked.filters else records
        except BadQuery as e:
            raise BadQuery(e.param, f"{e} (serie {token})") from None
        columns[token] = {r["fecha"][:10]: r["valor"] for r in done if "fecha" in r}
        if picked:
            days_of[token] = {r["fecha"][:10]: r.get(DAY_OF_VALUE) for r in done if "fecha" in r}
            headers[f"{token}:{DAY}"] = f"día del valor [{token}:{DAY}]"
        shown = labelled(entry, query.replaced(variacion=mode) if mode else query, records, month, business)
        headers[token] = column_header(shown, token)
        headers[f"{token}:{MARK}"] = f"{MARK} [{token}:{MARK}]"
        headers[f"{token}:{PUBLISHED}"] = f"{PUBLISHED} [{token}:{PUBLISHED}]"
        if not mode:
            by_id[entry["id"]] = shown
    days = sorted(set().union(*columns.values()))
    rows = [{"fecha": d, **{t: columns[t].get(d) for t in tokens}} for d in days]
    for token, first in first_days.items():
        for row in rows:
            row[f"{token}:{PUBLISHED}"] = first.get(str(row["fecha"])) if row[token] is not None else None
    if picked:
        for day, row in zip(days, rows):
            row.update({f"{t}:{DAY}": days_of[t].get(day) for t in tokens})
    if mark:
        for token in tokens:
            own = sorted(columns[token])
            marks = _marks(_flagged_spans(conn, by_id[token.partition(":")[0]]), own, query.agrupar)
            for row in rows:
                row[f"{token}:{MARK}"] = marks.get(str(row["fecha"]))
    return {"series": [by_id[i] for i in ids], "datos": rows}, headers


def _first_days(published: list[dict], query: Query) -> dict[str, str]:
    """publicado=primera: each row's day of first publication (by its fecha, AAAA-MM-DD): its observation's or, with
    ``agrupar``, the latest of its period's observations within desde and hasta (the day the period's figure could
    first be computed)."""
    desde, hasta = query.span
    out: dict[str, str] = {}
    for r in published:
        day = r["fecha"][:10]
        if query.agrupar and not desde <= day <= hasta:
            continue
        key = consulta.period_start(day, query.agrupar) if query.agrupar else day
        out[key] = max(out.get(key, ""), r[PUBLISHED])
    return out


def _every_value(
    conn: sqlite3.Connection, tokens: list[str], entries_: list[dict], query: Query, mark: Optional[str]
) -> dict[str, Any]:
    """publicado=todas: one row per observation of each series (within desde, hasta and fecha) and value it had, with
    the days it was in force (ALFRED's real-time periods)."""
    for name in ("agrupar", "variacion", "ajustar"):
        if getattr(query, name) is not None:
            raise BadQuery(name, f"«{name}» no va con «publicado=todas», que da cada valor tal como se publicó")
    if mark or any(":" in t for t in tokens):
        raise BadQuery(
            "marcar" if mark else "ids",
            "«publicado=todas» da cada valor tal como se publicó: sin «marcar» ni «id:variacion»",
        )
    (desde, hasta), period = query.span, query.period
    rows = []
    for entry in entries_:
        _check_versioned(conn, entry, consulta.ALL)
        periods = versiones.value_periods(conn, entry["ruta"], entry["columna"], entry["filtro"], desde, hasta)
        rows += [
            {"serie": entry["id"], "fecha": f, "valor": v, "publicadoDesde": d, "publicadoHasta": h}
            for f, v, d, h, _ in periods
            if f.startswith(period)
        ]
        if len(rows) > consulta.MAX_VALUES:
            raise BadQuery(
                "publicado",
                f"«publicado=todas» da más de {consulta.MAX_VALUES:,} filas con estas series y fechas: acótelo con desde y hasta "
                "o con menos ids".replace(",", "."),
            )
    return {"series": entries_, "datos": rows}


# ---- labels that follow what was done to the numbers ---------------------------------------
MONTHS = "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split()
PERIODS = {"semana": "semanal", "mes": "mensual", "trimestre": "trimestral", "anio": "anual"}
FUNCTIONS = {"promedio": "promedio", "ultimo": "último", "primero": "primero", "minimo": "mínimo"}
FUNCTIONS |= {"maximo": "máximo", "suma": "suma"}
FRACTION = "fracción (0.05 = 5 %)"
# Days a daily series may lack at either end of a period that it still covers whole (a weekend and a holiday).
DAILY_SLACK = 4


def _cpi_month(conn: sqlite3.Connection, query: Query) -> Optional[str]:
    """The month (AAAA-MM) whose pesos ``ajustar=ipc`` gives: ``base``, or the CPI's last."""
    if query.ajustar != "ipc":
        return None
    if query.base:
        return query.base
    if not table_exists(conn, "ipc"):
        return None
    (last,) = conn.execute("SELECT max(mes) FROM ipc WHERE valor IS NOT NULL").fetchone()
    return last


# A casa that is an adjective agrees with «dólares» («dólares oficiales»); the others are names (dólares blue, tarjeta).
PLURALS = {"oficial": "oficiales", "mayorista": "mayoristas"}


def dollars_of(casa: str) -> str:
    """The casa as it follows «dólares»: «oficiales», «blue»."""
    return PLURALS.get(casa, casa)


def converted_unit(unit: Optional[str], how: str, month: Optional[str]) -> Optional[str]:
    """The unit of an amount of pesos (``unit``: pesos, pesos por dólar...) after ``ajustar=how``: pesos de enero de
    2026 por dólar, UVA por cuotaparte, dólares blue del día."""
    if not unit or not unit.startswith("pesos"):
        return unit
    rest = unit.removeprefix("pesos")
    if how == "ipc":
        name = f"pesos de {MONTHS[int(month[5:7]) - 1]} de {month[:4]}" if month else "pesos del último mes del IPC"
    elif how == "uva":
        name = "UVA"
    else:
        name = f"dólares {dollars_of(how.removeprefix('dolar-'))} del día"
    return name + rest


def _period_end(start: str, period: str) -> str:
    day = dt.date.fromisoformat(start)
    if period == "semana":
        return (day + dt.timedelta(days=6)).isoformat()
    months = {"mes": 1, "trimestre": 3, "anio": 12}[period]
    month = day.month - 1 + months
    return (dt.date(day.year + month // 12, month % 12 + 1, 1) - dt.timedelta(days=1)).isoformat()


def partial_periods(days: list[str], period: str, frequency: str) -> list[str]:
    """The periods (their first day) that the observations ``days`` (in order) do not cover whole: the first
    and the last, when the series starts after the period starts or ends before it ends (a monthly value covers
    its month; a daily series may lack ``DAILY_SLACK`` days at either end, a weekend and a holiday)."""
    if not days:
        return []
    first, last = dt.date.fromisoformat(days[0][:10]), dt.date.fromisoformat(days[-1][:10])
    slack = dt.timedelta(days=DAILY_SLACK if frequency != MONTHLY else 0)
    if frequency == MONTHLY:
        last = dt.date.fromisoformat(_period_end(last.replace(day=1).isoformat(), "mes"))
        first = first.replace(day=1)
    out = []
    for start in dict.fromkeys(
        (consulta.period_start(days[0][:10], period), consulta.period_start(days[-1][:10], period))
    ):
        begins, ends = dt.date.fromisoformat(start), dt.date.fromisoformat(_period_end(start, period))
        if first - slack > begins or last + slack < ends:
            out.append(start)
    return out


def labelled(entry: dict, query: Query, records: list[dict], month: Optional[str], business: bool = False) -> dict:
    """``entry`` as its numbers are after ``query``: its unit after ``ajustar``, its title and frequency after
    ``agrupar`` (with ``funcion``: «Inflación anual (compuesta)»; a daily series' says over which days: «mensual
    (promedio de días hábiles)», ``business``, or «(promedio de todos los días publicados)»), the periods it does
    not cover whole (``parciales``) and its unit after ``variacion``."""
    out = dict(entry)
    daily = entry["frecuencia"] == DAILY
    if business and daily and not query.agrupar:
        out["titulo"] = f"{entry['titulo']}, días hábiles"
    if query.ajustar:
        out["unidad"] = converted_unit(entry["unidad"], query.ajustar, month)
    if query.agrupar:
        adjective = PERIODS[query.agrupar]
        how = "compuesta" if entry["tipo"] == RATE and query.funcion is None else FUNCTIONS[query.funcion or "promedio"]
        title = entry["titulo"]
        title = (
            title.replace(entry["frecuencia"], adjective) if entry["frecuencia"] in title else f"{title}, {adjective}"
        )
        if daily:
            how += " de días hábiles" if business else " de todos los días publicados"
        out["titulo"] = f"{title} ({how})"
        out["frecuencia"] = adjective
        desde, hasta = query.span
        days = sorted(
            r["fecha"][:10] for r in records if consulta.is_number(r.get("valor")) and desde <= r["fecha"][:10] <= hasta
        )
        out["parciales"] = partial_periods(days, query.agrupar, entry["frecuencia"])
    if query.variacion:
        out["titulo"] = f"{out['titulo']}, variación {query.variacion}"
        if query.variacion == "absoluta":
            out["unidad"] = "puntos porcentuales" if entry["tipo"] == RATE else out["unidad"]
        elif entry["tipo"] != RATE:
            out["unidad"] = FRACTION
    return out


# ---- /v1/series/publicaciones and /v1/series/calendario (respuestas/publicaciones.py) ---------------------------
# What /v1/series/publicaciones and /v1/series/calendario take: any other parameter of the series routes is a 400
TAKES = {
    RELEASES_PATH: ("ids", "desde", "hasta", "formato", "decimal"),
    CALENDAR_PATH: ("ids", "frecuencia", "desde", "hasta", "formato", "decimal"),
}


def _plain_range(query: Query, params: dict[str, str], path: str) -> tuple[str, str]:
    """The days ``desde`` and ``hasta`` of a query on ``path``; a 400 for a parameter it does not take."""
    for name in [n for n, _ in query.given] + [n for n in params if n in OWN_NAMES]:
        if name not in TAKES[path]:
            raise BadQuery(name, f"«{name}» no se aplica a {path}: toma {', '.join(TAKES[path])}")
    return query.span


def publications(conn: sqlite3.Connection, params: dict[str, str], query: Query, on: dt.date) -> Any:
    """``{"series": [entries], "publicaciones": [...]}``: each day from desde to hasta each series of ``ids`` was
    published, with how many values it added, revised and removed (in CSV or xlsx, those rows)."""
    desde, hasta = _plain_range(query, params, RELEASES_PATH)
    if query.formato == "ics":
        raise BadQuery("formato", f"«formato=ics» es para {CALENDAR_PATH}")
    ids = [t.partition(":")[0] for t in parse_ids(params)]
    found = _entries_by_id(conn, list(dict.fromkeys(ids)), on)
    rows = []
    for entry in found:
        _published_on_its_own(conn, entry)
        rows += publicaciones.publications(conn, entry, desde, hasta)
    return rows if query.tabular else {"series": found, "publicaciones": rows}  # a spreadsheet: the rows


def _published_on_its_own(conn: sqlite3.Connection, entry: dict) -> None:
    """A 404 (on ``ids``) for a series whose route has no stored versions; a 400 for one whose values already are
    those of each version (a history table) or that its route's records do not name."""
    if versiones.first_day(conn, entry["ruta"]) is None:
        raise ApiError(404, f"{entry['ruta']}, la ruta de {entry['id']}, no tiene versiones guardadas", "ids")
    if _is_history(entry) or any(not versiones.carries(conn, entry["ruta"], k) for k in entry["filtro"]):
        raise BadQuery(
            "ids",
            f"la serie {entry['id']} no se publica como una serie: sus valores son los de cada versión de "
            f"{entry['ruta']} (tabla {entry['tabla']}), que sus fechas ya dicen",
        )


def calendar(conn: sqlite3.Connection, params: dict[str, str], query: Query, on: dt.date) -> list[dict]:
    """The publications from desde to hasta of every series with versions of its own (or of ``ids``, or of one
    ``frecuencia``) and the next one each expects: one event per route and day."""
    desde, hasta = _plain_range(query, params, CALENDAR_PATH)
    frequency = _choice(params, "frecuencia", FREQUENCIES)
    versioned = sorted(versiones.versioned_routes(conn))
    if "ids" in params:
        found = _entries_by_id(conn, list(dict.fromkeys(t.partition(":")[0] for t in parse_ids(params))), on)
        for entry in found:
            _published_on_its_own(conn, entry)
    elif table_exists(conn, SERIES.name):
        cursor = conn.execute(
            f"SELECT * FROM {SERIES.name} WHERE ruta IN ({', '.join('?' * len(versioned))}) ORDER BY rowid", versioned
        )
        names = [d[0] for d in cursor.description]
        found = [_as_json(dict(zip(names, row)), on) for row in cursor]
    else:
        raise BadQuery("ids", "la base no tiene el catálogo de series (tabla series): constrúyala de nuevo")
    chosen = [
        e for e in found if e["ruta"] in versioned and not _is_history(e) and frequency in (None, e["frecuencia"])
    ]
    return publicaciones.calendar_events(conn, chosen, desde, hasta)
