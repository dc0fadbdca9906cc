"""Every version of upstream's files in a git repository's history: the bundle
(``upstream-versions/upstream.bundle``, unbundled into a temporary repository) or a git source's clone
(``repositorio.GitSource.versions``).  One version per commit that changed a file, dated by its committer time (UTC).

Read with ``git`` itself: one ``git log --raw`` for which file each commit changed (0.1 s), and one
``git cat-file --batch`` streaming every blob (the bundle's 12,908 versions of 20 routes, 2.5 GB of JSON, in
3 s; unbundling it resolves the deltas: 3 to 11 s here, by the machine's load).  A Python git library (dulwich)
was not measured against it: it would still need the bundle unpacked, and git is on every machine that makes or
receives one.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Optional

from argentina_datos.construccion.fuentes import SourceError

INDEX = "/index.json"


@dataclass(frozen=True)
class Commit:
    id: str
    published: str  # committer time, UTC: AAAA-MM-DDTHH:MM:SSZ
    changed: tuple[tuple[str, str], ...]  # (route without the leading slash, blob id) of each file it changed


def default_bundle(source: str) -> Optional[str]:
    """``upstream-versions/upstream.bundle`` beside a source directory, if it exists."""
    if source.startswith(("http://", "https://")):
        return None
    path = os.path.join(os.path.dirname(os.path.abspath(source.rstrip("/"))), "upstream-versions", "upstream.bundle")
    return path if os.path.isfile(path) else None


def head(bundle: "Path | Repository") -> str:
    """The commit the bundle's branch points to: whether there is anything new, without unbundling."""
    if isinstance(bundle, Repository):
        return bundle.head()
    if not Path(bundle).is_file():
        raise SourceError(f"{bundle}: no existe el paquete de versiones")
    try:
        out = _git(["bundle", "list-heads", str(bundle)], cwd=None)
    except SourceError as e:
        raise SourceError(f"{bundle}: no es un paquete de git legible ({e})") from None
    ids = [line.split()[0] for line in out.decode().splitlines() if line.strip()]
    if not ids:
        raise SourceError(f"{bundle}: el paquete de versiones no tiene ninguna rama")
    return ids[0]


class Repository:
    """A git repository whose history holds upstream's files: the commits that changed them and their blobs.

    ``layout``: the folder the ``v1`` tree is in (``datos`` in upstream's repository, "" in a bundle).
    ``overwritten_only``: only files some commit of the range modified are versions (upstream's repository
    adds a file per day to many folders; a file only added has no past), and a file whose first change in
    the range is a modification also has its version before it, at the previous commit's time.
    ``since``: with no ``after`` commit, where the history starts (a date; None: the whole history)."""

    def __init__(
        self,
        git_dir: str | os.PathLike,
        *,
        layout: str = "",
        tip: str = "--all",
        since: Optional[str] = None,
        overwritten_only: bool = False,
    ):
        self.dir = str(git_dir)
        self.prefix = layout + "/" if layout else ""
        self.tip = tip
        self.since = since
        self.overwritten_only = overwritten_only

    def head(self) -> str:
        return _git(["rev-parse", self.tip if self.tip != "--all" else "HEAD"], self.dir).decode().strip()

    def commits(self, after: Optional[str] = None) -> list[Commit]:
        """The commits oldest first (only those after ``after``, if the repository has it), with the files each changed."""
        # --all: a bundle's branch, whatever its name (a bare clone's HEAD may name none)
        revs = [self.tip] if after is None or not self._has(after) else [self.tip, f"^{after}"]
        if len(revs) == 1 and self.since:
            revs.append(f"--since={self.since}")
        out = _git(
            [
                "log",
                "--reverse",
                "--no-renames",
                "--format=C %H %ct %P",
                "--raw",
                "--no-abbrev",
                *revs,
                "--",
                self.prefix + "v1",
            ],
            self.dir,
        )
        commits: list[Commit] = []
        changes: dict[str, list] = {}  # route -> [(index of commit, blob, status, old blob, parent)]
        for line in out.decode().splitlines():
            if line.startswith("C "):
                _, sha, seconds, *parents = line.split()
                commits.append(Commit(sha, _utc(int(seconds)), ()))
                parent = parents[0] if parents else None
            elif line.startswith(":"):
                meta, path = line.split("\t", 1)
                old, blob, status = meta.split()[2:5]
                if path.startswith(self.prefix) and path.endswith(INDEX) and status != "D":
                    route = path[len(self.prefix) : -len(INDEX)]
                    changes.setdefault(route, []).append((len(commits) - 1, blob, status, old, parent))
        changed: list[list[tuple[str, str]]] = [[] for _ in commits]
        before: list[tuple[str, str, str]] = []  # (parent commit, route, blob) of the versions before the range
        for route, seen in changes.items():
            if self.overwritten_only:
                if not any(status == "M" for _, _, status, _, _ in seen):
                    continue
                _, _, status, old, parent = seen[0]
                if status == "M" and parent:
                    before.append((parent, route, old))
            for i, blob, _, _, _ in seen:
                changed[i].append((route, blob))
        out_commits = [Commit(c.id, c.published, tuple(sorted(ch))) for c, ch in zip(commits, changed) if ch]
        if before:
            # each version before the range is dated by the commit it was read at: merged into that commit
            times = self._times({p for p, _, _ in before})
            merged = {c.id: c for c in out_commits}
            for parent, route, blob in before:
                c = merged.get(parent) or Commit(parent, times[parent], ())
                merged[parent] = Commit(c.id, c.published, tuple(sorted((*c.changed, (route, blob)))))
            out_commits = sorted(merged.values(), key=lambda c: c.published)
        return out_commits

    def blobs(self, ids: list[str]) -> Iterator[bytes]:
        """The contents of the blobs ``ids``, in that order, from one ``git cat-file --batch``."""
        self._fetch_missing(ids)
        proc = subprocess.Popen(
            ["git", "cat-file", "--batch"], cwd=self.dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        assert proc.stdin and proc.stdout
        # The ids are written from a thread: git answers as it reads them, and a pipe full both ways would
        # stop both processes.
        feeder = threading.Thread(target=_write_lines, args=(proc.stdin, ids), daemon=True)
        feeder.start()
        try:
            for blob in ids:
                header = proc.stdout.readline().split()
                if len(header) != 3 or header[0].decode() != blob:
                    raise SourceError(f"{self.dir}: git cat-file no devolvió el objeto {blob}")
                body = proc.stdout.read(int(header[2]))
                proc.stdout.read(1)  # the newline after each object
                yield body
        finally:
            feeder.join()
            proc.stdout.close()
            proc.wait()

    def _fetch_missing(self, ids: list[str]) -> None:
        """In a partial clone the history's blobs are not there yet: one fetch brings them all (git's own lazy
        fetch, which cat-file would do, asks the remote once per blob)."""
        promisor = subprocess.run(
            ["git", "config", "remote.origin.promisor"], cwd=self.dir, capture_output=True, text=True
        )
        if promisor.stdout.strip() != "true" or not ids:
            return
        listed = subprocess.run(
            ["git", "cat-file", "--batch-check=%(objectname)", "--batch-all-objects"],
            cwd=self.dir,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        have = set(listed.split())
        missing = sorted({i for i in ids if i not in have})
        if missing:
            # the command git runs for its own lazy fetch, for all the missing blobs at once
            subprocess.run(
                [
                    "git",
                    "-c",
                    "fetch.negotiationAlgorithm=noop",
                    "fetch",
                    "origin",
                    "--no-tags",
                    "--no-write-fetch-head",
                    "--recurse-submodules=no",
                    "--filter=blob:none",
                    "--stdin",
                ],
                cwd=self.dir,
                input="".join(m + "\n" for m in missing).encode(),
                capture_output=True,
                check=False,
            )

    def _times(self, ids: set[str]) -> dict[str, str]:
        out = _git(["log", "--no-walk=unsorted", "--format=%H %ct", *sorted(ids)], self.dir).decode()
        return {sha: _utc(int(seconds)) for sha, seconds in (line.split() for line in out.splitlines() if line)}

    def _has(self, commit: str) -> bool:
        found = subprocess.run(["git", "cat-file", "-e", commit + "^{commit}"], cwd=self.dir, capture_output=True)
        return found.returncode == 0


class Bundle:
    """The bundle unbundled into a temporary repository, for as long as the ``with`` block lasts."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._dir: Optional[str] = None

    def __enter__(self) -> Repository:
        self._dir = tempfile.mkdtemp(prefix="argentina-datos-versiones-")
        try:
            _git(["clone", "--quiet", "--bare", str(self.path.resolve()), self._dir], cwd=None)
        except BaseException:
            self.__exit__()
            raise
        return Repository(self._dir)

    def __exit__(self, *exc) -> None:
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None


def _write_lines(stream, ids: list[str]) -> None:
    try:
        stream.write("".join(i + "\n" for i in ids).encode())
    finally:
        stream.close()


def _utc(seconds: int) -> str:
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _git(args: list[str], cwd: Optional[str]) -> bytes:
    if shutil.which("git") is None:
        raise SourceError("para leer el paquete de versiones hace falta git (no está instalado)")
    try:
        return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True).stdout
    except subprocess.CalledProcessError as e:
        raise SourceError(f"git {args[0]} falló: {e.stderr.decode(errors='replace').strip()[:300]}") from None
