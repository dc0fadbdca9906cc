"""A git repository as the source (construccion/repositorio.py): repositories the tests make with git,
in upstream's layout (datos/v1/<route>/index.json, or v1/ at the root, or a bundle)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sqlite3
import subprocess
from pathlib import Path

import orjson
import pytest
from ayudas import DOLARES_DIAS, UVA_DIAS, answer
from paths import REPO, UPSTREAM
from servidor_nginx import mirror_differences, nginx_serving
from test_conformance import MIRROR_FILES

from argentina_datos.construccion import cli
from argentina_datos.construccion.fuentes import PreviousBuild, SourceError
from argentina_datos.construccion.repositorio import GitSource, is_git, remote_of
from argentina_datos.respuestas.responder import Responder
from argentina_datos.web.v1.api import V1

DOLARES = "v1/cotizaciones/dolares"
DIA = "v1/cotizaciones/dolares/2025/01/03"
UVA = "v1/finanzas/indices/uva"
FILES = {
    DOLARES: DOLARES_DIAS[:2],
    UVA: UVA_DIAS,
    "v1/feriados/2025": [{"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}],
}
GIT_ENV = {
    "GIT_AUTHOR_NAME": "prueba",
    "GIT_AUTHOR_EMAIL": "prueba@example.com",
    "GIT_COMMITTER_NAME": "prueba",
    "GIT_COMMITTER_EMAIL": "prueba@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


def git(repo: Path, *args: str, stdin: str | None = None, env: dict | None = None) -> str:
    """git in ``repo`` as the test user, with ``env`` added (GIT_DIR...); its output, stripped."""
    done = subprocess.run(
        ["git", *args],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
        input=stdin,
        env={**os.environ, **GIT_ENV, **(env or {})},
    )
    return done.stdout.strip()


def commit(repo: Path, files: dict, message: str, prefix: str = "datos/") -> str:
    """Writes ``files`` (route -> JSON, or bytes as they are) under ``prefix`` and commits them; the commit."""
    if not (repo / ".git").is_dir():
        repo.mkdir(parents=True, exist_ok=True)
        git(repo, "init", "--quiet", "--initial-branch=main")
    for route, content in files.items():
        path = repo / f"{prefix}{route}" / "index.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else json.dumps(content, ensure_ascii=False).encode())
    git(repo, "add", "-A")
    git(repo, "commit", "--quiet", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def build(out: Path, source: str, cache: Path, *extra: str) -> str:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = cli.main(["--source", source, "--output", str(out), "--git-cache", str(cache), *extra])
    # 3: replaced, with files skipped (and listed); 0: everything read
    assert code == (3 if "Omitidos por error" in err.getvalue() else 0), err.getvalue()
    return err.getvalue()


def answers(db: Path, route: str):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        return answer(V1(), conn, "/" + route)


@pytest.fixture
def upstream(tmp_path) -> Path:
    repo = tmp_path / "upstream"
    commit(repo, FILES, "primer día")
    return repo


# Paths of upstream's current OpenAPI that no file of the mirror holds yet (issue 44)
NEWER_ROUTES = ("v1/diputados/misiones", "v1/diputados/misiones/2024", "v1/finanzas/fci/mercado/historico")


def test_a_file_under_a_route_the_catalogue_does_not_know_is_served_as_published(upstream, tmp_path):
    out, cache = tmp_path / "a.db", tmp_path / "cache"
    published = {
        route: f'[\n  {{"fecha": "2024-0{n + 1}-01", "valor": {n}.50, "ñ": "sí"}}\n]\n'.encode()
        for n, route in enumerate(NEWER_ROUTES)
    }
    commit(upstream, published, "rutas nuevas")
    build(out, f"git+file://{upstream}", cache)
    with sqlite3.connect(f"file:{out}?mode=ro", uri=True) as conn:
        for route, body in published.items():
            assert Responder().answer(conn, "/" + route).json() == body, route  # byte for byte
    # the next commit changes one: the next build serves the new bytes
    changed = b'{"n": 1}'
    commit(upstream, {NEWER_ROUTES[0]: changed}, "cambió")
    build(out, f"git+file://{upstream}", cache)
    with sqlite3.connect(f"file:{out}?mode=ro", uri=True) as conn:
        assert Responder().answer(conn, "/" + NEWER_ROUTES[0]).json() == changed


def test_a_git_source_is_named_like_pip_or_by_a_bundle(tmp_path):
    bundle = tmp_path / "x.bundle"
    bundle.write_bytes(b"")
    assert is_git("git+https://github.com/enzonotario/esjs-argentina-datos-api")
    assert is_git("git+file:///srv/upstream") and is_git(str(bundle))
    assert not is_git("https://api.argentinadatos.com") and not is_git(str(tmp_path))
    assert remote_of("git+https://example.com/x.git") == "https://example.com/x.git"
    assert remote_of(f"git+file://{bundle}") == str(bundle)


def test_build_then_update_from_a_repository(upstream, tmp_path):
    out, cache = tmp_path / "a.db", tmp_path / "cache"
    (upstream / "extraccion").mkdir()
    (upstream / "extraccion" / "dolares.ts").write_text("// upstream's code: never checked out")
    git(upstream, "add", "-A")
    git(upstream, "commit", "--quiet", "-m", "código")
    first = git(upstream, "rev-parse", "HEAD")
    err = build(out, f"git+file://{upstream}", cache)
    assert f"git: commit {first[:12]}" in err, err
    assert PreviousBuild(out).facts["commit"] == first
    # sparse: only the data folders are written
    assert list(cache.glob("*/datos/v1/feriados/2025/index.json")) and not list(cache.glob("*/extraccion"))
    for route, data in FILES.items():
        assert answers(out, route) == (200, data)
    assert answers(out, DIA)[1] != [FILES[DOLARES][0]]  # no such file yet: the day's rows of the series

    # the second day: a record appended, a published value revised, a per-date file added
    day2 = json.loads(json.dumps(FILES))
    day2[DOLARES].append({"casa": "blue", "compra": 1010, "venta": 1030, "fecha": "2025-01-03"})
    day2[UVA][0]["valor"] = 14.5
    day2[DIA] = [{"casa": "blue", "compra": 1010, "venta": 1030, "fecha": "2025-01-03"}]
    second = commit(upstream, {r: day2[r] for r in (DOLARES, UVA, DIA)}, "segundo día")
    err = build(out, f"git+file://{upstream}", cache)
    assert f"git: commit {second[:12]}, 3 archivos cambiados desde {first[:12]}" in err, err
    assert PreviousBuild(out).facts["commit"] == second
    for route in (DOLARES, UVA, DIA, "v1/feriados/2025"):
        assert answers(out, route) == (200, day2[route]), route

    # nothing new: no object fetched, nothing rebuilt
    err = build(out, f"git+file://{upstream}", cache)
    assert "0 archivos cambiados" in err and "0 objetos recibidos" in err and "ya está al día" in err, err


@pytest.mark.lento
def test_a_running_serve_datos_answers_the_day_committed(upstream, tmp_path):
    import time

    from servidor_datos import ServeDatos

    out, cache = tmp_path / "a.db", tmp_path / "cache"
    build(out, f"git+file://{upstream}", cache)
    server = ServeDatos(out)
    day = {"casa": "blue", "compra": 1010, "venta": 1030, "fecha": "2025-01-03"}
    with server:
        assert orjson.loads(server.get("/" + DOLARES)[2]) == FILES[DOLARES]
        commit(upstream, {DOLARES: FILES[DOLARES] + [day]}, "un día del dólar blue")
        build(out, f"git+file://{upstream}", cache)
        deadline = time.monotonic() + 10  # serve-datos looks for a new file at most once a second
        while orjson.loads(server.get("/" + DOLARES)[2])[-1] != day and time.monotonic() < deadline:
            time.sleep(0.2)
        assert orjson.loads(server.get("/" + DOLARES)[2]) == FILES[DOLARES] + [day]


def test_a_commit_that_breaks_a_file_keeps_yesterdays_rows(upstream, tmp_path):
    out, cache = tmp_path / "a.db", tmp_path / "cache"
    build(out, f"git+file://{upstream}", cache)
    commit(upstream, {UVA: b'[{"fecha": "2016-03-31", "val'}, "un archivo cortado")
    err = build(out, f"git+file://{upstream}", cache, "--keep-going")
    assert "no es JSON" in err and "datos/v1/finanzas/indices/uva/index.json" in err, err
    assert answers(out, UVA) == (200, FILES[UVA])
    with sqlite3.connect(out) as conn:
        assert conn.execute("SELECT count(*) FROM uva").fetchone()[0] == 2
        assert conn.execute("SELECT ruta FROM _fallidos").fetchall() == [("/" + UVA,)]
    # an incremental build that re-reads the failed file again (never kept), with yesterday's rows in its place
    commit(upstream, {"v1/feriados/2025": []}, "otro archivo")
    err = build(out, f"git+file://{upstream}", cache, "--keep-going")
    assert "construcción incremental" in err and "se releen 2: feriados, uva" in err, err
    assert answers(out, UVA) == (200, FILES[UVA])
    # without --keep-going the build stops, naming the file, and the database stays as it was
    before = out.read_bytes()
    code = cli.main(["--source", f"git+file://{upstream}", "--output", str(out), "--git-cache", str(cache)])
    assert code == 1 and out.read_bytes() == before


# ---- incremental builds (construccion/incremental.py) ---------------------------------------------------
INFLACION = "v1/finanzas/indices/inflacion"
FERIADOS = "v1/feriados/2025"
ROUTES = [*FILES, DIA, INFLACION, "v1/cotizaciones/dolares/blue", "v1/feriados"]
NOT_COMPARED = {"_construccion", "sqlite_stat1", "sqlite_stat4"}  # when it was built; SQLite's statistics


def contents(db: Path, ignore: frozenset = frozenset({("calidad", "id")})) -> dict:
    """Every table's rows (sorted; without the columns ``ignore``, (table, column), by default calidad's numbering)
    and the schema: what two builds of the same commit must share."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        schema = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_stat%'")
        out: dict = {"": sorted(schema, key=repr)}
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            if name in NOT_COMPARED:
                continue
            columns = [c[1] for c in conn.execute(f'PRAGMA table_info("{name}")') if (name, c[1]) not in ignore]
            select = ", ".join(f'"{c}"' for c in columns)
            out[name] = sorted(conn.execute(f'SELECT {select} FROM "{name}"').fetchall(), key=repr)
    return out


REPEATED = {"casa": "blue", "compra": 1000, "venta": 1020.5, "fecha": "2025-01-03"}  # carried forward on a holiday


@pytest.fixture
def with_inflation(upstream) -> Path:
    # a field the catalogue does not declare: its file as published (the publicados table) is kept with the table, or dropped
    months = [{"fecha": "2024-11-30", "valor": 2.4, "nota": "provisoria"}, {"fecha": "2024-12-31", "valor": 2.7}]
    commit(upstream, {INFLACION: months, DOLARES: FILES[DOLARES] + [REPEATED]}, "ipc")
    return upstream


@pytest.mark.parametrize(
    "change, reread",
    [
        # a record appended, a per-date file added: the datasets of those files re-read, the others kept
        (
            {
                DOLARES: FILES[DOLARES]
                + [REPEATED, {"casa": "blue", "compra": 1010, "venta": 1030, "fecha": "2025-01-06"}],
                DOLARES + "/2025/01/06": [{"casa": "blue", "compra": 1010, "venta": 1030, "fecha": "2025-01-06"}],
            },
            "2: cotizaciones_dolares, cotizaciones_dolares_fecha",
        ),
        # a holiday: the quotes' carried-forward days (a link column) and every series' audit read it
        ({FERIADOS: FILES[FERIADOS] + [{"fecha": "2025-01-03", "tipo": "puente", "nombre": "Puente"}]}, "1: feriados"),
        # the inflation: the ipc derived table reads it
        ({INFLACION: [{"fecha": "2024-11-30", "valor": 2.4}, {"fecha": "2024-12-31", "valor": 2.9}]}, "1: inflacion"),
    ],
    ids=["un-dia-del-dolar", "un-feriado", "la-inflacion"],
)
def test_an_incremental_build_equals_a_full_build_of_the_same_commit(with_inflation, tmp_path, change, reread):
    out, full, cache = tmp_path / "a.db", tmp_path / "completa.db", tmp_path / "cache"
    build(out, f"git+file://{with_inflation}", cache)
    full.write_bytes(out.read_bytes())  # the same previous build: the same versions carried
    commit(with_inflation, change, "un cambio")
    err = build(out, f"git+file://{with_inflation}", cache)
    assert "construcción incremental" in err and "construcción completa" not in err, err
    assert f"se releen {reread}\n" in err, err
    err = build(full, f"git+file://{with_inflation}", cache, "--force")
    assert "construcción completa: --force" in err, err
    for route in ROUTES:
        assert answers(out, route) == answers(full, route), route
    for route, data in change.items():
        assert answers(out, route) == (200, data), route
    if FERIADOS in change:  # the kept quotes' link column read the new holiday
        with sqlite3.connect(out) as conn:
            assert conn.execute(
                "SELECT arrastrado FROM cotizaciones_dolares WHERE fecha = '2025-01-03'"
            ).fetchone() == (1,)
    incremental, whole = contents(out), contents(full)
    assert incremental.keys() == whole.keys()
    for table in whole:
        assert incremental[table] == whole[table], table


def in_order(db: Path, table: str) -> list:
    """``table``'s rows as stored (a WITHOUT ROWID table by its key, any other by its rowid, which a SELECT * leaves
    out): what an extended build must write as a full build does, in its order."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        try:
            return conn.execute(f'SELECT rowid, * FROM "{table}" ORDER BY rowid').fetchall()
        except sqlite3.OperationalError:  # no rowid
            return conn.execute(f'SELECT * FROM "{table}"').fetchall()


def day_file(day: str, *houses: str, **extra) -> list:
    return [{"casa": h, "compra": 1000 + n, "venta": 1020 + n, "fecha": day, **extra} for n, h in enumerate(houses)]


# A per-date dataset's files before the change; one record has a field the catalogue does not declare (a finding
# found when its file is loaded, which an extended build keeps).
DAYS = {
    DOLARES + "/2025/01/02": day_file("2025-01-02", "blue", "oficial"),
    DOLARES + "/2025/01/03": day_file("2025-01-03", "blue", nota="feriado"),
}
NEW_DAY = {DOLARES + "/2025/01/06": day_file("2025-01-06", "blue", "oficial", "tarjeta")}


@pytest.mark.parametrize(
    "change, said",
    [
        # the daily case: one day more, after the others
        (NEW_DAY, "se agregan los archivos nuevos de 1, sin releer los anteriores: cotizaciones_dolares_fecha (1 de 3"),
        # a day of it changed: the whole dataset read again
        (
            {**NEW_DAY, DOLARES + "/2025/01/02": day_file("2025-01-02", "oficial")},
            "se releen 1: cotizaciones_dolares_fecha",
        ),
        # a day before the others: a full build reads it first, so the previous files' rows are no longer first
        ({DOLARES + "/2024/12/31": day_file("2024-12-31", "blue")}, "se releen 1: cotizaciones_dolares_fecha"),
    ],
    ids=["un-dia-nuevo", "un-dia-cambiado", "un-dia-anterior"],
)
def test_new_files_of_a_per_date_dataset_are_added_to_its_rows_as_a_full_build_reads_them(
    upstream, tmp_path, change, said
):
    out, full, cache = tmp_path / "a.db", tmp_path / "completa.db", tmp_path / "cache"
    commit(upstream, DAYS, "dos días")
    build(out, f"git+file://{upstream}", cache)
    full.write_bytes(out.read_bytes())  # the same previous build: the same versions carried
    commit(upstream, change, "un cambio")
    err = build(out, f"git+file://{upstream}", cache)
    assert "construcción incremental" in err and said in err, err
    extended = "se agregan" in said
    assert ("se releen 0: \n" not in err) and (("cotizaciones_dolares_fecha" in err.split("se agregan")[0]) != extended)
    line = next(x for x in err.splitlines() if x.startswith("cotizaciones_dolares_fecha: "))
    assert ("leídos solo los nuevos: 1; los demás, de la construcción anterior" in line) == extended, line
    err = build(full, f"git+file://{upstream}", cache, "--force")
    assert "construcción completa: --force" in err, err
    incremental, whole = contents(out), contents(full)
    assert incremental.keys() == whole.keys()
    for table in whole:
        assert incremental[table] == whole[table], table
    # in the order a full build writes them: the rows and the files read (fuentes' ids); publicados, keyed by its
    # route, is compared above (its rowid is no order: an incremental build rewrites the changed files' rows)
    for table in ["cotizaciones_dolares_fecha", "fuentes"]:
        assert in_order(out, table) == in_order(full, table), table
    with sqlite3.connect(out) as conn:
        assert conn.execute(
            "SELECT count(*) FROM calidad WHERE tabla = 'cotizaciones_dolares_fecha' AND control = 'campo no declarado'"
        ).fetchone() == (1,)
    for route in [*DAYS, *change, DOLARES]:
        assert answers(out, route) == answers(full, route), route


def test_only_a_per_date_dataset_of_one_plain_table_is_extended():
    from argentina_datos.catalogo import BY_TABLE
    from argentina_datos.construccion.incremental import extendable

    assert extendable(BY_TABLE["cotizaciones_dolares_fecha"]) and extendable(BY_TABLE["cotizaciones_dolares_casa"])
    assert not extendable(BY_TABLE["cotizaciones_dolares"])  # one file, no partitions: read again whole
    assert not extendable(BY_TABLE["fci_valores"])  # lookup ids numbered across its files
    assert not extendable(BY_TABLE["senado_actas"])  # child rows, a full-text index, link columns


def test_a_change_the_ipc_reads_computes_it_again_and_others_keep_it(with_inflation, tmp_path):
    out, cache = tmp_path / "a.db", tmp_path / "cache"
    build(out, f"git+file://{with_inflation}", cache)
    commit(with_inflation, {UVA: FILES[UVA][:1]}, "uva")
    err = build(out, f"git+file://{with_inflation}", cache)
    assert "se releen 1: uva" in err and "ipc:" not in err, err  # ipc reads no uva: kept
    months = [{"fecha": "2024-11-30", "valor": 2.4}, {"fecha": "2024-12-31", "valor": 2.7}]
    commit(with_inflation, {INFLACION: months + [{"fecha": "2025-01-31", "valor": 2.2}]}, "un mes más")
    err = build(out, f"git+file://{with_inflation}", cache)
    assert "se releen 1: inflacion" in err and "ipc: 3 filas calculadas" in err, err
    with sqlite3.connect(out) as conn:
        assert conn.execute("SELECT max(mes), count(*) FROM ipc").fetchone() == ("2025-01", 3)


def test_a_database_of_another_schema_is_built_whole_and_says_so(upstream, tmp_path):
    out, cache = tmp_path / "a.db", tmp_path / "cache"
    build(out, f"git+file://{upstream}", cache)
    with sqlite3.connect(out) as conn:  # as another version of the code would have written it
        conn.execute("UPDATE _construccion SET valor = 'otra' WHERE clave = 'esquema'")
    commit(upstream, {UVA: FILES[UVA][:1]}, "uva")
    err = build(out, f"git+file://{upstream}", cache)
    assert "construcción completa: la base anterior es de otra versión del código o de otro esquema" in err, err
    assert answers(out, UVA) == (200, FILES[UVA][:1])
    with sqlite3.connect(out) as conn:  # written whole: the next build may be incremental again
        assert conn.execute("SELECT valor FROM _construccion WHERE clave = 'esquema'").fetchone()[0] != "otra"


def test_a_bundle_with_v1_at_its_root(tmp_path):
    repo = tmp_path / "raiz"
    commit(repo, FILES, "primer día", prefix="")
    bundle = tmp_path / "upstream.bundle"
    git(repo, "bundle", "create", str(bundle), "--all")
    out, cache = tmp_path / "a.db", tmp_path / "cache"
    build(out, str(bundle), cache)
    assert answers(out, UVA) == (200, FILES[UVA])
    # the bundle of the next day, given as a file:// URL: the clone fetches from it
    commit(repo, {UVA: FILES[UVA][:1]}, "segundo día", prefix="")
    git(repo, "bundle", "create", str(bundle), "--all")
    err = build(out, f"git+file://{bundle}", cache)
    assert "1 archivos cambiados" in err, err
    assert answers(out, UVA) == (200, FILES[UVA][:1])


def test_what_is_no_upstream_repository_is_named(tmp_path):
    cache = tmp_path / "cache"
    with pytest.raises(SourceError, match="no existe"):
        GitSource(f"git+file://{tmp_path}/nada", cache=cache)
    other = tmp_path / "otro"
    commit(other, {"v1/x": []}, "otra cosa", prefix="docs/")
    with pytest.raises(SourceError, match="no tiene el formato de upstream"):
        GitSource(f"git+file://{other}", cache=cache)
    empty = tmp_path / "vacio"
    git(tmp_path, "init", "--quiet", str(empty))
    code = cli.main(["--source", f"git+file://{empty}", "--output", str(tmp_path / "a.db"), "--git-cache", str(cache)])
    assert code == 1 and not (tmp_path / "a.db").exists()


# ---- the mirror -----------------------------------------------------------------------------------
def mirror_repository(where: Path, files: list[Path]) -> Path:
    """A bare repository at ``where`` whose one commit holds ``files`` of the mirror, as they are now, under
    datos/v1: they are added from where they are (git's work tree is the mirror, its objects are ours), so
    nothing is copied and nothing is written into ../shared."""
    env = {"GIT_DIR": str(where), "GIT_WORK_TREE": str(UPSTREAM), "GIT_INDEX_FILE": str(where / "index")}
    git(REPO, "init", "--quiet", "--bare", "--initial-branch=main", str(where))

    def plumbing(*args: str, stdin: str | None = None) -> str:
        return git(REPO, *args, stdin=stdin, env=env)

    plumbing("add", "--pathspec-from-file=-", stdin="\n".join(str(f.relative_to(UPSTREAM)) for f in files) + "\n")
    datos = plumbing("write-tree")  # the tree of v1/
    root = plumbing("mktree", stdin=f"040000 tree {datos}\tdatos\n")
    head = plumbing("commit-tree", root, "-m", "el espejo de upstream")
    plumbing("update-ref", "refs/heads/main", head)
    # Packed, as upstream's repository is (a clone then sends the pack as it is); without looking for deltas,
    # which finds next to none between these files: 7 s instead of 34 for the whole mirror (quiet machine).
    plumbing("repack", "-a", "-d", "-q", "--window=0")
    plumbing("prune")
    return where


A_DAY = re.compile(r"/[0-9]{4}/[0-9]{2}/[0-9]{2}/index\.json$")  # v1/.../AAAA/MM/DD/index.json


def mirror_sample() -> list[Path]:
    """Every file of the mirror that is not a day's (the lists, and what a list's ids lead to: 436 today) and one
    in 25 of the days': every route shape a git tree holds, at a size that grows little with each day the mirror
    adds. The whole mirror is the directory build's (test_conformance.py); from git, bench_git.py builds it."""
    days = [p for p in MIRROR_FILES if A_DAY.search(p.as_posix())]
    return sorted(set(MIRROR_FILES) - set(days)) + days[::25]


@pytest.mark.mirror
@pytest.mark.lento
def test_a_build_from_the_mirror_committed_answers_every_route_it_holds(tmp_path):
    files = mirror_sample()
    repo = mirror_repository(tmp_path / "espejo", files)
    out = tmp_path / "git.db"
    err = build(out, f"git+file://{repo}", tmp_path / "cache", "--sin-versiones")
    print("\n".join(line for line in err.splitlines() if line.startswith(("git:", str(out)))))
    assert f"{len(files):,} archivos" in err
    failures = mirror_differences(out, files)
    assert not failures, f"{len(failures)} rutas difieren:\n" + "\n".join(failures[:40])


# ---- the HTTP source, as exact: per-date and per-committee files where upstream publishes them ---------
HCDN = "v1/diputados/comisiones/HCDN00014"
MONEDAS = "v1/cotizaciones"
HTTP_FILES = {
    DOLARES: DOLARES_DIAS,
    # upstream's file of a day is not always the list's cut: this one has one house of two
    "v1/cotizaciones/dolares/2025/01/02": [{"casa": "oficial", "compra": 900, "venta": 940, "fecha": "2025-01-02"}],
    MONEDAS: [{"moneda": "USD", "casa": "oficial", "compra": 1, "venta": 2, "fecha": "2025-01-02"}],
    "v1/cotizaciones/2025/01/02": [
        {"moneda": "USD", "casa": "oficial", "compra": 1, "venta": 2.5, "fecha": "2025-01-02"}
    ],
    "v1/cotizaciones/usd/2025/01/02": {"moneda": "USD", "compra": 1, "venta": 2.25, "fecha": "2025-01-02"},
    HCDN: {"id": "HCDN00014", "nombre": "Comisión de prueba", "integrantes": []},
}


def http_build(url: str, out: Path, today):
    from argentina_datos.construccion.constructor import Builder
    from argentina_datos.construccion.fuentes import HttpSource, PreviousBuild

    previous = PreviousBuild(out) if out.exists() else None
    source = HttpSource(url, today=today, previous=previous, fci_since=today, retries=1)
    Builder(source, out, today=today, previous=previous, keep_going=True).run()
    return source.counts


@pytest.mark.lento
def test_http_asks_for_per_date_and_committee_files_then_only_new_ones(tmp_path, monkeypatch):
    import datetime as dt

    from ayudas import write_file

    root = tmp_path / "espejo"
    for route, data in HTTP_FILES.items():
        write_file(root, route, data)
    out = tmp_path / "http.db"
    with nginx_serving(root) as url:
        counts = http_build(url, out, dt.date(2025, 1, 20))
        for route, data in HTTP_FILES.items():
            assert answers(out, route) == (200, data), route
        # a day upstream publishes no file of: the list's cut, as before
        assert answers(out, "v1/cotizaciones/dolares/2025/01/03") == (200, [HTTP_FILES[DOLARES][2]])
        assert answers(out, "v1/diputados/comisiones/HCDN00015")[0] == 404
        assert counts["nuevos"] >= len(HTTP_FILES)

        # a new day: its file is asked for; the settled days' files are not asked again
        day = {"casa": "blue", "compra": 1020, "venta": 1040, "fecha": "2025-01-21"}
        write_file(root, DOLARES, HTTP_FILES[DOLARES] + [day])
        write_file(root, "v1/cotizaciones/dolares/2025/01/21", [day])
        counts = http_build(url, out, dt.date(2025, 1, 22))
        assert answers(out, "v1/cotizaciones/dolares/2025/01/21") == (200, [day])
        # nothing new: the settled files' bodies (the previous build's answers) are not even made
        from argentina_datos.construccion.fuentes import PreviousBuild

        made = []
        body = PreviousBuild.body
        monkeypatch.setattr(PreviousBuild, "body", lambda self, route: made.append(route) or body(self, route))
        again = http_build(url, out, dt.date(2025, 1, 22))
        assert again["sin cambios (sin pedir)"] >= 3 and again["nuevos"] == 0, again
        assert not [r for r in made if "/2025/01/02" in r], made
    assert answers(out, "v1/cotizaciones/dolares/2025/01/02") == (200, HTTP_FILES["v1/cotizaciones/dolares/2025/01/02"])
    assert counts["nuevos"] == 1 and counts["cambiados"] == 1, counts
    assert counts["sin cambios (sin pedir)"] >= 3, counts  # the three files of 2025-01-02


@pytest.mark.lento
def test_an_incremental_build_over_http_equals_a_full_build(tmp_path):
    import datetime as dt

    from ayudas import write_file

    from argentina_datos.construccion.constructor import Builder
    from argentina_datos.construccion.fuentes import HttpSource, PreviousBuild

    root = tmp_path / "espejo"
    for route, data in HTTP_FILES.items():
        write_file(root, route, data)
    out, full, today = tmp_path / "a.db", tmp_path / "completa.db", dt.date(2025, 1, 22)
    with nginx_serving(root) as url:

        def run(db: Path, force: bool = False):
            previous = PreviousBuild(db) if db.exists() else None
            source = HttpSource(url, today=today, previous=previous, fci_since=today, retries=1)
            return Builder(source, db, today=today, previous=previous, keep_going=True).run(force=force)

        run(out)
        full.write_bytes(out.read_bytes())
        day = {"casa": "blue", "compra": 1020, "venta": 1040, "fecha": "2025-01-21"}
        write_file(root, DOLARES, HTTP_FILES[DOLARES] + [day])
        write_file(root, "v1/cotizaciones/dolares/2025/01/21", [day])
        reuse = run(out).reuse
        assert reuse is not None and "cotizaciones_dolares" in reuse.reread and "cotizaciones" in reuse.kept, reuse
        assert run(full, force=True).reuse is None
    assert answers(out, "v1/cotizaciones/dolares/2025/01/21") == (200, [day])
    # A full build given a 304 notes the size of the file rebuilt from the previous database (its /v1 answer, which
    # may be written more compactly than the source's), the incremental one keeps the size the source served.
    ignore = frozenset({("calidad", "id"), ("fuentes", "bytes")})
    incremental, whole = contents(out, ignore), contents(full, ignore)
    assert incremental.keys() == whole.keys()
    for table in whole:
        assert incremental[table] == whole[table], table


def test_per_date_and_committee_routes_come_from_the_lists():
    from argentina_datos.catalogo.diputados import COMISION_ID
    from argentina_datos.catalogo.parametros import DIA_DOLARES

    class Lists:
        def __init__(self, files):
            self.files = files

        def get_json(self, route):
            return self.files.get(route)

    dolares = [{"fecha": "2025-01-03"}, {"fecha": "2025-01-02"}, {"fecha": "2025-01-03"}, {"fecha": "3 de enero"}, 7]
    assert DIA_DOLARES.http_values(Lists({DOLARES: dolares})) == ["2025/01/02", "2025/01/03"]
    assert DIA_DOLARES.http_values(Lists({DOLARES: {"error": "x"}})) == []
    deputies = [{"id": "HCDN0001", "meta": {"comisiones": [{"id": "HCDN00950"}, {"id": "../x"}]}}, {"meta": None}]
    ids = COMISION_ID.http_values(
        Lists({"v1/diputados/diputados": deputies, "v1/diputados/comisiones": [{"id": "HCDN01200"}]})
    )
    assert {"HCDN00001", "HCDN00014", "HCDN00227", "HCDN00300", "HCDN00950", "HCDN01200"} <= set(ids)
    assert "HCDN00301" not in ids and "../x" not in ids


def test_a_checkout_moved_by_another_build_is_said_not_read(upstream, tmp_path):
    cache = tmp_path / "cache"
    first = GitSource(f"git+file://{upstream}", cache=cache)
    with first.reading():  # nothing moved: the build reads
        assert first.read(UVA) == (first.clone / "datos" / UVA / "index.json").read_bytes()
    commit(upstream, {UVA: [{"fecha": "2016-03-31", "valor": 14.05}]}, "segundo día")
    second = GitSource(f"git+file://{upstream}", cache=cache)  # another build's fetch and checkout
    assert second.commit != first.commit
    with pytest.raises(SourceError, match="otra construcción cambió la copia"):
        with first.reading():
            pass


def test_the_default_source_is_upstreams_repository_when_git_is_installed(monkeypatch):
    for name in ("ARGENTINA_DATOS_SOURCE", "ARGENTINA_DATOS_API"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(cli.shutil, "which", lambda name: "/usr/bin/git" if name == "git" else None)
    assert (
        cli.parse_args([]).source == cli.UPSTREAM_REPOSITORY == "git+https://github.com/enzonotario/argentinadatos.com"
    )
    monkeypatch.setattr(cli.shutil, "which", lambda name: None)
    assert cli.parse_args([]).source == cli.PUBLIC_API
    assert cli.parse_args(["--api", "http://127.0.0.1:9/"]).source == "http://127.0.0.1:9/"
    monkeypatch.setenv("ARGENTINA_DATOS_API", "http://127.0.0.1:8/")
    assert cli.parse_args([]).source == cli.parse_args([]).api == "http://127.0.0.1:8/"


def test_the_help_names_the_successor_repository_as_the_default(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "git+https://github.com/enzonotario/argentinadatos.com" in out and "esjs-argentina-datos-api" not in out
    assert "--fallar-si-atrasada" in out and "--sin-comparar-api" in out


def test_the_repositorys_history_is_a_source_of_versions(upstream, tmp_path, monkeypatch):
    """A git source's commits are versions of the files upstream overwrote: on a first build since
    --historia-desde, on each later one since the build before; ?fecha= answers each, revisiones names the change."""
    from argentina_datos.respuestas.consulta import parse

    out, cache = tmp_path / "a.db", tmp_path / "cache"
    git(upstream, "config", "uploadpack.allowFilter", "true")  # a partial clone: old blobs fetched when read
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2025-01-02T12:00:00Z")
    git(upstream, "commit", "--quiet", "--amend", "-m", "primer día")
    revised = json.loads(json.dumps(FILES[UVA]))
    revised[0]["valor"] = 14.5
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2025-01-03T12:00:00Z")
    commit(upstream, {UVA: revised, DIA: [FILES[DOLARES][0]]}, "segundo día")  # a revision, and a new file
    build(out, f"git+file://{upstream}", cache, "--historia-desde", "2025-01-01")

    def on(day: str, route: str = UVA):
        with sqlite3.connect(f"file:{out}?mode=ro", uri=True) as conn:
            got = Responder().answer(conn, "/" + route, parse(f"publicado={day}"))
            return got.status, orjson.loads(got.json())

    assert on("2025-01-02") == (200, FILES[UVA]) and on("2025-01-03") == (200, revised)
    with sqlite3.connect(out) as conn:
        routes = {r for (r,) in conn.execute("SELECT DISTINCT ruta FROM versiones")}
        assert "/" + UVA in routes and "/" + DIA not in routes  # a file only added has no past
        assert conn.execute("SELECT antes, despues FROM revisiones WHERE ruta = ?", ["/" + UVA]).fetchall() == [
            ("14.05", "14.5")
        ]

    # the next build reads only the commits since the last one: the day before the new one comes from it
    appended = revised + [{"fecha": "2016-04-02", "valor": 14.07}]
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2025-01-04T12:00:00Z")
    commit(upstream, {UVA: appended}, "tercer día")
    build(out, f"git+file://{upstream}", cache)
    assert on("2025-01-02") == (200, FILES[UVA]) and on("2025-01-03") == (200, revised)
    assert on("2025-01-04") == (200, appended)

    # a first build without --historia-desde reads the commit it checks out only
    fresh = tmp_path / "b.db"
    build(fresh, f"git+file://{upstream}", tmp_path / "cache2")
    with sqlite3.connect(fresh) as conn:
        days = [
            d for (d,) in conn.execute("SELECT substr(publicado, 1, 10) FROM versiones WHERE ruta = ?", ["/" + UVA])
        ]
    assert days[0] >= "2025-01-03" and "2025-01-04" in days, days


def test_a_series_whose_files_stop_changing_is_found_stopped_by_an_incremental_build(tmp_path):
    """«serie detenida» counts from the day of the build: a kept series (its files unchanged) is checked again."""
    import datetime as dt

    from ayudas import write_file

    from argentina_datos.construccion.constructor import Builder
    from argentina_datos.construccion.fuentes import DirectorySource

    root, out, full = tmp_path / "espejo", tmp_path / "a.db", tmp_path / "completa.db"
    months = [{"fecha": f"{2023 + i // 12}-{i % 12 + 1:02d}-28", "valor": 2.0 + i / 10} for i in range(24)]
    write_file(root, INFLACION, months)
    write_file(root, UVA, FILES[UVA])
    Builder(DirectorySource(root), out, today=dt.date(2025, 1, 15)).run()
    write_file(root, UVA, FILES[UVA][:1])  # another dataset changes: the inflation is kept
    later = dt.date(2026, 6, 1)
    report = Builder(DirectorySource(root), out, today=later).run()
    assert report.reuse is not None and "inflacion" in report.reuse.kept, report.reuse
    Builder(DirectorySource(root), full, today=later).run(force=True)
    stopped = "SELECT detalle FROM calidad WHERE tabla = 'inflacion' AND control = 'serie detenida'"
    with sqlite3.connect(out) as a, sqlite3.connect(full) as b:
        assert a.execute(stopped).fetchall() == b.execute(stopped).fetchall() != []


def test_an_incremental_build_keeps_the_series_and_findings_of_what_it_keeps(tmp_path):
    """The catalogue's rows and the audit's findings of a kept dataset are the previous build's (marked here to tell
    them apart), with what depends on the day computed again (atrasada, «serie detenida»); those of the dataset
    loaded again are computed anew."""
    import datetime as dt

    from ayudas import write_file

    from argentina_datos.almacen import calidad
    from argentina_datos.construccion.constructor import Builder
    from argentina_datos.construccion.fuentes import DirectorySource

    root, out = tmp_path / "espejo", tmp_path / "a.db"
    months = [{"fecha": f"{2023 + i // 12}-{i % 12 + 1:02d}-28", "valor": 2.0 + i / 10} for i in range(24) if i != 5]
    write_file(root, INFLACION, months)  # a month missing: a «faltan días» finding
    write_file(root, UVA, FILES[UVA])
    Builder(DirectorySource(root), out, today=dt.date(2025, 1, 15)).run()
    mark = "de la construcción anterior"
    with sqlite3.connect(out) as conn:
        conn.execute("UPDATE series SET descripcion = ?, atrasada = 0", [mark])
        conn.execute("UPDATE calidad SET detalle = ?", [mark])
    write_file(root, UVA, FILES[UVA][:1])  # the UVA is loaded again, the inflation kept
    report = Builder(DirectorySource(root), out, today=dt.date(2026, 6, 1)).run()
    assert report.reuse is not None and "inflacion" in report.reuse.kept and "uva" not in report.reuse.kept
    with sqlite3.connect(out) as conn:
        series = dict(conn.execute("SELECT tabla, descripcion = ? AND atrasada FROM series", [mark]))
        found = dict(conn.execute("SELECT tabla || ' ' || control, detalle = ? FROM calidad", [mark]))
    assert series == {"inflacion": 1, "uva": 0}, series  # kept with its lateness on the new day; computed
    assert found[f"inflacion {calidad.GAP}"] == 1 and found[f"inflacion {calidad.STOPPED}"] == 0, found
    assert not any(kept for key, kept in found.items() if key.startswith("uva ")), found


def test_a_past_version_of_another_shape_refuses_what_cuts_a_list(upstream, tmp_path, monkeypatch):
    """?fecha= with desde (or agrupar...) on a day whose version was no list: a 400, not an empty list."""
    from argentina_datos.respuestas.consulta import parse

    out, cache = tmp_path / "a.db", tmp_path / "cache"
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2025-01-02T12:00:00Z")
    commit(upstream, {UVA: {"fecha": "2016-03-31", "valor": 14.05}}, "un objeto")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "2025-01-03T12:00:00Z")
    commit(upstream, {UVA: FILES[UVA]}, "una lista")
    build(out, f"git+file://{upstream}", cache, "--historia-desde", "2025-01-01")
    with sqlite3.connect(f"file:{out}?mode=ro", uri=True) as conn:
        old = Responder().answer(conn, "/" + UVA, parse("publicado=2025-01-02&desde=2016-01-01"))
        new = Responder().answer(conn, "/" + UVA, parse("publicado=2025-01-03&desde=2016-04-01"))
    assert old.status == 400 and "desde" in old.message, (old.status, old.message)
    assert new.status == 200 and orjson.loads(new.json()) == FILES[UVA][1:]


def test_a_repository_shaped_like_the_successor_brings_only_its_data(upstream, tmp_path):
    """enzonotario/argentinadatos.com holds, beside datos/v1, images and logos (datos/static), the site (apps/)
    and its docs: a build clones and fetches the data only (partial and sparse), whatever else the tree weighs."""
    unrelated = {
        "datos/static/logos/banco-1.png": 3_000_000,
        "datos/static/logos/banco-2.png": 3_000_000,
        "apps/web/public/bundle.js": 2_000_000,
        "docs/public/video.mp4": 2_000_000,
    }
    for path, size in unrelated.items():
        (upstream / path).parent.mkdir(parents=True, exist_ok=True)
        (upstream / path).write_bytes(os.urandom(size))  # random: git cannot compress it away
    git(upstream, "add", "-A")
    git(upstream, "commit", "--quiet", "-m", "el sitio y sus imágenes")
    git(upstream, "config", "uploadpack.allowFilter", "true")  # as GitHub serves partial clones
    out, cache = tmp_path / "a.db", tmp_path / "cache"
    err = build(out, f"git+file://{upstream}", cache, "--sin-versiones")
    fetched = re.search(r"([0-9,]+) objetos recibidos, ([0-9.]+) MB", err)
    assert fetched, err
    assert float(fetched.group(2)) < 0.5, err  # 10 MB of the rest of the tree: none of it came
    assert not list(cache.glob("*/datos/static")) and not list(cache.glob("*/apps"))
    assert answers(out, UVA) == (200, UVA_DIAS)

    commit(upstream, {UVA: UVA_DIAS + [{"fecha": "2016-04-02", "valor": 14.07}]}, "un día")
    err = build(out, f"git+file://{upstream}", cache, "--sin-versiones")
    fetched = re.search(r"([0-9,]+) objetos recibidos, ([0-9.]+) MB", err)
    assert fetched and float(fetched.group(2)) < 0.1, err
