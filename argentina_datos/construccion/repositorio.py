"""Upstream's own git repository as a source: ``build-db --source git+URL`` (pip's spelling:
``git+https://…``, ``git+file:///path``) or the path of a git bundle.

The repository has upstream's layout, ``datos/v1/<route>/index.json`` (or ``v1/…`` at its root).  Its
clone lives in a cache folder (``--git-cache``, ``$ARGENTINA_DATOS_GIT_CACHE``, else
``$XDG_CACHE_HOME/argentina-datos/git``): the first build clones it, each later one fetches (only the new
objects travel) and checks the new commit out, which rewrites only the files that changed.  The clone is
partial (``--filter=blob:none``: no blob of the history is fetched until asked for; upstream's history holds
gigabytes of them) and sparse (only ``datos/v1`` and ``v1`` are checked out).

Read with ``git`` itself, through ``subprocess``, like the bundle of versions (``paquete.py``).  The files
are then read from the checkout as a directory is; what says whether a file changed is its blob id in the
commit's tree (``git ls-tree``), exact where a directory's size and time are a guess.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import hashlib
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Iterator, Optional
from urllib.parse import unquote, urlparse

from argentina_datos.construccion.fuentes import DirectorySource, SourceError
from argentina_datos.construccion.paquete import Repository

PREFIX = "git+"
INDEX = "/index.json"
# the folders of the tree a build reads: upstream's layout, or the static layout at the repository's root
SPARSE = ("datos/v1", "v1")


def is_git(spec: str) -> bool:
    """Whether ``build-db --source`` names a git repository: ``git+URL`` or a bundle file."""
    return spec.startswith(PREFIX) or (spec.endswith(".bundle") and os.path.isfile(spec))


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "argentina-datos" / "git"


def remote_of(spec: str) -> str:
    """What ``git clone`` is given: the URL after ``git+``, or a bundle's absolute path (git reads a bundle
    from a path, not from a file:// URL)."""
    url = spec[len(PREFIX) :] if spec.startswith(PREFIX) else spec
    if url.startswith("file://") and url.endswith(".bundle"):
        url = unquote(urlparse(url).path)
    if "://" not in url:
        url = os.path.abspath(url)
    return url


class GitSource(DirectorySource):
    """A clone of upstream's repository, brought up to date and checked out when made.

    ``commit`` is the commit read; ``changed`` the files that changed since ``since`` (the previous
    build's commit: None when there is none or git does not know it); ``counts`` and ``seconds`` what the
    update cost (objects and bytes fetched, and the time of the fetch and checkout)."""

    def __init__(
        self,
        spec: str,
        *,
        cache: str | os.PathLike | None = None,
        history: str | os.PathLike | None = None,
        since: Optional[str] = None,
    ):
        if shutil.which("git") is None:
            raise SourceError(f"{spec}: para leer un repositorio hace falta git (no está instalado)")
        self.remote = remote_of(spec)
        local = unquote(urlparse(self.remote).path) if self.remote.startswith("file://") else self.remote
        if "://" not in local and not os.path.exists(local):
            raise SourceError(f"{spec}: no existe {local}")
        cache_dir = Path(cache) if cache else Path(os.environ.get("ARGENTINA_DATOS_GIT_CACHE") or default_cache())
        self.clone = cache_dir / _folder_name(self.remote)
        start = time.perf_counter()
        cache_dir.mkdir(parents=True, exist_ok=True)
        with open(str(self.clone) + ".lock", "w") as lock:
            # two builds sharing the cache would meet in git's own index.lock: the second waits instead
            fcntl.flock(lock, fcntl.LOCK_EX)
            before = self._objects()
            self.commit = self._update(spec)
            after = self._objects()
        self.blobs = self._tree()
        layout = "datos" if any(r.startswith("datos/") for r in self.blobs) else ""
        if not any(r.startswith("v1/") for r in self._strip(layout)):
            raise SourceError(
                f"{spec}: el repositorio no tiene el formato de upstream (ni datos/v1 ni v1 en {self.commit[:12]})"
            )
        self.blobs = self._strip(layout)
        self.layout = layout
        super().__init__(self.clone / layout if layout else self.clone, history)
        self.description = spec
        # its files are dated by the commit read, not by when this build read them: two builds of one commit agree
        when = dt.datetime.fromisoformat(self._git("show", "-s", "--format=%cI", self.commit).strip())
        self.published = when.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.since = since
        self.changed = self._changed(since, layout)
        self.counts["objetos"] = after[0] - before[0]
        self.counts["bytes"] = max(0, after[1] - before[1])
        self.seconds = time.perf_counter() - start

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Held while a build reads the checkout: another build's fetch and checkout (which would change the files
        under this one) waits.  A checkout that moved since this source was opened is said, not read."""
        with open(str(self.clone) + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            head = self._git("rev-parse", "HEAD").strip()
            if head != self.commit:
                raise SourceError(
                    f"{self.remote}: otra construcción cambió la copia de {self.clone} a {head[:12]} mientras esta "
                    f"leía {self.commit[:12]}; vuelva a correrla"
                )
            yield

    def versions(self, since: Optional[str] = None) -> Repository:
        """The clone's history as versions of the files upstream overwrote: after the last build's commit, or on
        a first build since the date ``since`` (AAAA-MM-DD; None: the commit read only).  Their blobs are fetched
        when read (the clone is partial)."""
        when = since or self._git("show", "-s", "--format=%cI", self.commit).strip()
        return Repository(self.clone, layout=self.layout, tip=self.commit, since=when, overwritten_only=True)

    # ---- git -----------------------------------------------------------------------
    def _git(self, *args: str, cwd: Optional[Path] = None) -> str:
        try:
            done = subprocess.run(
                ["git", *args], cwd=cwd or self.clone, check=True, capture_output=True, env=_quiet_env()
            )
        except subprocess.CalledProcessError as e:
            lines = e.stderr.decode(errors="replace").strip().splitlines()
            # git's own reason is its fatal: line; what follows it is advice
            problem = next(
                (line for line in lines if line.startswith(("fatal:", "error:"))), lines[-1] if lines else ""
            )
            raise SourceError(f"{self.remote}: git {args[0]} falló: {problem or e.returncode}") from None
        return done.stdout.decode()

    def _update(self, spec: str) -> str:
        """Clones or fetches, checks the remote's branch out; returns its commit."""
        if not (self.clone / ".git").is_dir():
            partial = [] if os.path.isfile(self.remote) else ["--filter=blob:none"]
            tmp = self.clone.with_name(self.clone.name + ".tmp")
            shutil.rmtree(tmp, ignore_errors=True)
            # a clone cut short leaves no half repository that the next build would take for the cache
            self._git("clone", "--quiet", "--no-checkout", *partial, self.remote, str(tmp), cwd=self.clone.parent)
            self._git("sparse-checkout", "set", *SPARSE, cwd=tmp)
            os.replace(tmp, self.clone)
        else:
            self._git("fetch", "--quiet", "--prune", "origin")
        commit = self._tip(spec)
        self._git("-c", "advice.detachedHead=false", "checkout", "--quiet", "--force", "--detach", commit)
        return commit

    def _tip(self, spec: str) -> str:
        """The remote's default branch (a bundle names no HEAD: its only branch, or main/master)."""
        refs = self._git("for-each-ref", "--format=%(refname) %(objectname)", "refs/remotes/origin/").split("\n")
        branches = dict(line.split() for line in refs if line.strip())
        head = subprocess.run(
            ["git", "symbolic-ref", "-q", "refs/remotes/origin/HEAD"], cwd=self.clone, capture_output=True, text=True
        ).stdout.strip()
        for ref in (head, "refs/remotes/origin/main", "refs/remotes/origin/master"):
            if ref in branches:
                return branches[ref]
        real = [sha for ref, sha in branches.items() if not ref.endswith("/HEAD")]
        if len(real) != 1:
            raise SourceError(f"{spec}: no se sabe qué rama leer (ramas: {', '.join(sorted(branches)) or 'ninguna'})")
        return real[0]

    def _tree(self) -> dict[str, str]:
        """path without /index.json -> blob id, for every index.json of the folders read."""
        out = self._git("ls-tree", "-r", "-z", "--full-tree", self.commit, "--", *SPARSE)
        blobs = {}
        for entry in out.split("\0"):
            if not entry:
                continue
            meta, path = entry.split("\t", 1)
            mode, kind, blob = meta.split()
            if kind == "blob" and path.endswith(INDEX):
                blobs[path[: -len(INDEX)]] = blob
        return blobs

    def _strip(self, layout: str) -> dict[str, str]:
        if not layout:
            return {r: b for r, b in self.blobs.items() if r.startswith("v1/")}
        cut = len(layout) + 1
        return {r[cut:]: b for r, b in self.blobs.items() if r.startswith(layout + "/v1/")}

    def _changed(self, since: Optional[str], layout: str) -> Optional[list[str]]:
        if (
            not since
            or subprocess.run(
                ["git", "cat-file", "-e", since + "^{commit}"], cwd=self.clone, capture_output=True
            ).returncode
        ):
            return None
        out = self._git("diff", "--name-only", "--no-renames", "-z", since, self.commit, "--", *SPARSE)
        cut = len(layout) + 1 if layout else 0
        return [p[cut : -len(INDEX)] for p in out.split("\0") if p.endswith(INDEX)]

    def _objects(self) -> tuple[int, int]:
        """(objects, bytes) in the clone's object store, to tell what a fetch brought."""
        if not (self.clone / ".git").is_dir():
            return 0, 0
        stats = dict(line.split(": ", 1) for line in self._git("count-objects", "-v").splitlines() if ": " in line)
        return int(stats["count"]) + int(stats["in-pack"]), (int(stats["size"]) + int(stats["size-pack"])) * 1024

    # ---- DirectorySource -------------------------------------------------------------
    def _all_routes(self, history: bool) -> list[str]:
        if history:
            return super()._all_routes(True)
        if self._routes is None:
            self._routes = sorted(self.blobs)
        return self._routes

    def stamp(self, route: str, history: bool = False) -> bytes:
        if history or route not in self.blobs:
            return super().stamp(route, history)
        return self.blobs[route].encode()

    def summary(self) -> str:
        """One line: the commit read, what changed since the last build, what the update cost."""
        if self.changed is None:
            what = f"{len(self.blobs):,} archivos (sin commit anterior conocido)"
        else:
            what = f"{len(self.changed):,} archivos cambiados desde {self.since[:12] if self.since else ''}"
        return (
            f"git: commit {self.commit[:12]}, {what}; {self.counts['objetos']:,} objetos recibidos, "
            f"{self.counts['bytes'] / 1e6:.1f} MB, {self.seconds:.2f} s ({self.clone})"
        )


def _folder_name(remote: str) -> str:
    """The clone's folder in the cache: readable, and one per remote."""
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", remote).strip("_")[-60:]
    return f"{readable}-{hashlib.sha1(remote.encode()).hexdigest()[:10]}"


def _quiet_env() -> dict:
    # never a prompt for a password on a terminal: a build in cron would hang on it
    return {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ADVICE": "0"}
