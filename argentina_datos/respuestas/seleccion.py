"""The records of a dataset as upstream published them, selected for an answer upstream computes from its lists
(a day of /v1/cotizaciones/dolares, /ultimo, a fund, an acta, a senator's trips).

Each record is the published one, parsed from the stored file (almacen/publicados.py) or from the version in force
on a day (``publicado``): its JSON is upstream's, key order and the types of its numbers included.  A route's
``where`` names columns of the dataset's table: a record's field, a column the builder computes from it
(``Dataset.derived``: a fund's slug) or a value of its file's path (``listado``); the typed tables are never read
back.  Each list is indexed once by the columns a route cuts it by, made again when its files' checksums change (one
index per list and columns: a new build does not add to the old ones), and each answer gets its own copy of its
records.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any, Optional

import orjson

from argentina_datos.almacen import publicados, versiones
from argentina_datos.almacen.propias import FUENTES
from argentina_datos.almacen.registros import keyed_records
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.catalogo.parametros import group_name, template_regex
from argentina_datos.respuestas.consulta import BadQuery

Item = tuple[dict, Any]  # (the values of its file's path, the record as published)
# (table, columns) -> (its files' checksums, its records by their values of the columns): as many as the catalogue's
# routes cut lists by (12 with the mirror, 40 MB); keyed by the checksums too, each build's changed lists were kept
# beside the previous builds' until 64 (+40 MB for each build that changed them, tests/test_por_fecha.py).
_indexes: dict[tuple, tuple[tuple, dict[tuple, list]]] = {}


class NoVersion(LookupError):
    """No file of the dataset had been published by the end of that day."""


def records(conn: sqlite3.Connection, dataset: Dataset, where: dict, on: Optional[str] = None) -> list:
    """The records of ``dataset`` that match ``where`` (column -> value), in the order its files were read and
    each file's own order; ``on`` (AAAA-MM-DD): as published by the end of that day."""
    columns = tuple(where)
    wanted = tuple(_key(where[c]) for c in columns)
    if on is None and any(p.name in where for p in dataset.partitions):
        matched = _from_files(conn, dataset, columns, wanted)
    elif on is None:
        matched = _index(conn, dataset, columns).get(wanted, [])
    else:
        matched = [r for parts, r in _versions(conn, dataset, on) if _values(dataset, parts, r, columns) == wanted]
    return orjson.loads(orjson.dumps(matched)) if matched else []  # the answer's own objects (queries change them)


def _index(conn: sqlite3.Connection, dataset: Dataset, columns: tuple) -> dict[tuple, list]:
    """The records of the dataset's files today by their values of ``columns``, made once per set of files (a
    day of the dollar's list is a lookup, not a walk through its 30,000 records)."""
    files = conn.execute(
        f"SELECT ruta, sha256 FROM {FUENTES.name} WHERE tabla = ? ORDER BY id", [dataset.table]
    ).fetchall()
    checksums = tuple(files)  # each file's route and checksum: an index holds the values of its files' paths too
    found = _indexes.get((dataset.table, columns))
    if found is not None and found[0] == checksums:
        return found[1]
    index: dict[tuple, list] = {}
    for route, _ in files:
        body = publicados.body(conn, route)
        for parts, r in [] if body is None else _records_of(dataset, route, orjson.loads(body)):
            index.setdefault(_values(dataset, parts, r, columns), []).append(r)
    _indexes[(dataset.table, columns)] = (checksums, index)
    return index


def _from_files(conn: sqlite3.Connection, dataset: Dataset, columns: tuple, wanted: tuple) -> list:
    """The matching records of the files whose path values are the wanted ones (a category's listing of a day),
    read from those files alone: indexing a dataset of thousands of files (fci_valores: 1.6 million records) took
    6 s and 900 MB for one day that has no file."""
    files = conn.execute(f"SELECT ruta FROM {FUENTES.name} WHERE tabla = ? ORDER BY id", [dataset.table]).fetchall()
    matched = []
    for (route,) in files:
        parts = _path_values(dataset, route)
        if any(c in parts and _key(parts[c]) != w for c, w in zip(columns, wanted)):
            continue
        body = publicados.body(conn, route)
        for parts, r in [] if body is None else _records_of(dataset, route, orjson.loads(body)):
            if _values(dataset, parts, r, columns) == wanted:
                matched.append(r)
    return matched


def listings(conn: sqlite3.Connection, dataset: Dataset, where: dict, column: str) -> dict[str, str]:
    """The dataset's files with records whose path values are ``where``'s, by their value of the path value
    ``column`` (a category's listings of FCI by day: 2024-12-31 -> /v1/finanzas/fci/rentaFija/2024/12/31; not a
    weekend's empty one)."""
    files = conn.execute(
        f"SELECT ruta FROM {FUENTES.name} WHERE tabla = ? AND registros > 0 ORDER BY id", [dataset.table]
    ).fetchall()
    found = {}
    for (route,) in files:
        parts = _path_values(dataset, route)
        if column in parts and all(c in parts and _key(parts[c]) == _key(v) for c, v in where.items()):
            found[str(parts[column])] = route
    return found


def _versions(conn: sqlite3.Connection, dataset: Dataset, on: str) -> list[Item]:
    files = conn.execute(f"SELECT ruta FROM {FUENTES.name} WHERE tabla = ? ORDER BY id", [dataset.table]).fetchall()
    versioned = versiones.versioned_routes(conn)
    routes = [route for (route,) in files if route in versioned]
    if not routes:
        raise BadQuery("publicado", f"«publicado»: los archivos de {dataset.table} no tienen versiones guardadas")
    out: list[Item] = []
    found = False
    for route in routes:
        version = versiones.version_on(conn, route, on)
        if version is not None:
            found = True
            out += _records_of(dataset, route, orjson.loads(versiones.document(conn, route, version)))
    if not found:
        raise NoVersion(f"no hay versiones guardadas de {', '.join(routes)} anteriores al {on}")
    return out


def _records_of(dataset: Dataset, route: str, data: Any) -> list[Item]:
    """The records a file holds for ``dataset`` (as the builder's loader reads them), each with its path values."""
    parts = _path_values(dataset, route)
    if dataset.envelope_list:
        inner = data.get(dataset.envelope_list) if type(data) is dict else None
        if dataset.keyed_by:
            found = keyed_records(inner, dataset.keyed_by) if type(inner) is dict else []
        else:
            found = inner if type(inner) is list else []
    elif dataset.single_record:
        found = [data]
    else:
        found = data if type(data) is list else []
    return [(parts, r) for r in found]


def _path_values(dataset: Dataset, route: str) -> dict:
    for source in dataset.sources:
        if source.history:
            continue
        m = _regex(dataset, source.route).fullmatch(route.lstrip("/"))
        if m:
            params = {p.name: p for p in dataset.partitions}
            return {**source.fixed, **{n: params[n].convert(m.group(group_name(n))) for n in source.placeholders}}
    return {}


_regexes: dict[tuple[str, str], re.Pattern] = {}


def _regex(dataset: Dataset, template: str) -> re.Pattern:
    key = (dataset.table, template)
    if key not in _regexes:
        _regexes[key] = template_regex(template, {p.name: p for p in dataset.partitions})[0]
    return _regexes[key]


def _column(dataset: Dataset, parts: dict, record: Any, column: str) -> Any:
    if column in parts:
        return parts[column]
    computed = dataset.derived.get(column)
    if computed is not None:
        try:
            return computed.compute(record)
        except (KeyError, TypeError, AttributeError, ValueError):
            return None
    return record.get(column) if type(record) is dict else None


def _values(dataset: Dataset, parts: dict, record: Any, columns: tuple) -> tuple:
    return tuple(_key(_column(dataset, parts, record, c)) for c in columns)


def _key(value: Any) -> Optional[str]:
    """A value as compared with a path value (as SQLite compares a column with one: 2016 and "2016" are a year)."""
    if value is None:
        return None
    if type(value) is float and value.is_integer():
        return str(int(value))
    return str(value)
