"""Build every dataset of the catalogue into one SQLite file, atomically.

The database is written to a temporary file beside the output, checked, and
only then renamed over the output: a failed build leaves the previous file
exactly as it was.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import os
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import sqlite_utils

from argentina_datos import __version__
from argentina_datos.almacen import calidad, controles, propias, publicados
from argentina_datos.almacen.tablas import Layout, quote
from argentina_datos.catalogo import BY_TABLE, DATASETS, DERIVED_TABLES
from argentina_datos.catalogo.esquema import Dataset, Source
from argentina_datos.construccion import contrastes, derivadas, historia, incremental, paquete, respaldo, tabla_series
from argentina_datos.construccion.auditoria import audit, scope
from argentina_datos.construccion.calculos import RESOLVERS
from argentina_datos.construccion.cargador import BuildError, DatasetLoader, Files, Outcome, SourceFile
from argentina_datos.construccion.fuentes import (
    ContentStamps,
    DirectorySource,
    PreviousBuild,
    SourceError,
    SourceUnreachable,
    Upstream,
    partition_values,
)
from argentina_datos.construccion.incremental import Reuse, catalogue_fingerprint
from argentina_datos.respuestas.catalogo_series import today as reference_day
from argentina_datos.respuestas.rutas import Router

FTS_TOKENIZE = "unicode61 remove_diacritics 2"
STAMPS_SUFFIX = ".huellas.json"  # beside the output: a directory source's checksums (fuentes.ContentStamps)
# The routes upstream overwrites that a *_historico dataset keeps: each build stores a version of them.
LATEST_ONLY = {BY_TABLE[d.versions_of].sources[0].route: d for d in DATASETS if d.versions_of}


@dataclass
class Plan:
    """What a build reads: each dataset's files (source pattern, route; a *_historico dataset's are the stored
    versions, known once they are stored), the files no dataset claims (documents), and what the source could
    not list today."""

    source: Upstream
    files: list[tuple[Dataset, list[tuple[Source, str]]]] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)  # dataset -> why it is skipped (nothing to fall back on)
    unlisted: dict[str, str] = field(default_factory=dict)  # dataset -> why the source could not list its files


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)
    unchanged: bool = False
    findings: list[calidad.Finding] = field(default_factory=list)
    derived: list[Outcome] = field(default_factory=list)  # the derived tables computed
    history: Optional[historia.Summary] = None  # the versions stored (construccion/historia.py)
    reuse: Optional[Reuse] = None  # what an incremental build kept (None: a full build)

    @property
    def skipped(self):
        return [o for o in self.outcomes if o.error]

    @property
    def skipped_files(self) -> list[str]:
        return [f for o in self.outcomes for f in o.skipped_files]

    @property
    def complete(self) -> bool:
        return not (self.skipped or self.skipped_files)

    @property
    def missing(self):
        return [o for o in self.outcomes if o.missing]


class Builder:
    """Builds the datasets of the catalogue (or the ``datasets`` given) from ``source`` into ``output``.

    ``run()`` plans the files, skips the build when nothing changed since the output was built, and
    otherwise writes a temporary file (datasets, derived tables, audit, indexes), checks it and
    renames it over the output.
    """

    def __init__(
        self,
        source: Upstream,
        output: str | os.PathLike,
        *,
        keep_going: bool = False,
        datasets: list[Dataset] | None = None,
        reporter: Optional[Reporter] = None,
        today: Optional[dt.date] = None,
        previous: Optional[PreviousBuild] = None,
        bundle: Optional[str | os.PathLike | paquete.Repository] = None,
        keep: int = 0,
        fresh: bool = False,
        references: Optional[str | os.PathLike] = None,
    ):
        self.source = source
        # figures others published (referencias/cifras.tsv): the audit compares ours with them
        self.references = Path(references) if references else None
        # upstream's repository history (a git bundle, or a git source's clone): every version of the routes it holds
        self.bundle = bundle if isinstance(bundle, paquete.Repository) else Path(bundle) if bundle else None
        self.bundle_head: Optional[str] = None  # its last commit, read once per run (_check_bundle)
        self.output = Path(output)
        # What the output holds now: a file that cannot be read today keeps its rows from there. A
        # fresh build (build-db --sin-anterior) reads nothing of it.
        self.previous = None if fresh else previous or (PreviousBuild(self.output) if self.output.is_file() else None)
        self.keep = keep  # builds kept beside the output when it is replaced (respaldo.py)
        self.kept: Optional[Path] = None  # where the replaced build went
        self.keep_going = keep_going
        self.datasets = datasets or DATASETS
        # One clock for every finding and freshness line: $ARGENTINA_DATOS_HOY when set, as the answers use.
        self.today = today or reference_day()
        # Files no dataset claims are kept as documents only in a build of the whole catalogue.
        self.all_datasets = datasets is None
        self.reporter = reporter or Reporter()
        if isinstance(source, DirectorySource):  # its files' checksums, kept beside the database between builds
            source.stamps = ContentStamps(self.output.with_name(self.output.name + STAMPS_SUFFIX))

    def plan(self) -> Plan:
        plan = Plan(self.source)
        self.source.progress = self.reporter.download
        for ds in self.datasets:
            if ds.versions_of:  # its files are the versions the build stores (_build)
                plan.files.append((ds, []))
                continue
            routes: list[tuple[Source, str]] = []
            try:
                for src in ds.sources:
                    routes.extend((src, r) for r in self.source.expand(ds, src))
            except SourceError as e:
                if not self.keep_going or isinstance(e, SourceUnreachable):
                    raise BuildError(str(e)) from None
                routes = self._previous_routes(ds)
                if routes:
                    plan.unlisted[ds.table] = str(e)
                else:
                    plan.errors[ds.table] = str(e)
            plan.files.append((ds, routes))
        claimed = {route for _, routes in plan.files for src, route in routes if not src.history}
        if self.all_datasets:
            # Every file upstream publishes is stored, those of routes a /v1 endpoint also derives from a list too.
            plan.documents = self.source.unclaimed(claimed)
        return plan

    def _previous_routes(self, ds: Dataset) -> list[tuple[Source, str]]:
        """The files of ``ds`` the previous build read, each with the source pattern it matches."""
        if self.previous is None:
            return []
        out = []
        for route in self.previous.tables.get(ds.table, []):
            for src in ds.sources:
                try:
                    if not src.history and (src.placeholders or src.route == route):
                        partition_values(ds, src, route)
                        out.append((src, route))
                        break
                except SourceError:
                    continue
        return out

    @staticmethod
    def stamps(plan: Plan, before: dict[str, int]) -> tuple[dict[str, str], dict[str, tuple[int, str]]]:
        """Each dataset's stamp (and the documents'): what says whether its files changed; and, of each dataset with
        more files than the n of ``before`` (table -> the files the previous build read), (n, the stamp of its first
        n files): what says whether its files are those of the previous build and new ones after them."""
        out = {}
        prefixes = {}
        for ds, routes in plan.files:
            h = hashlib.sha256()
            for i, (src, route) in enumerate(routes):
                if i and i == before.get(ds.table):
                    prefixes[ds.table] = (i, h.hexdigest())
                h.update(f"{route}\0".encode())
                try:
                    stamp = plan.source.stamp(route, src.history)
                except SourceError as e:  # reported when the dataset is loaded
                    stamp = str(e).encode()
                h.update(stamp)
            out[ds.table] = h.hexdigest()
        h = hashlib.sha256()
        for route in plan.documents:
            h.update(f"{route}\0".encode() + plan.source.stamp(route))
        out[publicados.DOCUMENTS] = h.hexdigest()
        return out, prefixes

    def fingerprint(self, plan: Plan, stamps: dict[str, str]) -> str:
        h = hashlib.sha256(catalogue_fingerprint().encode())
        for table, stamp in stamps.items():
            h.update(f"{table}\0{stamp}\0".encode())
        # the history tree's files of routes without a *_historico table, and the bundle
        for route in plan.source.history_files():
            h.update(f"{route}\0".encode() + plan.source.stamp(route, True))
        if self.bundle_head is not None:
            h.update(self.bundle_head.encode())
        if self.references is not None and self.references.is_file():
            h.update(self.references.read_bytes())
        return h.hexdigest()

    def existing_fingerprint(self) -> Optional[str]:
        return self.previous.facts.get("huella") if self.previous else None

    def run(self, force: bool = False) -> Report:
        self.output.parent.mkdir(parents=True, exist_ok=True)
        with BuildLock(self.output):
            self._remove_leftover_temporaries()
            return self._run(force)

    def _remove_leftover_temporaries(self) -> None:
        """Left by a build that was killed: under the lock no other build can be writing them."""
        for leftover in self.output.parent.glob(self.output.name + ".tmp-*"):
            leftover.unlink(missing_ok=True)

    def _run(self, force: bool) -> Report:
        self._check_bundle()
        plan = self.plan()
        if not any(routes for _, routes in plan.files) and not plan.errors:
            raise BuildError(
                f"{self.source.description}: la fuente no tiene ninguno de los conjuntos de datos del catálogo"
            )
        before = {t: len(routes) for t, routes in self.previous.tables.items()} if self.previous else {}
        stamps, prefixes = self.stamps(plan, before)
        fingerprint = self.fingerprint(plan, stamps)
        if isinstance(self.source, DirectorySource):
            self.source.stamps.save()
        report = Report()
        if not force and fingerprint == self.existing_fingerprint():
            report.unchanged = True
            return report
        reuse, why = incremental.plan(
            self.previous,
            stamps,
            self.datasets,
            force=force,
            whole=self.all_datasets,
            failing=set(plan.errors) | set(plan.unlisted),
            prefixes=prefixes,
        )
        fd, tmp = tempfile.mkstemp(prefix=self.output.name + ".tmp-", dir=self.output.parent)
        os.close(fd)
        try:
            if reuse is None:
                if self.previous is not None:  # a first build needs no reason
                    self.reporter.message(f"construcción completa: {why}")
            else:
                assert self.previous is not None
                incremental.start_from(self.previous.path, tmp, reuse)
                self.reporter.message(
                    f"construcción incremental: {len(reuse.kept)} conjuntos conservados de la construcción anterior "
                    f"(copia de {self.previous.path.stat().st_size / 1e6:,.0f} MB en {reuse.seconds:.2f} s); "
                    f"se releen {len(reuse.reread)}: {', '.join(reuse.reread)}" + self._extended_text(plan, reuse)
                )
            report.reuse = reuse
            try:
                self._build(tmp, plan, fingerprint, stamps, report)
            except sqlite3.OperationalError as e:
                if not _is_disk_full(e):
                    raise
                raise BuildError(_no_room(self.output.parent, os.path.getsize(tmp))) from None
            os.chmod(tmp, self._mode())
            _flush_to_disk(tmp)
            self.kept = respaldo.keep(self.output, self.keep)
            os.replace(tmp, self.output)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
        return report

    @staticmethod
    def _extended_text(plan: Plan, reuse: Reuse) -> str:
        if not reuse.extended:
            return ""
        files = {ds.table: len(routes) for ds, routes in plan.files}
        added = [f"{t} ({files[t] - n:,} de {files[t]:,} archivos)" for t, (n, _) in reuse.extended.items()]
        return f"; se agregan los archivos nuevos de {len(added)}, sin releer los anteriores: {', '.join(added)}"

    def _mode(self) -> int:
        """mkstemp makes the file private (0600): keep the previous output's mode, else follow the umask."""
        try:
            return self.output.stat().st_mode & 0o777
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            return 0o666 & ~umask

    def _build(self, path: str, plan: Plan, fingerprint: str, stamps: dict[str, str], report: Report) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        reuse = report.reuse
        try:
            db.execute("PRAGMA journal_mode = MEMORY")
            db.execute("PRAGMA synchronous = OFF")
            db.execute("PRAGMA foreign_keys = OFF")
            kept_tables: set[str] = set()
            if reuse is not None:
                incremental.drop_changed(db, self.datasets, reuse)
                kept_tables = incremental.tables_of(db)
            fuentes: list[SourceFile] = []
            failed: list[tuple[str, str]] = []  # (route, why): asked for again by the next build
            loaded: list[Layout] = []
            kept: list[Layout] = []
            dates = calidad.DateChecker()
            # Before the datasets: a *_historico dataset's files are the versions this stores.
            self._history(db, plan, report)
            for ds, routes in plan.files:
                source: Files = plan.source
                if ds.versions_of:
                    source = historia.StoredVersions(db, ds)
                    routes = [(ds.sources[0], route) for route in source.routes()]
                outcome = Outcome(ds.table, files=len(routes))
                report.outcomes.append(outcome)
                if reuse is not None and ds.table in reuse.kept:
                    assert self.previous is not None
                    outcome.rows, outcome.kept, outcome.missing = reuse.kept[ds.table], True, not routes
                    fuentes.extend(self.previous.sources_of(ds.table))
                    if routes:
                        kept.append(Layout(ds))
                    continue
                if ds.table in plan.errors:
                    outcome.error = plan.errors[ds.table]
                    self.reporter.done(outcome)
                    continue
                if not routes:
                    outcome.missing = True
                    self.reporter.done(outcome)
                    continue
                start = time.perf_counter()
                # extended: its previous files' rows, findings and rows of fuentes and publicados stay; the new files
                # follow them, as they follow them in a full build's reading
                old_files, old_rows = reuse.extended.get(ds.table, (0, 0)) if reuse else (0, 0)
                routes = routes[old_files:]
                outcome.added = len(routes) if old_files else 0
                loader = DatasetLoader(
                    db,
                    ds,
                    source,
                    self.reporter.start(ds.table, len(routes)),
                    keep_going=self.keep_going,
                    dates=dates,
                    previous=self.previous,
                    unlisted=plan.unlisted.get(ds.table),
                    publishes=not ds.versions_of,
                    created=bool(old_files),
                )
                try:
                    with sqlite_utils.Database(db).atomic():  # one transaction a dataset: one that fails leaves nothing
                        outcome.rows = old_rows + loader.load(routes)
                        loader.finish()
                except (BuildError, SourceError) as e:
                    if not self.keep_going or isinstance(e, SourceUnreachable):
                        raise BuildError(str(e)) from None
                    if old_files:  # as a full build leaves it: without its table and files
                        incremental.forget(db, ds.table)
                    outcome.error = str(e)
                    self.reporter.done(outcome)
                    continue
                outcome.seconds = time.perf_counter() - start
                outcome.skipped_files = loader.skipped_files
                failed.extend(loader.failed)
                if old_files:
                    assert self.previous is not None
                    fuentes.extend(self.previous.sources_of(ds.table))
                fuentes.extend(loader.fuentes)
                report.findings.extend(loader.findings)
                loaded.append(loader.layout)
                self.reporter.done(outcome)
                self._warn(loader.findings)
            self._link(db, loaded, [layout for layout in kept if reuse and layout.table in reuse.relink])
            # Each derived table whose tables this build has (a partial build may lack them).
            derivadas.build_all(
                db,
                [d for d in DERIVED_TABLES if reuse is None or d.table not in reuse.derived],
                lambda table, rows, seconds: self._derived(report, table, rows, seconds),
            )
            # The catalogue of series reads the tables and the versions store: after both.
            kept_tables = {table for layout in kept for table in layout.tables}
            previous_series = self.previous.series() if reuse and self.previous else None
            changed = reuse.written(self.datasets) if reuse else set()
            report.findings.extend(tabla_series.write(db, self.today, FTS_TOKENIZE, previous_series, changed))
            if reuse is not None and reuse.documents:
                assert self.previous is not None
                fuentes.extend(
                    self.previous.sources_of(publicados.DOCUMENTS) + self.previous.sources_of(publicados.CUTS)
                )
                report.outcomes.append(Outcome(publicados.DOCUMENTS, rows=reuse.kept[publicados.DOCUMENTS], kept=True))
            elif plan.documents:
                self._load_documents(db, plan, fuentes, failed, report)
            # a build that skipped anything is incomplete: the next run must not call it up to date
            self._finish(
                db, plan, loaded, kept, fuentes, failed, fingerprint if report.complete else "", stamps, report
            )
            # An incremental build analyzes and checks only what it wrote: the kept tables' pages and statistics are
            # a byte copy of a build that passed the same check.
            h = report.history
            if reuse is not None and h is not None and not (h.versions or h.rewritten or h.revisions):
                kept_tables |= set(incremental.VERSIONS)  # carried in place, and nothing added
            written = None if reuse is None else incremental.tables_of(db) - kept_tables
            self._analyze(db, report, written)
            self._check(db, written)
        finally:
            db.close()

    def _check_bundle(self) -> None:
        """A bundle that git cannot read stops the build, naming it; with keep_going the build goes on without it."""
        if self.bundle is None:
            return
        try:
            self.bundle_head = paquete.head(self.bundle)
        except SourceError as e:
            if not self.keep_going:
                raise BuildError(str(e)) from None
            self.reporter.warn(f"{e}: se construye sin el paquete de versiones")
            self.bundle = None

    def _history(self, db: sqlite3.Connection, plan: Plan, report: Report) -> None:
        """Every version of the routes with a past (the bundle, the history tree, the previous build)."""
        start = time.perf_counter()
        report.history = historia.build(
            db,
            plan.source,
            today=self.today,
            previous=self.previous,
            bundle=self.bundle,
            bundle_head=self.bundle_head,
            latest_only=LATEST_ONLY,
            say=self.reporter.message,
            in_place=report.reuse is not None,
        )
        tables = {"/" + route: ds.table for ds, routes in plan.files for src, route in routes if not src.history}
        revised = historia.revision_findings(db, tables) + historia.delay_findings(db, tables)
        report.findings.extend(revised)
        self._warn(revised)
        h = report.history
        self.reporter.message(
            f"versiones: {h.versions:,} nuevas"
            + (f", {h.rewritten:,} vueltas a guardar (su ruta recibió versiones anteriores)" if h.rewritten else "")
            + f" y {h.carried:,} de la construcción anterior, de {h.routes} rutas"
            f" ({h.bytes / 2**20:,.0f} MB leídos); {h.revisions:,} revisiones nuevas ({time.perf_counter() - start:.2f} s)"
        )

    @staticmethod
    def _link(db: sqlite3.Connection, layouts: list[Layout], relink: list[Layout]) -> None:
        """Columns the records do not carry (Dataset.links), now that every table they read is built; ``relink``:
        kept tables whose links read a table loaded again, filled again from scratch."""
        with sqlite_utils.Database(db).atomic():
            for layout in relink:
                for link in layout.dataset.links:
                    db.execute(f"UPDATE {quote(link.table)} SET {quote(link.column)} = NULL")
            for layout in layouts + relink:
                for link in layout.dataset.links:
                    db.executemany(
                        f"UPDATE {quote(link.table)} SET {quote(link.column)} = ? WHERE {layout.link_key(link)} = ?",
                        [(value, row) for row, value in RESOLVERS[link.table, link.column](db) if value is not None],
                    )

    def _load_documents(
        self,
        db: sqlite3.Connection,
        plan: Plan,
        fuentes: list[SourceFile],
        failed: list[tuple[str, str]],
        report: Report,
    ) -> None:
        outcome = Outcome(publicados.DOCUMENTS, files=len(plan.documents))
        report.outcomes.append(outcome)
        start = time.perf_counter()
        advance = self.reporter.start(publicados.DOCUMENTS, len(plan.documents))
        stored: list[tuple[str, str, bytes]] = []
        router = Router()
        for route in plan.documents:
            # A cut of a list (a senator's trips, an acta of the year's list): a route the catalogue answers.
            label = publicados.DOCUMENTS if router.find("/" + route) is None else publicados.CUTS
            name = plan.source.name(route)
            try:
                body = plan.source.read(route)
                count = publicados.parse_check(name, body)
            except (SourceError, ValueError) as e:
                if not self.keep_going:
                    raise BuildError(str(e)) from None
                failed.append(("/" + route, str(e)))
                previous = self.previous.body(route) if self.previous else None
                kept = None if previous is None else publicados.parse_check(name, previous)
                report.findings.append(calidad.unreadable(label, "/" + route, str(e), kept))
                if previous is None or kept is None:
                    outcome.skipped_files.append(str(e))
                    continue
                outcome.skipped_files.append(f"{e} — {calidad.kept_text(kept)}")
                name, body, count = f"{name} (copia de la construcción anterior)", previous, kept
            stored.append(("/" + route, label, body))
            sha = hashlib.sha256(body).hexdigest()
            fuentes.append(SourceFile("/" + route, label, name, count, len(body), sha, None, None))
            outcome.rows += 1
            advance(1)
        with sqlite_utils.Database(db).atomic():
            publicados.write(db, stored)
        outcome.seconds = time.perf_counter() - start
        self.reporter.done(outcome)

    def _finish(
        self,
        db: sqlite3.Connection,
        plan: Plan,
        layouts: list[Layout],
        kept: list[Layout],
        fuentes: list[SourceFile],
        failed: list[tuple[str, str]],
        fingerprint: str,
        stamps: dict[str, str],
        report: Report,
    ):
        lite = sqlite_utils.Database(db)
        with lite.atomic():
            for layout in layouts:
                repeated = _repeated_keys(db, layout)
                report.findings.extend(repeated)
                self._warn(repeated)
                for index in layout.indexes(unique=not repeated):
                    index.create(lite)
                view = layout.view_select()
                if view:
                    lite.create_view(layout.view_name, view)
            # an incremental build audits what its loads touched, and keeps the previous build's other findings
            only = scope(layouts + kept, report.reuse.written(self.datasets)) if report.reuse else None
            figures = contrastes.read_figures(self.references)
            audited = figures.unreadable + audit(db, layouts + kept, self.today, fuentes, only, figures.rows)
            report.findings.extend(audited)
            self._warn(audited)
            if report.reuse is not None and only is not None:
                report.findings.extend(self._kept_findings(report.reuse, only))
            since = self.previous.failed if self.previous else {}
            own: dict[propias.OwnTable, list] = {
                propias.CALIDAD: report.findings,
                propias.CONTROLES: propias.control_rows(),
                propias.CIFRAS: figures.rows,
                propias.AUSENTES: [propias.AbsentRoute(*item) for item in sorted(plan.source.absent.items())],
                # one row per route (the Senate's trips file is read by two datasets)
                propias.FALLIDOS: list(
                    {
                        r: propias.FailedFile(r, e, since.get(r.lstrip("/"), self.today.isoformat())) for r, e in failed
                    }.values()
                ),
                propias.CAMBIOS: historia.changes(db),
                propias.FUENTES: fuentes,
                propias.CONSTRUCCION: [
                    propias.BuildFact("huella", fingerprint),
                    propias.BuildFact("fuente", self.source.description),
                    propias.BuildFact("construido", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
                    propias.BuildFact("version", __version__),
                    propias.BuildFact(incremental.SCHEMA, catalogue_fingerprint()),
                    incremental.datasets_fact(stamps, self._complete(plan, report)),
                    # a git source's commit: the next build asks git what changed since (repositorio.py)
                    *([propias.BuildFact("commit", self.source.commit)] if hasattr(self.source, "commit") else []),
                    # /v1 says so where a publicado finds no version (the first start's database, until its second
                    # build adds them)
                    *(
                        [propias.BuildFact(propias.UNBUNDLED, "build-db --sin-versiones, o ningún paquete")]
                        if self.bundle is None
                        else []
                    ),
                ],
            }
            for own_table, rows in own.items():
                own_table.create(lite)
                own_table.write(lite, rows)
        for layout in layouts:
            for table, columns in layout.fts_targets():
                lite.table(table).enable_fts(columns, tokenize=FTS_TOKENIZE)
                lite.table(table).populate_fts(columns)

    @staticmethod
    def _analyze(db: sqlite3.Connection, report: Report, tables: Optional[set[str]]) -> None:
        """Statistics of ``tables`` (None: every table)."""
        # Statistics from a sample of each index are as good for our few queries, at a fraction of the time.
        db.execute("PRAGMA analysis_limit = 1000")
        for statement in ["ANALYZE"] if tables is None else [f"ANALYZE {quote(t)}" for t in sorted(tables)]:
            db.execute(statement)
        # A fund's history in fci_serie is read by the key's second column (a skip-scan), which SQLite
        # picks only when its statistics show many rows per date: sampled ones were borderline (22 vs 18).
        db.execute("PRAGMA analysis_limit = 0")
        for outcome in report.derived:
            db.execute(f"ANALYZE {quote(outcome.table)}")
        # No VACUUM: it packed the pages that inserts into a WITHOUT ROWID table leave ~88% full (16 MB of the
        # mirror's 212) by writing the whole file twice (1.0 s CPU, 3 s wall: timed alone, loaded machine).

    def _kept_findings(self, reuse: Reuse, only) -> list[calidad.Finding]:
        """The previous build's findings this build does not compute again: those of the kept tables' loads and
        audit outside ``only`` (the audit's scope), and those of the extended tables' previous files.  The late series and the revisions are found again every build."""
        assert self.previous is not None
        reloaded = reuse.reloaded_tables(self.datasets) | (
            {publicados.DOCUMENTS, publicados.CUTS} if not reuse.documents else set()
        )
        again = {calidad.LATE, calidad.PUBLISHED_FIGURE, *controles.names(controles.HISTORY)}
        # an extended dataset's: those its previous files' records gave when loaded (the new files' are found now)
        loading = set(controles.names(controles.LOAD)) - {calidad.REPEATED_KEY, calidad.UNREADABLE}
        return [
            f
            for f in self.previous.findings()
            if f.control not in again
            and (f.tabla not in reloaded or (f.tabla in reuse.extended and f.control in loading))
            and not only.covers(f)
        ]

    @staticmethod
    def _complete(plan: Plan, report: Report) -> dict[str, int]:
        """table -> rows of each dataset (and the documents) read whole, or that the source does not have: what the
        next build may keep."""
        out = {o.table: o.rows for o in report.outcomes if not (o.error or o.skipped_files)}
        return {t: rows for t, rows in out.items() if t not in plan.unlisted}

    @staticmethod
    def _check(db: sqlite3.Connection, tables: Optional[set[str]]) -> None:
        """Checks ``tables`` (None: the whole file)."""
        # quick_check: every page and record well formed (0.3 s); integrity_check would also match each
        # index against its table (0.7 s), which a file written in one go by SQLite itself does not need.
        # The whole mirror's file took 4.7 s on the loaded machine, one table of it 0.06 s.
        for pragma in (
            ["PRAGMA quick_check"] if tables is None else [f"PRAGMA quick_check({quote(t)})" for t in sorted(tables)]
        ):
            result = db.execute(pragma).fetchone()[0]
            if result != "ok":
                raise BuildError(f"la base construida no pasa {pragma}: {result}")

    # ---- reporting -------------------------------------------------------------

    def _derived(self, report: Report, table: str, rows: int, seconds: float) -> None:
        outcome = Outcome(table, rows=rows, seconds=seconds, computed=True)
        report.derived.append(outcome)
        self.reporter.done(outcome)

    def _warn(self, findings: list[calidad.Finding]) -> None:
        # The data's oddities (kept, and in the calidad table) apart from the build's own warnings: the command
        # line lists them only when asked to (cli.py, --detalle).
        for line in calidad.summary(findings):
            self.reporter.finding(line)


class Reporter:
    """What a build says as it goes; this one says nothing (cli.py's LineReporter and BarReporter print)."""

    def start(self, table: str, total: int) -> Callable[[int], None]:
        """A dataset's loading starts: the returned function advances its progress by n files."""
        return lambda n: None

    def download(self, table: str, total: int) -> Callable[[int], None]:
        """HTTP mode asks for ``total`` candidate routes of ``table`` first."""
        return self.start(table, total)

    def done(self, outcome: Outcome) -> None:
        pass

    def warn(self, line: str) -> None:
        pass

    def finding(self, line: str) -> None:
        pass

    def message(self, line: str) -> None:
        pass

    def close(self) -> None:
        pass


def _flush_to_disk(path: str) -> None:
    """The build writes with synchronous=OFF (a failed build is thrown away): its file reaches the disk once, here,
    before the rename, so that a power cut after the rename cannot leave a damaged database in its place."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _repeated_keys(db: sqlite3.Connection, layout: Layout) -> list[calidad.Finding]:
    """Records sharing the natural key (in one file or across files): kept, and reported."""
    key = layout.dataset.unique
    if not key:
        return []
    stored = ", ".join(quote(layout.stored(c)) for c in key)
    # NULL keys are no key (a UNIQUE index allows them): records that lack one are reported as such.
    present = " AND ".join(f"{quote(layout.stored(c))} IS NOT NULL" for c in key)
    rows = db.execute(
        f"SELECT {stored}, count(*) FROM {quote(layout.table)} WHERE {present} GROUP BY {stored} HAVING count(*) > 1"
    ).fetchall()
    return [
        calidad.Finding(
            tabla=layout.table,
            control=calidad.REPEATED_KEY,
            campo=", ".join(key),
            valor=calidad.as_json(list(r[:-1])),
            detalle=f"{r[-1]} registros comparten la clave ("
            + ", ".join(f"{c}={v!r}" for c, v in zip(key, r[:-1]))
            + ")",
        )
        for r in rows
    ]


def _is_disk_full(e: sqlite3.OperationalError) -> bool:
    return getattr(e, "sqlite_errorcode", None) == 13 or "disk is full" in str(e)  # 13: SQLITE_FULL


def _no_room(output_dir: Path, written: int) -> str:
    """Which disk filled up: the output's, or the one of SQLite's temporary files (index sorts), whichever
    has less room left."""
    places = [(output_dir, "el directorio de la salida"), (Path(sqlite_temp_dir()), "el directorio temporal de SQLite")]
    directory, what = min(places, key=lambda place: shutil.disk_usage(place[0]).free)
    message = (
        f"no hay lugar en el disco de {directory} ({what}): quedan {shutil.disk_usage(directory).free / 1e6:,.0f} MB "
        f"libres y la base en construcción ya ocupaba {written / 1e6:,.0f} MB"
    )
    if directory != output_dir:
        message += "; $SQLITE_TMPDIR elige otro directorio temporal"
    return message


def sqlite_temp_dir() -> str:
    """Where SQLite on Unix puts its temporary files: the first usable of $SQLITE_TMPDIR, $TMPDIR,
    /var/tmp, /usr/tmp and /tmp (os_unix.c, unixTempFileDir), else the current directory."""
    for candidate in (os.environ.get("SQLITE_TMPDIR"), os.environ.get("TMPDIR"), "/var/tmp", "/usr/tmp", "/tmp"):
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK | os.X_OK):
            return candidate
    return "."


class BuildLock:
    """One build at a time per output file: a second one is refused, naming the first."""

    def __init__(self, output: Path):
        self.path = output.with_name(output.name + ".lock")
        self.fd: Optional[int] = None

    def __enter__(self):
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
                os.close(fd)
                raise BuildError(
                    f"{self.path.with_suffix('')}: otra construcción está en curso (pid {holder}); espere a que termine"
                ) from None
            # The previous holder may have removed the file between our open and our lock.
            try:
                same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self.fd = fd
        return self

    def __exit__(self, *exc):
        self.path.unlink(missing_ok=True)
        os.close(self.fd)
        return False
