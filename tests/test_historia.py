"""Every version upstream published (construccion/historia.py): a git bundle of upstream's repository and any
folder of the history tree become record versions; ?fecha= answers the version in force at the end of that day,
exactly as published; a changed value of an earlier day is a revision (revisiones, calidad), a same-day update
of the day's own value is not."""

import datetime as dt
import json
import os
import sqlite3
import subprocess

import orjson
import pytest

from argentina_datos.almacen import calidad
from argentina_datos.construccion.constructor import Builder
from argentina_datos.construccion.fuentes import DirectorySource
from argentina_datos.web.servidor import datasette_for

RIESGO = "v1/finanzas/indices/riesgo-pais"
NUEVA = "v1/finanzas/ruta-nueva"  # a route no catalogue entry describes

V1 = [{"fecha": "2024-02-28", "valor": 1000}, {"fecha": "2024-02-29", "valor": 1010}]
V2 = V1 + [{"fecha": "2024-03-01", "valor": 1020}]  # appends the day
V3 = V1 + [{"fecha": "2024-03-01", "valor": 1025}]  # the day's own value, updated the same day
V4 = [{"fecha": "2024-02-28", "valor": 990}, V1[1], V3[2], {"fecha": "2024-03-04", "valor": 1030}]  # a revision
COMMITS = [("2024-03-01T15:00:00Z", V1), ("2024-03-01T20:00:00Z", V2), ("2024-03-01T22:00:00Z", V3)]
LAST = ("2024-03-05T12:00:00Z", V4)


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


def git(repo, *args, when=None):
    env = {**os.environ, "GIT_AUTHOR_NAME": "u", "GIT_AUTHOR_EMAIL": "u@x", "GIT_COMMITTER_NAME": "u"}
    env["GIT_COMMITTER_EMAIL"] = "u@x"
    if when:
        env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"] = when
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def bundle_of(tmp_path, commits, name="upstream.bundle"):
    """A git bundle whose commits write ``RIESGO``'s file, each at its committer time."""
    repo = tmp_path / "repo"
    if not repo.exists():
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
    for when, data in commits:
        write(repo / RIESGO / "index.json", data)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"upstream {when}", when=when)
    out = tmp_path / name
    git(repo, "bundle", "create", str(out), "main")
    return out


@pytest.fixture
def built(tmp_path):
    source = tmp_path / "fuente"
    write(source / RIESGO / "index.json", V3)
    bundle = bundle_of(tmp_path, COMMITS)
    db = tmp_path / "a.db"
    report = Builder(DirectorySource(source), db, bundle=bundle).run()
    return source, bundle, db, report


async def at(db, route, fecha, status=200):
    r = await datasette_for(db).client.get(f"/{route}?publicado={fecha}")
    assert r.status_code == status, r.text
    return orjson.loads(r.content), r.content


def rows(db, sql):
    with sqlite3.connect(db) as con:
        return con.execute(sql).fetchall()


@pytest.mark.lento
async def test_fecha_answers_the_last_version_published_that_day(built):
    _, _, db, report = built
    assert report.history.versions == 3  # the source's file is the last commit's: one version
    assert (await at(db, RIESGO, "2024-03-01"))[0] == V3  # 22:00 wins over 15:00 and 20:00
    body = (await at(db, RIESGO, "2024-03-04"))[1]
    assert body == orjson.dumps(V3)  # the bytes as published (compact, as this source wrote them), key order included
    error, _ = await at(db, RIESGO, "2024-02-29", 404)
    assert error["parametro"] == "publicado"


@pytest.mark.lento
async def test_a_revision_is_recorded_and_a_same_day_update_is_not(built, tmp_path):
    source, _, db, _ = built
    assert rows(db, "SELECT * FROM revisiones") == []  # 1020 -> 1025 on its own day is no revision
    write(source / RIESGO / "index.json", V4)
    report = Builder(DirectorySource(source), db, bundle=bundle_of(tmp_path, [LAST], "b2.bundle")).run()
    assert report.history.versions == 1 and report.history.carried == 3
    assert rows(db, "SELECT ruta, serie, fecha, campo, antes, despues, publicado, revisado FROM revisiones") == [
        ("/" + RIESGO, None, "2024-02-28", "valor", "1000", "990", "2024-03-01", "2024-03-05")
    ]
    found = rows(db, f"SELECT tabla, fecha, valor FROM calidad WHERE control = '{calidad.REVISED}'")
    assert found == [("riesgo_pais", "2024-02-28", '{"antes":1000,"despues":990}')]
    assert (await at(db, RIESGO, "2024-03-04"))[0] == V3
    assert (await at(db, RIESGO, "2024-03-05"))[0] == V4
    assert rows(db, f"SELECT agregados, quitados, cambiados FROM cambios WHERE tabla = '/{RIESGO}' ORDER BY id") == [
        (2, 0, 0),
        (1, 0, 0),
        (0, 0, 1),
        (1, 0, 1),
    ]


def test_a_rebuild_does_not_read_the_bundle_again(built):
    source, bundle, db, _ = built
    report = Builder(DirectorySource(source), db, bundle=bundle).run(force=True)
    assert not report.history.bundle_read and report.history.versions == 0 and report.history.carried == 3


@pytest.mark.lento
async def test_a_bundle_given_to_a_database_built_without_it_adds_the_older_versions(tmp_path):
    """A database whose past of a route began after the bundle's: the bundle given later brings what came before."""
    source, history = tmp_path / "fuente", tmp_path / "historia"
    write(source / RIESGO / "index.json", V4)
    write(history / RIESGO / "2024-03-06.json", V4)
    db = tmp_path / "a.db"
    Builder(DirectorySource(source, history), db).run()
    assert rows(db, f"SELECT origen FROM versiones WHERE ruta = '/{RIESGO}'") == [("archivo de versiones",)]
    report = Builder(DirectorySource(source, history), db, bundle=bundle_of(tmp_path, COMMITS)).run()
    assert report.history.bundle_read
    origins = rows(db, f"SELECT origen FROM versiones WHERE ruta = '/{RIESGO}' ORDER BY publicado")
    assert origins == [("paquete de versiones",)] * 3 + [("archivo de versiones",)]
    assert (await at(db, RIESGO, "2024-03-01"))[0] == V3
    assert (await at(db, RIESGO, "2024-03-06"))[0] == V4
    assert len(rows(db, "SELECT * FROM revisiones")) == 1  # 2024-02-28: 1000 -> 990


@pytest.mark.lento
async def test_any_folder_of_the_history_tree_is_a_route_s_past(tmp_path):
    """No catalogue entry declares this route nor its history: its folder is enough."""
    source, history = tmp_path / "fuente", tmp_path / "historia"
    old = {"actualizado": "2024-05-01", "items": [{"id": 1, "nombre": "a"}]}
    new = {"actualizado": "2024-05-02", "items": [{"id": 1, "nombre": "a"}, {"id": 2, "nombre": "b"}]}
    write(history / NUEVA / "2024-05-01.json", old)
    write(history / NUEVA / "2024-05-02.json", new)
    write(source / NUEVA / "index.json", new)
    write(source / RIESGO / "index.json", V1)  # a source of one catalogued dataset at least
    db = tmp_path / "a.db"
    Builder(DirectorySource(source, history), db).run()
    assert (await at(db, NUEVA, "2024-05-01"))[0] == old
    assert (await at(db, NUEVA, dt.date.today().isoformat()))[0] == new  # a later day (not a future one: a 400)
    await at(db, NUEVA, "2024-04-30", 404)
    assert rows(db, f"SELECT fecha, agregados FROM cambios WHERE tabla = '/{NUEVA}' ORDER BY id") == [
        ("2024-05-01", 1),
        ("2024-05-02", 1),
    ]


# ---- the real bundle -----------------------------------------------------------------------------------
@pytest.mark.mirror
def test_every_route_of_the_bundle_answers_each_sampled_day_as_published(conn, tmp_path):
    from paths import BUNDLE

    from argentina_datos.respuestas.consulta import parse
    from argentina_datos.respuestas.responder import Responder

    if not BUNDLE.is_file():
        pytest.skip(f"sin paquete de versiones en {BUNDLE}")
    repo = tmp_path / "versiones.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(BUNDLE), str(repo)], check=True)
    log = subprocess.run(
        ["git", "log", "--all", "--reverse", "--format=C %H %ct", "--name-only"],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    last_of_day: dict[tuple[str, str], str] = {}  # (route, UTC day) -> last commit that day
    commit = day = None
    for line in log.splitlines():
        if line.startswith("C "):
            _, commit, seconds = line.split()
            day = dt.datetime.fromtimestamp(int(seconds), dt.timezone.utc).date().isoformat()  # committer day, UTC
        elif line.endswith("/index.json"):
            last_of_day[line.removesuffix("/index.json"), day] = commit
    routes = sorted({r for r, _ in last_of_day})
    assert len(routes) == 20
    responder, checked, newline_apart = Responder(), 0, []
    for route in routes:
        days = sorted(d for r, d in last_of_day if r == route)
        for d in days[:: max(1, len(days) // 6)]:
            blob = subprocess.run(
                ["git", "show", f"{last_of_day[route, d]}:{route}/index.json"],
                cwd=repo,
                capture_output=True,
                check=True,
            ).stdout
            answer = responder.answer(conn, f"/{route}", parse(f"publicado={d}"))
            assert answer.status == 200, (route, d, answer.message)
            body = answer.json()
            if body != blob:  # the same content stored first from another origin (the history tree), with a newline
                assert body.removesuffix(b"\n") == blob.removesuffix(b"\n"), (route, d)
                newline_apart.append((route, d))
            checked += 1
    assert checked > 100
    # that day's file byte for byte (its indentation or compactness, number text, ending), but for the final newline
    # of a few whose content a day's file of the history tree had given first
    assert len(newline_apart) <= checked // 20, newline_apart
    # a known revision (the wholesale dollar's venta of 2024-10-23 published as 1, corrected on 2024-11-01)...
    known = conn.execute(
        "SELECT antes, despues, publicado, revisado FROM revisiones WHERE ruta = '/v1/cotizaciones/dolares/mayorista' "
        "AND fecha = '2024-10-23' AND campo = 'venta'"
    ).fetchall()
    assert known == [("1", "985.5", "2024-10-23", "2024-11-01")]
    assert conn.execute("SELECT count(*) FROM revisiones WHERE ruta = '/v1/finanzas/indices/riesgo-pais'").fetchone()[0]
    # ... and no same-day update among them (the blue dollar's own day is updated within the day, every day)
    assert conn.execute("SELECT count(*) FROM revisiones WHERE fecha >= revisado").fetchone()[0] == 0
    assert (
        conn.execute("SELECT count(*) FROM revisiones WHERE ruta = '/v1/cotizaciones/dolares/blue'").fetchone()[0] == 0
    )


@pytest.mark.mirror
def test_the_history_table_of_the_docs_comes_from_the_built_database(conn):
    """docs/construir.md carries a snapshot of the table (python -m argentina_datos.documentacion.rutas_con_historia): each
    route it names has a history in the database built from the mirror.
    The mirror grows: the counts may have grown since, the routes stay."""
    from paths import REPO

    from argentina_datos.documentacion import rutas_con_historia as doc

    page = (REPO / doc.PAGE).read_text()
    start, end = doc.MARKERS
    snapshot = page[page.index(start) + len(start) : page.index(end)]
    named = {line.split("`")[1] for line in snapshot.splitlines() if line.startswith("| `")}
    built = {ruta for ruta, *_ in doc.routes_with_history(conn)}
    assert len(named) > 20 and named <= built
    assert doc.markdown_table(conn).count("\n") == len(built) + 2
    # the last version of a route read today is dated by the build: the page says so instead of a date
    assert "el de la construcción" in snapshot


@pytest.mark.mirror
async def test_recent_revisions_are_a_canned_query_and_an_atom_feed(ds):
    page = await ds.client.get("/argentina/revisiones_recientes.json?_shape=array")
    assert page.status_code == 200 and page.json() and {"ruta", "antes", "despues"} <= page.json()[0].keys()
    feed = await ds.client.get("/argentina/revisiones_recientes.atom")
    assert feed.status_code == 200 and "<feed" in feed.text and "<entry>" in feed.text


def test_a_bundle_git_cannot_read_stops_the_build_naming_it_or_is_skipped_with_keep_going(tmp_path):
    from argentina_datos.construccion.cargador import BuildError

    source = tmp_path / "fuente"
    write(source / RIESGO / "index.json", V1)
    broken = tmp_path / "roto.bundle"
    broken.write_bytes(b"not a bundle")
    db = tmp_path / "a.db"
    with pytest.raises(BuildError, match="roto.bundle"):
        Builder(DirectorySource(source), db, bundle=broken).run()
    assert not db.exists()
    report = Builder(DirectorySource(source), db, bundle=broken, keep_going=True).run()
    assert db.exists() and not report.history.bundle_read
