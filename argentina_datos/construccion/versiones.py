"""History that accumulates: every version of a "latest only" dataset the builds have seen.

Upstream rewrites such files every day and keeps only the newest.  A history dataset
(``Dataset.versions_of``) gathers, one per date:
- the dated files of the history tree (``upstream-history``), when the source has one;
- every version the previous build of the same output stored (read back from that file);
- the version the source publishes now, dated by its own update date (``fechaActualizacion`` /
  ``actualizado``) or else by the day of the build, unless it equals the newest version known.
Each becomes a file of the history dataset for the loader (``VersionedSource``), and consecutive
versions are compared into the ``cambios`` table.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

import orjson

from argentina_datos.almacen.propias import FUENTES, VersionChange
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.construccion.fuentes import SourceError

# Fields that name a record when the dataset declares no key (a bank's rate, a token's yield).
NAMING_FIELDS = ("entidad", "token", "nombre", "banco", "id")


@dataclass
class Version:
    date: str
    route: str  # the history route, v1/<ruta>/<AAAA-MM-DD>
    body: Optional[bytes]  # None: read it from the history tree
    origin: str  # "archivo de versiones", "construcción anterior", "fuente actual"


def current_date(body: bytes, today: dt.date, last_modified: Optional[str] = None) -> str:
    """The version's own date: the envelope's update date, else the HTTP Last-Modified of the file,
    else the day of the build."""
    fallback = _http_date(last_modified) or today.isoformat()
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError:
        return fallback
    if isinstance(data, dict):
        for key in ("fechaActualizacion", "actualizado"):
            value = data.get(key)
            if isinstance(value, str) and len(value) >= 10:
                try:
                    return dt.date.fromisoformat(value[:10]).isoformat()
                except ValueError:
                    pass
    return fallback


def _http_date(value: Optional[str]) -> Optional[str]:
    """The UTC day of an HTTP date (Last-Modified: Tue, 10 Mar 2026 08:00:00 GMT)."""
    if not value:
        return None
    try:
        return email.utils.parsedate_to_datetime(value).astimezone(dt.timezone.utc).date().isoformat()
    except (TypeError, ValueError):
        return None


class PreviousUnreadable(Exception):
    """The previous build holds versions that cannot be read: building on would lose them."""


def previous_versions(old_db: Optional[Path], history: Dataset) -> dict[str, bytes]:
    """The versions a previous build stored, each rebuilt as the JSON file it came from."""
    from argentina_datos.almacen.consultas import RecordQuery, envelope

    if old_db is None or not old_db.exists():
        return {}
    try:
        conn = sqlite3.connect(f"file:{old_db}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise PreviousUnreadable(f"{old_db}: la base anterior no se puede abrir ({e})") from None
    try:
        # The files the build stored (an empty version has no rows but has its fuentes row).
        dates = [
            r[0]
            for r in conn.execute(
                f"SELECT DISTINCT substr(ruta, -10) FROM {FUENTES.name} WHERE tabla = ? ORDER BY 1", [history.table]
            )
        ]
        # Whatever build wrote it: its whole numbers read back as integers (INTEGER columns of before NUMBER
        # columns were REAL, or REAL ones with or without the _enteros column of before).
        query = RecordQuery(history)
        route = history.sources[0].route.removesuffix("/{fecha}")
        out = {}
        for date in dates:
            records = query.records(conn, {"fecha": date})
            if history.envelope_list:
                env = envelope(conn, f"/{route}/{date}") or {}
                out[date] = orjson.dumps({**env, history.envelope_list: records})
            else:
                out[date] = orjson.dumps(records)
        return out
    except sqlite3.Error as e:
        if str(e).startswith(("no such table", "no such column")):
            return {}  # a previous build without this table, or of another shape: nothing to carry
        raise PreviousUnreadable(f"{old_db}: no se pueden leer las versiones de {history.table} ({e})") from None
    finally:
        conn.close()


def base_of(history: Dataset) -> Dataset:
    """The latest-only dataset a history keeps the versions of."""
    assert history.versions_of, f"{history.table} no es un histórico"
    return BY_TABLE[history.versions_of]


def plan_versions(history: Dataset, seeded: list[str], source, old_db: Optional[Path], today: dt.date) -> list[Version]:
    """Every version of ``history``, one per date, oldest first."""
    base = base_of(history)
    route = history.sources[0].route.removesuffix("/{fecha}")
    versions: dict[str, Version] = {}
    for r in seeded:
        versions[r.rsplit("/", 1)[1]] = Version(r.rsplit("/", 1)[1], r, None, "archivo de versiones")
    for date, stored in previous_versions(old_db, history).items():
        versions.setdefault(date, Version(date, f"{route}/{date}", stored, "construcción anterior"))
    current_route = base.sources[0].route
    body: Optional[bytes]
    try:
        body = source.read(current_route)
    except SourceError:  # the dataset itself reports a file it cannot read
        body = None
    # A current file that is not JSON is no version: the dataset that reads it reports it.
    if body is not None and _parsed(body) is not None:
        newest = max(versions) if versions else None
        newest_body = _body(versions[newest], source) if newest else None
        if newest_body is None or _parsed(newest_body) != _parsed(body):
            last_modified = source.validators.get(current_route, (None, None))[1]
            date = current_date(body, today, last_modified)
            versions[date] = Version(date, f"{route}/{date}", body, "fuente actual")
    return [versions[d] for d in sorted(versions)]


def _body(version: Version, source) -> Optional[bytes]:
    if version.body is not None:
        return version.body
    try:
        return source.read(version.route, True)
    except SourceError:  # a version file that cannot be read is no version; the build goes on without it
        return None


def _parsed(body: bytes):
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        return None


class VersionedSource:
    """The build's source, plus the versions that are not files of it (carried, current)."""

    def __init__(self, source, versions: dict[str, Version]):
        self.source = source
        self.versions = versions

    def __getattr__(self, name):
        return getattr(self.source, name)

    def read(self, route: str, history: bool = False) -> bytes:
        v = self.versions.get(route) if history else None
        if v is not None and v.body is not None:
            return v.body
        return self.source.read(route, history)

    def name(self, route: str, history: bool = False) -> str:
        v = self.versions.get(route) if history else None
        if v is not None and v.body is not None:
            return f"{route} ({v.origin})"
        return self.source.name(route, history)

    def stamp(self, route: str, history: bool = False) -> bytes:
        v = self.versions.get(route) if history else None
        if v is not None and v.body is not None:
            # Of the parsed JSON: the version read back from the previous build is the same data as
            # the file it was first read from, written differently.
            return hashlib.sha256(_canonical(_parsed(v.body))).digest()
        return self.source.stamp(route, history)


# ---- what changed between versions -----------------------------------------------------
def changes(history: Dataset, versions: list[Version], source) -> list[VersionChange]:
    """Each version against the one before: records added, removed and changed (the cambios table)."""
    out = []
    previous: Optional[list] = None
    previous_date: Optional[str] = None
    for v in versions:
        data = _parsed(_body(v, source) or b"null")
        records = data.get(history.envelope_list) if isinstance(data, dict) and history.envelope_list else data
        if not isinstance(records, list):
            continue
        key = _key(base_of(history), records)
        added, removed, changed = compare(previous, records, key) if previous is not None else (len(records), 0, 0)
        out.append(VersionChange(history.table, v.date, previous_date, added, removed, changed, ",".join(key) or None))
        previous, previous_date = records, v.date
    return out


def _key(base: Dataset, records: list) -> tuple:
    if base.unique:
        return tuple(base.unique)
    present = [f for f in NAMING_FIELDS if all(isinstance(r, dict) and f in r for r in records)]
    return tuple(present[:1])


def compare(old: list, new: list, key: tuple) -> tuple[int, int, int]:
    """Records added, removed and changed: by ``key`` when there is one, else as whole records."""
    if not key:
        a, b = Counter(map(_canonical, old)), Counter(map(_canonical, new))
        return sum((b - a).values()), sum((a - b).values()), 0
    old_by = {_key_of(r, key): _canonical(r) for r in old}
    new_by = {_key_of(r, key): _canonical(r) for r in new}
    added = len(new_by.keys() - old_by.keys())
    removed = len(old_by.keys() - new_by.keys())
    changed = sum(1 for k in new_by.keys() & old_by.keys() if new_by[k] != old_by[k])
    return added, removed, changed


def _key_of(record, key: tuple):
    return tuple(orjson.dumps(record.get(k)) for k in key) if isinstance(record, dict) else (_canonical(record),)


def _canonical(record) -> bytes:
    return orjson.dumps(record, option=orjson.OPT_SORT_KEYS)
