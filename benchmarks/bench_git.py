"""Benchmark of the remote sources (a benchmark, not a test: it prints figures, it asserts nothing).

    .venv/bin/python benchmarks/bench_git.py [--port 18140]

For upstream's repository (git) and for nginx serving the same tree (HTTP), three ``build-db`` runs each, as
a user runs them (a child process, wall seconds): the first build, an update with nothing changed, and an
update after a commit that appends a blue-dollar day (the blue list, the all-houses list and that day's
file).  Each prints what it cost (git: objects and MB fetched; HTTP: requests and MB).  The repository is the
whole mirror committed under ``datos/v1`` (tests/test_repositorio.py, made anew each run), shaped like upstream's
(enzonotario/argentinadatos.com) with ``--ajenos-mb`` of files that are not data beside it (images in
``datos/static``, the site in ``apps/``: random bytes, which git cannot compress), which a build must not fetch; the day is
committed to a copy of it, and nginx serves the checkout of the git source, so both see the same files.
Then a ``serve-datos`` started on the git build before the new day is asked for it.  The one-day updates are
incremental builds (construccion/incremental.py): the benchmark prints what they kept and re-read, and what
their start costs (a file copy of the database, against SQLite's backup API).

Targets (2-core machine, quiet): no change <= 1 s from git (issue 52) and <= 10 s over HTTP; one day <= 3 s from
git (issue 52) and <= 15 s over HTTP (issue 32).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the mirror's repository and nginx, shared with the tests

from servidor_nginx import Nginx, find_nginx, mirror_server  # noqa: E402
from test_conformance import MIRROR_FILES  # noqa: E402
from test_repositorio import git, mirror_repository  # noqa: E402

BLUE = "datos/v1/cotizaciones/dolares/blue/index.json"
ALL = "datos/v1/cotizaciones/dolares/index.json"


def build(source: str, out: Path, cache: Path) -> tuple[float, str]:
    """``build-db`` in a child process: wall seconds and its summary lines."""
    cmd = [sys.executable, "-m", "argentina_datos.construccion.comando", "--source", source, "--output", str(out)]
    cmd += ["--git-cache", str(cache), "--sin-versiones", "--keep-going", "--history", str(cache / "ninguna")]
    cmd += ["--sin-comparar-api"]  # the mirror's data is months old: the public API is not to be asked
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"build-db falló:\n{done.stderr[-2000:]}")
    keep = ("git:", "HTTP:", str(out), "construcción ", "cotizaciones_dolares")  # what was kept and re-read
    return seconds, "\n    ".join(line for line in done.stderr.splitlines() if line.startswith(keep))


def commit_a_day(repo: Path, day: dt.date) -> dict:
    """Appends a blue-dollar record for ``day`` to the bare ``repo``'s branch (the blue list, the all-houses list,
    the day's file), with git's plumbing: no checkout.  Returns the record."""
    index = {"GIT_INDEX_FILE": str(repo / "bench-index")}
    git(repo, "read-tree", "main", env=index)
    blue = json.loads(git(repo, "show", f"main:{BLUE}"))
    record = dict(blue[-1], fecha=day.isoformat(), compra=blue[-1]["compra"] + 1, venta=blue[-1]["venta"] + 1)
    everything = json.loads(git(repo, "show", f"main:{ALL}"))
    dated = f"datos/v1/cotizaciones/dolares/{day:%Y/%m/%d}/index.json"
    for path, data in ((BLUE, blue + [record]), (ALL, everything + [record]), (dated, [record])):
        blob = git(repo, "hash-object", "-w", "--stdin", stdin=json.dumps(data, ensure_ascii=False))
        git(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=index)
    tree = git(repo, "write-tree", env=index)
    head = git(repo, "commit-tree", tree, "-p", "main", "-m", f"dólar blue del {day}")
    git(repo, "update-ref", "refs/heads/main", head)
    return record


def add_unrelated(repo: Path, megabytes: int, work: Path) -> None:
    """Commits ``megabytes`` files of 1 MB outside the data to the bare ``repo``'s branch: two thirds images in
    datos/static, a third the site's scripts in apps/."""
    folder = work / "ajenos"
    folder.mkdir()
    paths = []
    for i in range(megabytes):
        path = f"datos/static/logos/logo-{i}.png" if i % 3 else f"apps/web/assets/chunk-{i}.js"
        (folder / f"{i}").write_bytes(os.urandom(1_000_000))
        paths.append(path)
    blobs = git(
        repo, "hash-object", "-w", "--stdin-paths", stdin="\n".join(str(folder / f"{i}") for i in range(megabytes))
    )
    index = {"GIT_INDEX_FILE": str(repo / "bench-index")}
    git(repo, "read-tree", "main", env=index)
    for path, blob in zip(paths, blobs.split()):
        git(repo, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}", env=index)
    tree = git(repo, "write-tree", env=index)
    head = git(repo, "commit-tree", tree, "-p", "main", "-m", "el sitio, sus imágenes y sus documentos")
    git(repo, "update-ref", "refs/heads/main", head)
    git(repo, "repack", "-a", "-d", "-q", "--window=0")
    shutil.rmtree(folder)


def copy_or_backup(db: Path, work: Path) -> None:
    """What an incremental build's start costs (construccion/incremental.py): a file copy of the previous
    database, against SQLite's backup API."""
    start = time.perf_counter()
    shutil.copyfile(db, work / "copia.db")
    copied = time.perf_counter() - start
    start = time.perf_counter()
    with sqlite3.connect(db) as source, sqlite3.connect(work / "respaldo.db") as target:
        source.backup(target)
    backed_up = time.perf_counter() - start
    print(
        f"copia de la base ({db.stat().st_size / 1e6:,.0f} MB): archivo {copied:.2f} s, API de respaldo {backed_up:.2f} s"
    )
    (work / "copia.db").unlink()
    (work / "respaldo.db").unlink()


def serve(db: Path, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "argentina_datos.web.servidor", str(db), "--port", str(port)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(300):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/estado", timeout=2).read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("serve-datos no respondió")


def last_blue(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/cotizaciones/dolares/blue", timeout=30) as r:
        return json.loads(r.read())[-1]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--port", type=int, default=18140, help="nginx on this port, serve-datos on the next one")
    p.add_argument("--ajenos-mb", type=int, default=300, help="MB of files outside the data in the repository")
    args = p.parse_args()
    nginx = find_nginx()
    if nginx is None:
        raise SystemExit("hace falta nginx (scripts/paquetes.sh)")
    print(f"{time.strftime('%Y-%m-%d %H:%M')} UTC, {os.cpu_count()} núcleos, carga {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="bench-git-") as tmp:
        work = Path(tmp)
        start = time.perf_counter()
        mirror = mirror_repository(work / "espejo", MIRROR_FILES)
        print(f"repositorio del espejo: {len(MIRROR_FILES):,} archivos ({time.perf_counter() - start:.1f} s)")
        upstream = work / "upstream.git"
        git(REPO, "clone", "--quiet", "--bare", str(mirror), str(upstream))
        git(upstream, "config", "uploadpack.allowFilter", "true")  # as GitHub serves partial clones
        add_unrelated(upstream, args.ajenos_mb, work)
        size = sum(f.stat().st_size for f in (upstream / "objects").rglob("*") if f.is_file())
        print(f"repositorio con {args.ajenos_mb} MB ajenos a los datos: {size / 1e6:,.0f} MB en su almacén de objetos")
        source, cache = f"git+file://{upstream}", work / "cache"
        git_db, http_db = work / "git.db", work / "http.db"
        figures = {}
        # twice with nothing changed: right after the first build git re-reads the 12,389 files it has just checked
        # out (written in the same second as its index, it cannot trust their times), a day later it does not
        for label in ("primera construcción", "sin cambios", "sin cambios, otra vez"):
            seconds, lines = build(source, git_db, cache)
            figures["git", label] = seconds
            print(f"git, {label}: {seconds:.1f} s\n    {lines}")
        copy_or_backup(git_db, work)
        checkout = next(cache.glob("*/datos"))
        server = Nginx(nginx, lambda port: mirror_server(args.port, checkout))
        server.port, server.server, server.url = (
            args.port,
            mirror_server(args.port, checkout),
            f"http://127.0.0.1:{args.port}",
        )
        web = serve(git_db, args.port + 1)
        try:
            with server as url:
                for label in ("primera construcción", "sin cambios"):
                    seconds, lines = build(url, http_db, cache)
                    figures["HTTP", label] = seconds
                    print(f"HTTP, {label}: {seconds:.1f} s\n    {lines}")
                # a day after the mirror's last, dated yesterday: an update asks for the last days' files
                record = commit_a_day(upstream, dt.date.today() - dt.timedelta(days=1))
                for kind, src, db in (("git", source, git_db), ("HTTP", url, http_db)):
                    seconds, lines = build(src, db, cache)
                    figures[kind, "un día"] = seconds
                    print(f"{kind}, un día: {seconds:.1f} s\n    {lines}")
            time.sleep(1.5)  # serve-datos looks for a new file at most once a second
            print(f"serve-datos, ya en marcha, responde el día nuevo: {last_blue(args.port + 1) == record}")
        finally:
            web.terminate()
            web.wait()
    targets = {"sin cambios": (1, 10), "sin cambios, otra vez": (1, 10), "un día": (3, 15)}
    for (kind, label), seconds in figures.items():
        if label in targets:
            target = targets[label][kind == "HTTP"]
            print(f"{kind:4} {label:22} {seconds:6.1f} s (meta <= {target} s)")
    print(re.sub(r"\s+", " ", f"máquina cargada: carga {os.getloadavg()[0]:.1f} al terminar"))


if __name__ == "__main__":
    main()
