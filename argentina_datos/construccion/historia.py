"""Every version of every route we know a past of, stored as record versions (the tables ``versiones``,
``versiones_registros`` and ``revisiones``; almacen/versiones.py reads them back).

Versions come from three places, in the order of their publication time:
- the git bundle of upstream's repository (``upstream-versions/upstream.bundle``): one version per commit
  that changed the file, at the commit's time (construccion/paquete.py reads it);
- the history tree (``upstream-history``): any route with a folder of ``AAAA-MM-DD.json`` files, without a
  declaration in the catalogue, each the last of its day (dated 23:59:59 UTC of that day);
- what this build reads for those routes and for the "latest only" ones (the routes a ``*_historico`` dataset
  keeps the versions of), dated by the file's own update date, else its HTTP Last-Modified (the last of that
  day), else the moment the build read it (a directory's file).
The same content twice in a row is one version (the first); every build carries what the previous build of the
same output stored and adds only what is newer than its last version of each route, so the bundle is read
again only when it has commits the database lacks.  The ``*_historico`` tables are derived from this store: their
dataset's loader reads the last version of each day of the base route (``StoredVersions``).

A record is identified across versions by its fecha and its naming fields (casa, moneda, entidad...); each
distinct value of it is a row, with the version it appeared in (``desde``) and the one that replaced or removed
it (``hasta``).  A changed value of a record with a date before the day of the change is a revision of
something upstream had published: one row of ``revisiones`` per changed field.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import email.utils
import hashlib
import sqlite3
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional

import orjson
import sqlite_utils

from argentina_datos.almacen import calidad, versiones as stored
from argentina_datos.almacen.propias import REGISTROS_VERSIONES, REVISIONES, VERSIONES, VersionChange
from argentina_datos.almacen.tablas import quote
from argentina_datos.almacen.versiones import DOCUMENT, END_OF_DAY, ENVELOPE, LIST
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.construccion import paquete
from argentina_datos.construccion.fuentes import PreviousBuild, SourceError, Upstream
from argentina_datos.respuestas import publicaciones

BUNDLE, TREE, CURRENT = "paquete de versiones", "archivo de versiones", "fuente actual"
# The fields that, with fecha, tell one record of a list from another across versions.
IDENTITY = ("casa", "moneda", "entidad", "token", "nombre", "banco", "id", "fondo", "slug", "tipo", "ticker")
_ABSENT = object()


@dataclass
class Candidate:
    route: str  # without the leading slash, as the source names it
    published: str
    origin: str
    commit: Optional[str] = None
    body: Optional[bytes] = None  # the file's bytes, when already read
    blob: Optional[str] = None  # or the bundle's object id of the file: the next blob of the bundle's stream
    tree_file: Optional[str] = None  # or the history tree's file, read when its turn comes

    def read(self, source: Upstream, blobs: Iterator[bytes]) -> bytes:
        if self.body is not None:
            return self.body
        if self.blob is not None:
            return next(blobs)
        assert self.tree_file is not None
        return _read_tree(source, self.tree_file)


@dataclass
class RouteState:
    """A route's last stored version: what the next one is compared with."""

    route: str  # with the leading slash, as the tables name it
    carried_until: str = ""  # publicado of the last version the previous build stored ("": none)
    last_id: Optional[int] = None
    last_published: str = ""
    last_hash: Optional[bytes] = None
    records: list = field(default_factory=list)  # parsed, in the file's order
    items: list[int] = field(default_factory=list)  # each record's elemento
    key_item: dict = field(default_factory=dict)  # identity -> elemento (alive)
    item_key: dict[int, tuple] = field(default_factory=dict)
    value: dict[int, object] = field(default_factory=dict)  # elemento -> its record now
    row: dict[int, int] = field(default_factory=dict)  # elemento -> id of its current value's row
    born: dict[int, str] = field(default_factory=dict)  # elemento -> day its current value appeared


@dataclass
class Summary:
    versions: int = 0  # new versions stored by this build
    rewritten: int = 0  # versions of the previous build stored again (a route that got older versions)
    carried: int = 0  # versions carried from the previous build (not those stored again)
    routes: int = 0
    bundle_read: bool = False
    revisions: int = 0
    bytes: int = 0  # of the versions' files read (the bundle's blobs, the tree's files, the current files)


class History:
    """Gathers and stores the versions; one per build."""

    def __init__(self, db: sqlite3.Connection, today: dt.date):
        self.db = db
        self.today = today
        self.states: dict[str, RouteState] = {}
        self.version_rows: list[list] = []
        self.record_rows: list[list] = []  # mutable: hasta is set when the value is replaced
        self.record_at: dict[int, list] = {}  # id -> its row, for rows of this build
        self.closed_before: list[tuple[int, int]] = []  # (hasta, id) of rows carried from the previous build
        self.revision_rows: list[tuple] = []
        # (escritura, ruta, publicado) of stored versions read again: a store from before that column learns it
        self.writings: list[tuple[str, str, str]] = []
        self.next_version = 1
        self.next_record = 1
        self.next_item = 1
        self.summary = Summary()
        self.forgotten: set[tuple[str, str, str]] = set()  # (ruta, publicado, huella) of versions stored again

    # ---- the tables -------------------------------------------------------------------------------------
    def create(self, lite) -> None:
        for table in (VERSIONES, REGISTROS_VERSIONES, REVISIONES):
            if not lite[table.name].exists():  # an incremental build's copy of the previous one has them
                table.create(lite)

    def carry(self, previous: PreviousBuild, in_place: bool = False) -> Optional[set[str]]:
        """Copies what the previous build stored (``in_place``: the database, a copy of it, already holds it);
        returns the bundle commits it had (None: it had no versions).  Versions it has but that cannot be read stop
        the build (PreviousUnreadable): building on would drop them."""
        if not in_place and not previous.copy_versions(self.db):
            return None
        commits = {
            c
            for (c,) in self.db.execute(
                f"SELECT commit_upstream FROM {VERSIONES.name} WHERE commit_upstream IS NOT NULL"
            )
        }
        for name, attr in ((VERSIONES.name, "next_version"), (REGISTROS_VERSIONES.name, "next_record")):
            setattr(self, attr, (self.db.execute(f"SELECT max(id) FROM {name}").fetchone()[0] or 0) + 1)
        self.next_item = (
            self.db.execute(f"SELECT max(elemento) FROM {REGISTROS_VERSIONES.name}").fetchone()[0] or 0
        ) + 1
        self.summary.carried = self.db.execute(f"SELECT count(*) FROM {VERSIONES.name}").fetchone()[0]
        return commits

    def state(self, route: str) -> RouteState:
        """The route's state after its last stored version (carried ones read back from the tables)."""
        found = self.states.get(route)
        if found is not None:
            return found
        st = RouteState(route)
        row = self.db.execute(
            f"SELECT id, publicado, huella FROM {VERSIONES.name} WHERE ruta = ? ORDER BY id DESC LIMIT 1", [route]
        ).fetchone()
        if row:
            st.last_id, st.last_published, huella = row
            st.last_hash = bytes.fromhex(huella)
            st.carried_until = st.last_published
            born = dict(
                self.db.execute(
                    f"SELECT r.id, substr(v.publicado, 1, 10) FROM {REGISTROS_VERSIONES.name} r "
                    f"JOIN {VERSIONES.name} v ON v.id = r.desde WHERE r.ruta = ? AND r.hasta IS NULL",
                    [route],
                ).fetchall()
            )
            ids = dict(
                self.db.execute(
                    f"SELECT elemento, id FROM {REGISTROS_VERSIONES.name} WHERE ruta = ? AND hasta IS NULL", [route]
                ).fetchall()
            )
            for item, text in stored.items(self.db, route, st.last_id):
                record = orjson.loads(text)
                st.items.append(item)
                st.records.append(record)
                st.value[item] = record
                st.row[item] = ids[item]
                st.born[item] = born[ids[item]]
            for item, key in zip(st.items, _keys(st.records)):
                st.key_item[key] = item
                st.item_key[item] = key
        self.states[route] = st
        return st

    def is_new_and_older(self, c: Candidate, body: bytes) -> bool:
        """A version older than the route's last stored one that is not what was stored for its time (the
        bundle given to a database that has only built since): the route must be stored again whole."""
        st = self.state("/" + c.route)
        if c.published > st.carried_until:  # newer than all that was carried (or nothing was)
            return False
        try:
            digest = _digest(orjson.loads(body)).hex()
        except orjson.JSONDecodeError:
            return False
        in_force = self.db.execute(
            f"SELECT huella FROM {VERSIONES.name} WHERE ruta = ? AND publicado <= ? ORDER BY publicado DESC, id DESC "
            "LIMIT 1",
            ["/" + c.route, c.published],
        ).fetchone()
        return in_force is None or in_force[0] != digest

    def forget(self, route: str) -> None:
        """Removes what is stored of ``route`` (to store it again, with versions older than its last)."""
        path = "/" + route
        self.forgotten |= {
            (path, published, digest)
            for published, digest in self.db.execute(
                f"SELECT publicado, huella FROM {VERSIONES.name} WHERE ruta = ?", [path]
            )
        }
        for table in (REVISIONES, REGISTROS_VERSIONES, VERSIONES):
            self.db.execute(f"DELETE FROM {quote(table.name)} WHERE ruta = ?", [path])
        self.version_rows = [r for r in self.version_rows if r[1] != path]
        kept = [r for r in self.record_rows if r[1] != path]
        for r in self.record_rows:
            if r[1] == path:
                self.record_at.pop(r[0], None)
        self.record_rows = kept
        self.revision_rows = [r for r in self.revision_rows if r[0] != path]
        self.states[path] = RouteState(path)

    # ---- one version ------------------------------------------------------------------------------------
    def add(self, c: Candidate, body: bytes) -> None:
        """Stores ``body`` as the next version of its route, unless it is the same content as the last."""
        route = "/" + c.route
        st = self.state(route)
        if c.published <= st.last_published:
            self.writings.append((stored.writing(body), route, c.published))
            return  # stored by an earlier build (or an older file than what is stored: left out)
        try:
            data = orjson.loads(body)
        except orjson.JSONDecodeError:
            return  # a file that is not JSON is no version (the dataset reading it reports it)
        digest = _digest(data)
        if digest == st.last_hash:
            return
        form, list_key, envelope, records = _split(data)
        vid = self.next_version
        self.next_version += 1
        day = c.published[:10]
        added, removed, changed, order = self._records(st, vid, day, records)
        self.version_rows.append(
            [
                vid,
                route,
                c.published,
                c.origin,
                c.commit,
                digest.hex(),
                len(records),
                added,
                removed,
                changed,
                form,
                list_key,
                envelope,
                order,
                stored.writing(body),
            ]
        )
        st.last_id, st.last_published, st.last_hash = vid, c.published, digest

    def _records(self, st: RouteState, vid: int, day: str, records: list) -> tuple[int, int, int, Optional[str]]:
        n = len(st.records)
        if n and len(records) >= n and records[:n] == st.records:
            new = records[n:]
            keys = _keys(new)
            if not any(k in st.key_item for k in keys):  # only appended: the common case
                for record, key in zip(new, keys):
                    st.items.append(self._new_item(st, vid, day, record, key))
                st.records = records
                return len(new), 0, 0, None
        added = removed = changed = 0
        now: list[int] = []
        seen: set[int] = set()
        for record, key in zip(records, _keys(records)):
            item = st.key_item.get(key)
            if item is None or item in seen:
                item = self._new_item(st, vid, day, record, key)
                added += 1
            elif st.value[item] != record:
                self._revise(st, item, vid, day, record)
                changed += 1
            seen.add(item)
            now.append(item)
        for item in [i for i in st.items if i not in seen]:
            self._close(st.row[item], vid)
            del st.key_item[st.item_key.pop(item)]
            del st.value[item], st.row[item], st.born[item]
            removed += 1
        expected = [i for i in st.items if i in seen]
        expected += sorted(set(now) - set(expected))
        st.items, st.records = now, records
        return added, removed, changed, None if now == expected else orjson.dumps(now).decode()

    def _new_item(self, st: RouteState, vid: int, day: str, record, key: tuple) -> int:
        item = self.next_item
        self.next_item += 1
        st.key_item[key] = item
        st.item_key[item] = key
        st.value[item] = record
        st.born[item] = day
        st.row[item] = self._value_row(st.route, item, key, record, vid)
        return item

    def _revise(self, st: RouteState, item: int, vid: int, day: str, record) -> None:
        old = st.value[item]
        self._close(st.row[item], vid)
        fecha = record.get("fecha") if type(record) is dict else None
        if type(old) is dict and type(record) is dict and type(fecha) is str and fecha[:10] < day:
            named = [k for k in IDENTITY if k in record]
            serie = calidad.series_label(named, [record[k] for k in named])
            for name in dict.fromkeys([*record, *old]):
                before, after = old.get(name, _ABSENT), record.get(name, _ABSENT)
                if before != after:
                    self.revision_rows.append(
                        (st.route, serie, fecha[:10], name, _json(before), _json(after), st.born[item], day)
                    )
        st.value[item] = record
        st.born[item] = day
        st.row[item] = self._value_row(st.route, item, st.item_key[item], record, vid)

    def _value_row(self, route: str, item: int, key: tuple, record, vid: int) -> int:
        rid = self.next_record
        self.next_record += 1
        row = [rid, route, item, _key_text(key), orjson.dumps(record).decode(), vid, None]
        self.record_rows.append(row)
        self.record_at[rid] = row
        return rid

    def _close(self, rid: int, vid: int) -> None:
        row = self.record_at.get(rid)
        if row is not None:
            row[6] = vid
        else:
            self.closed_before.append((vid, rid))

    # ---- writing ----------------------------------------------------------------------------------------
    def write(self) -> None:
        def insert(table, rows):
            names = ["id", *[f.name for f in table.fields()]]
            self.db.executemany(
                f"INSERT INTO {quote(table.name)} ({', '.join(map(quote, names))}) VALUES ({', '.join('?' * len(names))})",
                rows,
            )

        insert(VERSIONES, self.version_rows)
        self.db.executemany(
            f"UPDATE {VERSIONES.name} SET escritura = ? WHERE ruta = ? AND publicado = ? AND escritura IS NULL",
            self.writings,
        )
        insert(REGISTROS_VERSIONES, self.record_rows)
        self.db.executemany(f"UPDATE {REGISTROS_VERSIONES.name} SET hasta = ? WHERE id = ?", self.closed_before)
        first = (self.db.execute(f"SELECT max(id) FROM {REVISIONES.name}").fetchone()[0] or 0) + 1
        insert(REVISIONES, [(first + i, *r) for i, r in enumerate(self.revision_rows)])
        self.summary.revisions = len(self.revision_rows)
        again = sum((r[1], r[2], r[5]) in self.forgotten for r in self.version_rows)
        self.summary.versions = len(self.version_rows) - again
        self.summary.rewritten = again
        self.summary.carried -= len(self.forgotten)
        self.summary.routes = len(self.states)
        for cols in (("ruta", "publicado"),):
            self.db.execute(
                f"CREATE INDEX IF NOT EXISTS {VERSIONES.name}_{'_'.join(cols)} ON {VERSIONES.name} ({', '.join(cols)})"
            )
        self.db.execute(
            f"CREATE INDEX IF NOT EXISTS {REGISTROS_VERSIONES.name}_ruta_desde "
            f"ON {REGISTROS_VERSIONES.name} (ruta, desde)"
        )


class StoredVersions:
    """The files of a ``*_historico`` dataset: ``<base route>/AAAA-MM-DD`` is the last stored version of that
    day of the latest-only route it keeps, as upstream published it (almacen/versiones.py rebuilds it)."""

    def __init__(self, db: sqlite3.Connection, history: Dataset):
        self.db = db
        self.base = history.sources[0].route.removesuffix("/{fecha}")
        self.validators: dict[str, tuple] = {}  # a stored version has none
        self.published: Optional[str] = None
        self.day_version: dict[str, int] = {}
        for vid, publicado in db.execute(
            f"SELECT id, publicado FROM {VERSIONES.name} WHERE ruta = ? ORDER BY publicado, id", ["/" + self.base]
        ):
            self.day_version[publicado[:10]] = vid  # the last of its day wins

    def routes(self) -> list[str]:
        return [f"{self.base}/{day}" for day in self.day_version]

    def read(self, route: str, history: bool = True) -> bytes:
        return stored.document(self.db, "/" + self.base, self.day_version[route.rsplit("/", 1)[1]])

    def name(self, route: str, history: bool = True) -> str:
        return f"{route} (versiones guardadas)"

    def sha256(self, route: str) -> Optional[str]:
        return None  # the loader hashes the rebuilt file


def changes(db: sqlite3.Connection) -> list[VersionChange]:
    """The cambios rows of the stored versions: each against the one before, on its route."""
    out = []
    previous: dict[str, str] = {}
    for ruta, publicado, agregados, quitados, cambiados in db.execute(
        f"SELECT ruta, publicado, agregados, quitados, cambiados FROM {VERSIONES.name} ORDER BY ruta, id"
    ):
        out.append(
            VersionChange(ruta, publicado[:10], previous.get(ruta), agregados, quitados, cambiados, "fecha y nombre")
        )
        previous[ruta] = publicado[:10]
    return out


def revision_findings(db: sqlite3.Connection, tables: dict[str, str]) -> list[calidad.Finding]:
    """A calidad finding per stored revision, in the table of the route's dataset (``tables``: route -> table)."""
    out = []
    for ruta, serie, fecha, campo, antes, despues, publicado, revisado in db.execute(
        f"SELECT ruta, serie, fecha, campo, antes, despues, publicado, revisado FROM {REVISIONES.name} ORDER BY id"
    ):
        out.append(
            calidad.Finding(
                tabla=tables.get(ruta, ruta),
                control=calidad.REVISED,
                ruta=ruta,
                campo=campo,
                valor=calidad.as_json({"antes": _loads(antes), "despues": _loads(despues)}),
                detalle=f"«{campo}» del {fecha} era {antes or '(no estaba)'} (publicado el {publicado}) y upstream lo cambió a "
                f"{despues or '(ya no está)'} el {revisado}",
                fecha=fecha,
                serie=serie,
            )
        )
    return out


def delay_findings(db: sqlite3.Connection, tables: dict[str, str]) -> list[calidad.Finding]:
    """A «publicación demorada» finding per publication of a route with versions that brought its new observations
    much later than the route's usual lag (respuestas/publicaciones.py), in the table of the route's dataset."""
    out = []
    for route in sorted(stored.versioned_routes(db)):
        found = publicaciones.delays(stored.releases(db, route), stored.first_day(db, route))
        if not found:
            continue
        keys = {
            k.partition(", ")[2]
            for (k,) in db.execute(f"SELECT DISTINCT clave FROM {REGISTROS_VERSIONES.name} WHERE ruta = ?", [route])
        }
        serie = keys.pop() or None if len(keys) == 1 else None  # the naming fields all its records share
        for d in found:
            since = f"; la publicación anterior con datos nuevos fue el {d.previous}" if d.previous else ""
            out.append(
                calidad.Finding(
                    tabla=tables.get(route, route),
                    control=calidad.DELAYED,
                    ruta=route,
                    valor=str(d.lag),
                    detalle=f"{route} publicó las observaciones del {d.first} al {d.last} recién el {d.day}: la primera, "
                    f"{publicaciones.days_text(d.lag)} de su fecha (lo habitual: {publicaciones.days_text(d.usual)}, la "
                    f"mediana de {d.measured} publicaciones){since}",
                    fecha=d.first,
                    serie=serie,
                    hasta=d.last,
                )
            )
    return out


def _loads(text: Optional[str]):
    return None if text is None else orjson.loads(text)


# ---- gathering the versions ---------------------------------------------------------------------------------
def build(
    db: sqlite3.Connection,
    source: Upstream,
    *,
    today: dt.date,
    previous: Optional[PreviousBuild],
    bundle: Optional[Path | paquete.Repository],
    bundle_head: Optional[str] = None,
    latest_only: Optional[dict[str, Dataset]] = None,
    say: Callable[[str], None] = lambda _: None,
    in_place: bool = False,
) -> Summary:
    """Creates and fills the version tables in ``db`` (in autocommit mode: the previous build is attached).
    ``latest_only``: routes upstream overwrites (v1/..., no leading slash) -> the *_historico dataset that keeps
    them; each gets a version from what the source publishes even without a past in the tree or the bundle: each
    build adds its day.  ``bundle_head``: the bundle's last commit, when the caller has read it already.  ``in_place``:
    ``db`` starts as a copy of ``previous`` (an incremental build), its versions already there."""
    latest_only = latest_only or {}
    history = History(db, today)
    history.create(sqlite_utils.Database(db))
    stored_commits = history.carry(previous, in_place) if previous is not None else None
    tree = _tree_candidates(source)
    routes = set(tree) | set(latest_only) | {r.lstrip("/") for r in stored.versioned_routes(db)}
    head = bundle_head or (paquete.head(bundle) if bundle is not None else None)
    with contextlib.ExitStack() as stack:
        commits: list[paquete.Commit] = []
        bundle_dir: Optional[paquete.Repository] = None
        # a store from before versiones.escritura reads the bundle once more, to learn how each version was written
        if stored_commits is not None and _unwritten(db):
            stored_commits = set()
        if bundle is not None and not (stored_commits and head in stored_commits):
            bundle_dir = (
                bundle if isinstance(bundle, paquete.Repository) else stack.enter_context(paquete.Bundle(bundle))
            )
            commits = bundle_dir.commits(after=_last_commit(db) if stored_commits else None)
            history.summary.bundle_read = True
            say(f"paquete de versiones: {len(commits):,} commits nuevos")

        def blobs_of(candidates: list[Candidate]) -> Iterator[bytes]:
            return bundle_dir.blobs([c.blob for c in candidates if c.blob]) if bundle_dir else iter(())

        per_route: dict[str, list[Candidate]] = defaultdict(list)
        for commit in commits:
            for route, blob in commit.changed:
                per_route[route].append(Candidate(route, commit.published, BUNDLE, commit.id, blob=blob))
        found = {
            route: _in_time_order(per_route[route] + tree.get(route, []) + _current(source, route, today))
            for route in sorted(routes | set(per_route))
        }
        with sqlite_utils.Database(db).atomic():
            blobs = blobs_of([c for candidates in found.values() for c in candidates])
            redo = []  # routes with a version older than their stored past, and new: stored again whole
            for route, candidates in found.items():
                for c in candidates:
                    body = c.read(source, blobs)
                    history.summary.bytes += len(body)
                    if history.is_new_and_older(c, body) and route not in redo:
                        redo.append(route)
                    history.add(c, body)
            for _ in blobs:  # nothing should be left: drain it so that git ends
                pass
            for route in redo:
                say(f"versiones: /{route} recibe versiones anteriores a las guardadas; se vuelve a guardar entera")
                assert previous is not None  # only carried versions can be newer than what a source gives
                candidates = _in_time_order(found[route] + _stored_candidates(previous, route))
                blobs = blobs_of(candidates)
                history.forget(route)
                for c in candidates:
                    history.add(c, c.read(source, blobs))
                for _ in blobs:
                    pass
            history.write()
    return history.summary


def _stored_candidates(previous: PreviousBuild, route: str) -> list[Candidate]:
    """The versions of ``route`` the previous build stored, as files again."""
    return [
        Candidate(route, when, origin, commit, body) for when, origin, commit, body in previous.versions("/" + route)
    ]


def _in_time_order(candidates: list[Candidate]) -> list[Candidate]:
    """By publication time; at the same time the bundle's first (the same content from two sources is one
    version: the first one kept)."""
    return sorted(candidates, key=lambda c: (c.published, c.origin != BUNDLE))


def _unwritten(db: sqlite3.Connection) -> bool:
    """Whether a version of the bundle was stored without its escritura (by a build from before the column)."""
    found = f"SELECT 1 FROM {VERSIONES.name} WHERE escritura IS NULL AND commit_upstream IS NOT NULL LIMIT 1"
    return db.execute(found).fetchone() is not None


def _last_commit(db: sqlite3.Connection) -> Optional[str]:
    row = db.execute(
        f"SELECT commit_upstream FROM {VERSIONES.name} WHERE commit_upstream IS NOT NULL ORDER BY publicado DESC, id DESC LIMIT 1"
    ).fetchone()
    return row[0] if row else None


def _tree_candidates(source: Upstream) -> dict[str, list[Candidate]]:
    """Every file of the history tree, by route: any folder of AAAA-MM-DD.json files is a route's past."""
    out: dict[str, list[Candidate]] = defaultdict(list)
    for path in source.history_files():
        route, _, day = path.rpartition("/")
        if _is_day(day):
            out[route].append(Candidate(route, day + END_OF_DAY, TREE, tree_file=path))
    return out


def _read_tree(source: Upstream, path: str) -> bytes:
    """A day's file of the tree; one that cannot be read is no version (b"" is no JSON)."""
    try:
        return source.read(path, True)
    except SourceError:
        return b""


def _current(source: Upstream, route: str, today: dt.date) -> list[Candidate]:
    """What the source publishes now at ``route``, dated by its own update date (the last of that day), else when
    its source published it (a git commit's time), else when the build read it: a file of a directory has no date
    of its own, and the end of the build's day would be later than the build (and hide a second build's newer file
    that day)."""
    try:
        body = source.read(route)
    except SourceError:
        return []
    last_modified = source.validators.get(route, (None, None))[1]
    own = current_date(body, last_modified)
    return [Candidate(route, own + END_OF_DAY if own else source.published or read_at(today), CURRENT, None, body)]


def read_at(today: dt.date) -> str:
    """The moment of reading, on the build's clock: now, on ``today`` ($ARGENTINA_DATOS_HOY's day when set)."""
    now = dt.datetime.now(dt.timezone.utc)
    return f"{today.isoformat()}T{now:%H:%M:%S}Z"


def current_date(body: bytes, last_modified: Optional[str] = None) -> Optional[str]:
    """The version's own date: the envelope's update date, else the HTTP Last-Modified of the file; None if it
    has none."""
    fallback = _http_date(last_modified)
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


def _is_day(text: str) -> bool:
    try:
        return len(text) == 10 and dt.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def _split(data) -> tuple[str, Optional[str], Optional[str], list]:
    """(forma, list key, envelope JSON, records) of a file."""
    if type(data) is list:
        return LIST, None, None, data
    if type(data) is dict:
        lists = [k for k, v in data.items() if type(v) is list and v and all(type(x) is dict for x in v)]
        if len(lists) == 1:
            key = lists[0]
            envelope = {k: (None if k == key else v) for k, v in data.items()}
            return ENVELOPE, key, orjson.dumps(envelope).decode(), data[key]
    return DOCUMENT, None, None, [data]


def _keys(records: list) -> list[tuple]:
    """Each record's identity: its fecha and naming fields, and which repetition of them it is."""
    seen: dict[tuple, int] = {}
    out = []
    for r in records:
        if type(r) is dict:
            base = tuple((k, r[k]) for k in ("fecha", *IDENTITY) if k in r and type(r[k]) in (str, int))
        else:
            base = (("valor", orjson.dumps(r).decode()),)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.append(base + ((("repeticion", n),) if n else ()))
    return out


def _digest(data) -> bytes:
    """A version's content hash (versiones.huella): of its JSON without spaces, its keys in their order."""
    return hashlib.sha256(orjson.dumps(data)).digest()


def _key_text(key: tuple) -> str:
    return calidad.series_label([k for k, _ in key], [v for _, v in key]) or ""


def _json(value) -> Optional[str]:
    return None if value is _ABSENT else orjson.dumps(value).decode()
