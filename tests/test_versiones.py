"""History that accumulates: each build keeps every version the previous build had, adds the one the
source publishes now (dated by its own update date, else the build's day), and /v1 answers the
version in force on any date with ?fecha=.  The *_historico tables and the cambios rows are derived
from the versions store (construccion/historia.py)."""

import datetime as dt
import json
import sqlite3

import orjson
import pytest

from argentina_datos.construccion.constructor import Builder
from argentina_datos.construccion.fuentes import DirectorySource
from argentina_datos.web.servidor import datasette_for

PF = "v1/finanzas/tasas/plazoFijo"
REMESAS = "v1/finanzas/remesas"


def bank(name, tna):
    return {"entidad": name, "logo": None, "tnaClientes": tna, "tnaNoClientes": None}


X = [bank("A", 0.3)]
Y = [bank("A", 0.3), bank("B", 0.25)]
CURRENT_1 = [bank("A", 0.31), bank("B", 0.25)]
CURRENT_2 = [bank("B", 0.2), bank("C", 0.4)]
DAY_1, DAY_2 = dt.date(2026, 3, 10), dt.date(2026, 3, 12)


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


@pytest.fixture
def fuentes(tmp_path):
    source, history = tmp_path / "fuente", tmp_path / "versiones"
    write(source / PF / "index.json", CURRENT_1)
    write(history / PF / "2024-01-01.json", X)
    write(history / PF / "2024-02-01.json", Y)
    return source, history, tmp_path / "argentina.db"


def versions(db, table="plazo_fijo_historico"):
    with sqlite3.connect(db) as con:
        return [r[0] for r in con.execute(f'SELECT DISTINCT fecha FROM "{table}" ORDER BY fecha')]


def cambios(db):
    with sqlite3.connect(db) as con:
        return con.execute(
            "SELECT fecha, anterior, agregados, quitados, cambiados, clave FROM cambios "
            f"WHERE tabla = '/{PF}' ORDER BY fecha"
        ).fetchall()


async def at(db, route, fecha=None, status=200):
    ds = datasette_for(db)
    r = await ds.client.get(f"/{route}" + (f"?publicado={fecha}" if fecha else ""))
    assert r.status_code == status, r.text
    return orjson.loads(r.content)


@pytest.mark.lento
async def test_versions_accumulate_from_build_to_build(fuentes):
    source, history, db = fuentes
    Builder(DirectorySource(source, history), db, today=DAY_1).run()
    assert versions(db) == ["2024-01-01", "2024-02-01", "2026-03-10"]

    # the next day: a new file, and a source without the history tree (the HTTP case)
    write(source / PF / "index.json", CURRENT_2)
    Builder(DirectorySource(source), db, today=DAY_2).run()
    assert versions(db) == ["2024-01-01", "2024-02-01", "2026-03-10", "2026-03-12"]
    assert cambios(db) == [
        ("2024-01-01", None, 1, 0, 0, "fecha y nombre"),
        ("2024-02-01", "2024-01-01", 1, 0, 0, "fecha y nombre"),
        ("2026-03-10", "2024-02-01", 0, 0, 1, "fecha y nombre"),
        ("2026-03-12", "2026-03-10", 1, 1, 1, "fecha y nombre"),
    ]

    assert await at(db, PF) == CURRENT_2  # without ?publicado=: what upstream publishes
    assert await at(db, PF, "2024-01-15") == X
    assert await at(db, PF, "2024-02-01") == Y
    assert await at(db, PF, "2026-03-11") == CURRENT_1
    assert await at(db, PF, dt.date.today().isoformat()) == CURRENT_2  # today: a future day is a 400
    error = await at(db, PF, "2023-12-31", 404)
    assert error["parametro"] == "publicado"
    assert (await at(db, PF, "2024-13-01", 400))["parametro"] == "publicado"


async def test_an_unchanged_file_adds_no_version_and_the_build_is_up_to_date(fuentes):
    source, history, db = fuentes
    Builder(DirectorySource(source, history), db, today=DAY_1).run()
    report = Builder(DirectorySource(source, history), db, today=DAY_2).run()
    assert report.unchanged
    report = Builder(DirectorySource(source, history), db, today=DAY_2).run(force=True)
    assert versions(db) == ["2024-01-01", "2024-02-01", "2026-03-10"]


async def test_a_version_is_dated_by_the_file_s_own_update_date(tmp_path):
    source = tmp_path / "fuente"
    remesas = {"fechaActualizacion": "2026-03-01T10:00:00.000Z", "remesas": []}
    write(source / REMESAS / "index.json", remesas)
    db = tmp_path / "a.db"
    Builder(DirectorySource(source), db, today=DAY_2).run()
    assert versions(db, "remesas_historico") == []  # an empty list: the version has no rows...
    with sqlite3.connect(db) as con:
        rutas = [r[0] for r in con.execute("SELECT ruta FROM fuentes WHERE tabla = 'remesas_historico'")]
    assert rutas == [f"/{REMESAS}/2026-03-01"]  # ...but is stored, with its envelope
    assert await at(db, REMESAS, "2026-03-05") == remesas


async def test_publicado_is_a_400_where_there_are_no_versions_and_fecha_a_day_of_the_records(fuentes):
    source, history, db = fuentes
    days = [{"fecha": "2016-03-31", "valor": 14.05}, {"fecha": "2016-04-01", "valor": 14.06}]
    write(source / "v1/finanzas/indices/uva" / "index.json", days)
    Builder(DirectorySource(source, history), db, today=DAY_1).run()
    assert (await at(db, "v1/finanzas/indices/uva", "2016-03-31", 400))["parametro"] == "publicado"
    client = datasette_for(db).client
    for fecha in ("2016/03/31", "2016-03-31"):
        assert (await client.get(f"/v1/finanzas/indices/uva?fecha={fecha}")).json() == days[:1]
    assert (await client.get("/v1/finanzas/indices/uva?fecha=2016-04")).json() == days[1:]
    assert (await client.get("/v1/finanzas/indices/uva?fecha=2016")).json() == days
    for bad in ("2016-3-31", "hoy", "2016-02-30"):
        r = await client.get(f"/v1/finanzas/indices/uva?fecha={bad}")
        assert r.status_code == 400 and r.json()["parametro"] == "fecha", bad


UVA = "v1/finanzas/tasas/plazoFijoUvaPagoPeriodico"
UVA_TABLES = ("plazo_fijo_uva_pago_periodico_historico", "plazo_fijo_uva_pago_periodico_historico_tasas")


def uva_bank(tna):
    tasas = [{"nombre": "PF UVA", "plazoMinDias": 90, "plazoMaxDias": 119, "tna": tna, "tea": 0.0025}]
    return {"id": "bna", "entidad": "Banco", "logo": None, "tasas": tasas}


@pytest.mark.lento
async def test_the_historico_tables_are_derived_from_the_versions_store(tmp_path):
    # A build never reads the previous build's *_historico rows: emptied, child table included, the next
    # build derives them again, one version a day, from what versiones_registros carried.
    source, db = tmp_path / "fuente", tmp_path / "argentina.db"
    write(source / UVA / "index.json", [uva_bank(1)])
    Builder(DirectorySource(source), db, today=DAY_1).run()
    with sqlite3.connect(db) as con:
        for table in UVA_TABLES:
            con.execute(f'DELETE FROM "{table}"')
    con.close()
    write(source / UVA / "index.json", [uva_bank(0.5)])
    Builder(DirectorySource(source), db, today=DAY_2).run()
    assert versions(db, UVA_TABLES[0]) == ["2026-03-10", "2026-03-12"]
    with sqlite3.connect(db) as con:
        assert con.execute(f'SELECT count(*) FROM "{UVA_TABLES[1]}"').fetchone()[0] == 2
    con.close()
    assert orjson.dumps(await at(db, UVA, "2026-03-11")) == orjson.dumps([uva_bank(1)])
    assert await at(db, UVA) == [uva_bank(0.5)]


async def test_a_directory_file_is_dated_when_the_build_read_it_and_rewritten_versions_are_not_new(fuentes):
    source, history, db = fuentes
    today = dt.datetime.now(dt.timezone.utc).date()
    before = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    report = Builder(DirectorySource(source), db, today=today).run()
    after = dt.datetime.now(dt.timezone.utc)
    with sqlite3.connect(db) as con:
        (publicado,) = con.execute("SELECT publicado FROM versiones WHERE ruta = ?", [f"/{PF}"]).fetchone()
    # not 23:59:59 of the day, later than the build itself: the moment it was read
    assert before <= dt.datetime.fromisoformat(publicado.replace("Z", "+00:00")) <= after, publicado
    assert (report.history.versions, report.history.rewritten) == (1, 0)

    # The history tree arrives with two older versions: the route is stored again whole, and the log counts the
    # two as new and the one stored before as rewritten, not three new.
    report = Builder(DirectorySource(source, history), db, today=today).run(force=True)
    assert (report.history.versions, report.history.rewritten, report.history.carried) == (2, 1, 0)
    assert versions(db) == ["2024-01-01", "2024-02-01", today.isoformat()]


def test_a_database_without_versions_says_so_where_publicado_is_refused(tmp_path):
    """The first start (scripts/serve.sh) serves a build without the bundle of versions while another adds them
    behind: a ``publicado`` refused then says that this database was built without them and that they are coming, not
    only that the route has none (the test database, built with the bundle, answers without the note: its exact
    messages are tested elsewhere)."""
    from ayudas import small_database

    from argentina_datos.respuestas.consulta import parse
    from argentina_datos.respuestas.responder import NO_VERSIONS, Responder

    conn = sqlite3.connect(small_database(tmp_path))
    responder = Responder()
    for query in ("publicado=todas", "publicado=2025-01-02", "publicado=primera&desde=2025-01-01"):
        answer = responder.answer(conn, "/v1/cotizaciones/dolares", parse(query))
        assert answer.status == 400 and answer.param == "publicado", query
        assert answer.message.endswith(NO_VERSIONS) and "versiones guardadas" in answer.message[: -len(NO_VERSIONS)]
    assert responder.answer(conn, "/v1/cotizaciones/dolares", parse("desde=2030-01-01")).message == ""
    other = responder.answer(conn, "/v1/cotizaciones/dolares/1990/01/02")  # a refusal that is not about versions
    assert other.status == 404 and other.param == "fecha" and NO_VERSIONS not in other.message
