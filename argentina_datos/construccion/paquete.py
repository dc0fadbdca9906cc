"""Every version of upstream's files in a git bundle (``upstream-versions/upstream.bundle``): one commit per
upstream commit that changed any of them, dated by its committer time (UTC).

Read with ``git`` itself: unbundling into a temporary bare repository (the clone resolves the deltas:
3 to 11 s here, by the machine's load), one ``git log --raw`` for which file each commit changed (0.1 s), and
one ``git cat-file --batch`` streaming every blob (the 12,908 versions of the 20 routes, 2.5 GB of JSON, in
3 s).  A Python git library (dulwich) was not measured against it: it would still need the bundle unpacked,
and git is on every machine that makes or receives one.
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


def head(bundle: Path) -> str:
    """The commit the bundle's branch points to: whether there is anything new, without unbundling."""
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


class Bundle:
    """The bundle unbundled into a temporary repository, for as long as the ``with`` block lasts."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._dir: Optional[str] = None

    def __enter__(self) -> "Bundle":
        self._dir = tempfile.mkdtemp(prefix="argentina-datos-versiones-")
        try:
            _git(["clone", "--quiet", "--bare", str(self.path.resolve()), self._dir], cwd=None)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self._dir:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None

    def commits(self, after: Optional[str] = None) -> list[Commit]:
        """The commits oldest first (only those after ``after``, if the bundle has it), with the files each changed."""
        assert self._dir, "Bundle fuera de su bloque with"
        # --all: the bundle's branch, whatever its name (a bare clone's HEAD may name none)
        revs = ["--all"] if after is None or not self._has(after) else ["--all", f"^{after}"]
        out = _git(["log", "--reverse", "--no-renames", "--format=C %H %ct", "--raw", "--no-abbrev", *revs], self._dir)
        commits: list[Commit] = []
        current: Optional[tuple[str, str]] = None
        changed: list[tuple[str, str]] = []
        for line in out.decode().splitlines():
            if line.startswith("C "):
                if current:
                    commits.append(Commit(current[0], current[1], tuple(changed)))
                _, sha, seconds = line.split()
                current, changed = (sha, _utc(int(seconds))), []
            elif line.startswith(":"):
                meta, path = line.split("\t", 1)
                blob, status = meta.split()[3], meta.split()[4]
                if path.endswith(INDEX) and status != "D":
                    changed.append((path[: -len(INDEX)], blob))
        if current:
            commits.append(Commit(current[0], current[1], tuple(changed)))
        return commits

    def blobs(self, ids: list[str]) -> Iterator[bytes]:
        """The contents of the blobs ``ids``, in that order, from one ``git cat-file --batch``."""
        assert self._dir, "Bundle fuera de su bloque with"
        proc = subprocess.Popen(
            ["git", "cat-file", "--batch"], cwd=self._dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE
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
                    raise SourceError(f"{self.path}: git cat-file no devolvió el objeto {blob}")
                body = proc.stdout.read(int(header[2]))
                proc.stdout.read(1)  # the newline after each object
                yield body
        finally:
            feeder.join()
            proc.stdout.close()
            proc.wait()

    def _has(self, commit: str) -> bool:
        assert self._dir
        found = subprocess.run(["git", "cat-file", "-e", commit + "^{commit}"], cwd=self._dir, capture_output=True)
        return found.returncode == 0


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
