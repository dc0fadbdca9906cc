"""The catalogue of series and their data, aligned: ``/v1/series`` and ``/v1/series/datos``.

The build writes the catalogue (``entries``) into the ``series`` table; ``/v1/series`` lists it, searched
and filtered; ``/v1/series/datos?ids=a,b`` gives the values of several series side by side, one row per
date, each series cut, converted, grouped and changed as its kind allows (respuestas/consulta.py), or as
upstream published them on a past day (``fecha=``, from the versions store).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
from typing import Any, Callable, Mapping, Optional
from urllib.parse import parse_qsl

import orjson

from argentina_datos.almacen import historia
from argentina_datos.almacen.consultas import query_for, table_exists
from argentina_datos.almacen.propias import SERIES, VERSIONES, SeriesEntry
from argentina_datos.catalogo.esquema import KINDS, RATE
from argentina_datos.catalogo.series import SPECS, THEMES_WITH_SERIES, SeriesSpec
from argentina_datos.respuestas import consulta
from argentina_datos.respuestas.consulta import BadQuery, Query
from argentina_datos.respuestas.rutas import ApiError

LIST_PATH = "/v1/series"
DATA_PATH = "/v1/series/datos"
PATHS = (LIST_PATH, DATA_PATH)
MAX_IDS = 20
# The parameters of the two routes (besides those of respuestas/consulta.py), for the cache key.
OWN_NAMES = ("ids", "q", "tema", "frecuencia", "tipo")
FREQUENCIES = tuple(dict.fromkeys(s.frequency for s in SPECS))
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
TODAY_VARIABLE = "ARGENTINA_DATOS_HOY"  # the reference date of «atrasada» (tests); today if unset


def today() -> dt.date:
    """The day lateness is measured against: $ARGENTINA_DATOS_HOY (AAAA-MM-DD) if set, else today (UTC)."""
    fixed = os.environ.get(TODAY_VARIABLE)
    return dt.date.fromisoformat(fixed) if fixed else dt.datetime.now(dt.timezone.utc).date()


def late(hasta: Optional[str], cadence: int, on: dt.date) -> bool:
    """Whether a series whose last observation is ``hasta`` is late on ``on``: more than ``cadence`` days."""
    return hasta is None or (on - dt.date.fromisoformat(hasta[:10])).days > cadence


# ---- the catalogue, as the build writes it --------------------------------------------------
def _points(conn: sqlite3.Connection, spec: SeriesSpec) -> dict[tuple, list[str]]:
    """Each series of ``spec`` (its naming values) -> the dates it has a value on, in order."""
    out: dict[tuple, list[str]] = {}
    for r in query_for(spec.dataset.table).records(conn, {}):
        if not isinstance(r, dict):
            continue
        day, value = r.get("fecha"), r.get(spec.field.name)
        key = tuple(r.get(c) for c in spec.by)
        if (
            isinstance(day, str)
            and _calendar_day(day)
            and consulta.is_number(value)
            and all(isinstance(v, str) for v in key)
        ):
            out.setdefault(key, []).append(day[:10])
    return out


def _calendar_day(value: str) -> bool:
    """A date of the calendar (the source has published 2025-02-30: kept, reported, and no observation)."""
    if not _ISO_DATE.match(value):
        return False
    try:
        dt.date.fromisoformat(value[:10])
    except ValueError:
        return False
    return True


def _last_published(conn: sqlite3.Connection, route: str) -> Optional[str]:
    return _published(conn, route, "max")


def _first_published(conn: sqlite3.Connection, route: str) -> Optional[str]:
    first = _published(conn, route, "min")
    return first[:10] if first else None


def _published(conn: sqlite3.Connection, route: str, which: str) -> Optional[str]:
    """When ``route``'s first or last stored version (``which``: min or max) was published; None without any."""
    if not table_exists(conn, VERSIONES.name):
        return None
    row = conn.execute(f"SELECT {which}(publicado) FROM {VERSIONES.name} WHERE ruta = ?", [route]).fetchone()
    return row[0] if row else None


# (table, column) -> each series' naming values -> its first and last day and its count of days
Spans = Mapping[tuple[str, str], Mapping[tuple, tuple[str, str, int]]]


def _spans(conn: sqlite3.Connection, spec: SeriesSpec) -> dict[tuple, tuple[str, str, int]]:
    spans = {}
    for key, points in _points(conn, spec).items():
        days = sorted(set(points))
        spans[key] = (days[0], days[-1], len(days))
    return spans


def entries(conn: sqlite3.Connection, on: dt.date, known: Spans | None = None) -> list[SeriesEntry]:
    """Every series the database has data for, in catalogue order (its naming values sorted).  ``known``: the
    spans of the series of tables that did not change since they were read (an incremental build's)."""
    out = []
    order = []  # each series' place: its dataset's in the catalogue, its naming values, its measure's
    for n, spec in enumerate(SPECS):
        if not table_exists(conn, spec.dataset.table):
            continue
        first = next(i for i, s in enumerate(SPECS) if s.dataset is spec.dataset)
        spans = (known or {}).get((spec.dataset.table, spec.field.name))
        for key, (desde, hasta, count) in sorted((_spans(conn, spec) if spans is None else spans).items()):
            order.append((first, key, n))
            named = dict(zip(spec.by, key))
            route = spec.route_of(key)
            title = spec.dataset.title + "".join(f", {v}" for v in key)
            if not spec.single:
                title += f": {spec.field.name}"
            out.append(
                SeriesEntry(
                    id=spec.series_id(key),
                    titulo=title,
                    descripcion=f"{spec.field.description} ({spec.dataset.title}, tabla {spec.dataset.table})",
                    tema=spec.theme,
                    unidad=spec.field.unit,
                    frecuencia=spec.frequency,
                    tipo=spec.kind,
                    desde=desde,
                    hasta=hasta,
                    observaciones=count,
                    fuente=spec.dataset.origin,
                    ruta=route,
                    tabla=spec.dataset.table,
                    columna=spec.field.name,
                    filtro=orjson.dumps(named).decode(),
                    ultimaActualizacion=_last_published(conn, route),
                    cadencia=spec.late_after,
                    atrasada=late(hasta, spec.late_after, on),
                )
            )
    return [e for _, e in sorted(zip(order, out), key=lambda pair: pair[0])]


# ---- /v1/series ---------------------------------------------------------------------------
def own_params(query_string: bytes | str) -> dict[str, str]:
    """The parameters of the series routes (the last of each wins)."""
    if isinstance(query_string, bytes):
        query_string = query_string.decode("utf-8", "replace")  # as consulta.parse reads it
    return {n: v for n, v in parse_qsl(query_string, keep_blank_values=True) if n in OWN_NAMES}


def cache_key(params: dict[str, str]) -> str:
    return "".join(f"&{n}={params[n]}" for n in OWN_NAMES if n in params)


def _as_json(row: dict, on: dt.date) -> dict:
    out = dict(row)
    out["filtro"] = orjson.loads(row["filtro"])
    out["atrasada"] = late(row["hasta"], row["cadencia"], on)
    return out


def _choice(params: dict, name: str, choices) -> Optional[str]:
    value = params.get(name)
    if value is not None and value not in choices:
        raise BadQuery(name, f"«{name}» debe ser uno de: {', '.join(choices)}; no «{value[:40]}»")
    return value


def catalogue(conn: sqlite3.Connection, params: dict[str, str], on: dt.date) -> list[dict]:
    """The ``series`` table, searched (``q``: every word in its id, title or description) and filtered."""
    if not table_exists(conn, SERIES.name):
        raise BadQuery("q", "la base no tiene el catálogo de series (tabla series): constrúyala de nuevo")
    where, args = [], []
    for name, choices in (("tema", THEMES_WITH_SERIES), ("frecuencia", FREQUENCIES), ("tipo", KINDS)):
        value = _choice(params, name, choices)
        if value is not None:
            where.append(f'"{name}" = ?')
            args.append(value)
    words = (params.get("q") or "").split()
    if words:
        # The table's full-text index, as Datasette searches it: every word, as the start of a word
        # («infla» finds «Inflación»), quoted so that no character of it is FTS syntax.
        where.append(f"rowid IN (SELECT rowid FROM {SERIES.name}_fts WHERE {SERIES.name}_fts MATCH ?)")
        args.append(" ".join('"' + w.replace('"', '""') + '"*' for w in words))
    sql = f"SELECT * FROM {SERIES.name}" + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY rowid"
    cursor = conn.execute(sql, args)
    names = [d[0] for d in cursor.description]
    return [_as_json(dict(zip(names, row)), on) for row in cursor]


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
        raise BadQuery(
            "ids", f"no hay series con id {', '.join(repr(u[:60]) for u in unknown)}; el catálogo está en /v1/series"
        )
    return [found[i] for i in ids]


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


def _records(conn: sqlite3.Connection, entry: dict, fecha: Optional[str]) -> list[dict]:
    """The series' records (each with fecha and its column), as the database has them or, with ``fecha`` (the
    parameter ``publicado``), as upstream published its route that day."""
    filtro = entry["filtro"]
    if fecha is None:
        return query_for(entry["tabla"]).records(conn, filtro)
    version = historia.version_on(conn, entry["ruta"], fecha)
    if version is None:
        first = _first_published(conn, entry["ruta"])
        why = f"sus versiones empiezan el {first}" if first else f"{entry['ruta']} no tiene versiones guardadas"
        raise ApiError(
            404, f"«publicado» = {fecha}: no se sabe cómo estaba la serie {entry['id']} ese día ({why})", "publicado"
        )
    data = orjson.loads(historia.document(conn, entry["ruta"], version))
    if isinstance(data, dict):  # an envelope around the list
        data = next((v for v in data.values() if isinstance(v, list)), [])
    return [r for r in data if isinstance(r, dict) and all(r.get(k) == v for k, v in filtro.items())]


Converter = Callable[[list, set, Query], list]


def data(
    conn: sqlite3.Connection,
    params: dict[str, str],
    query: Query,
    on: dt.date,
    converter: Optional[Callable[[], Converter]] = None,
) -> dict[str, Any]:
    """``{"series": [entries], "datos": [{"fecha", id: value...}]}``, dates in order, null where a series lacks one.
    ``converter`` (with ``ajustar``) gives the function that turns amounts of pesos into another unit."""
    tokens = parse_ids(params)
    ids = list(dict.fromkeys(t.partition(":")[0] for t in tokens))
    entries_ = _entries_by_id(conn, ids, on)
    by_id = dict(zip(ids, entries_))
    if query.publicado is not None:
        query.checked_publicado()
    if query.ajustar:
        not_pesos = [e["id"] for e in entries_ if not (e["unidad"] or "").startswith("pesos")]
        if not_pesos:
            raise BadQuery(
                "ajustar", f"«ajustar={query.ajustar}» convierte montos en pesos; no lo son: {', '.join(not_pesos)}"
            )
    convert = converter() if query.ajustar and converter is not None else None
    plain = query.replaced(ajustar=None, base=None, publicado=None, formato=None)
    columns: dict[str, dict[str, Any]] = {}
    for token in tokens:
        entry, mode = by_id[token.partition(":")[0]], token.partition(":")[2]
        asked = plain.replaced(variacion=mode) if mode else plain
        column = entry["columna"]
        records = [
            {"fecha": r["fecha"], "valor": r.get(column)}
            for r in _records(conn, entry, query.publicado)
            if isinstance(r.get("fecha"), str)
        ]
        if convert is not None:
            records = convert(records, {"valor"}, query)
        rates = frozenset({"valor"}) if entry["tipo"] == RATE else frozenset()
        try:
            done = consulta.apply(records, asked, rates=rates) if asked.filters else records
        except BadQuery as e:
            raise BadQuery(e.param, f"{e} (serie {token})") from None
        columns[token] = {r["fecha"][:10]: r["valor"] for r in done if "fecha" in r}
    days = sorted(set().union(*columns.values()))
    rows = [{"fecha": d, **{t: columns[t].get(d) for t in tokens}} for d in days]
    return {"series": entries_, "datos": rows}
