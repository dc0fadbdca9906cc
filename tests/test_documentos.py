"""Files no catalogue dataset describes are kept verbatim and answered as they came."""

import json
import sqlite3

import orjson
import pytest
from ayudas import write_file

from argentina_datos.almacen import publicados
from argentina_datos.construccion import cli
from argentina_datos.web.servidor import datasette_for


async def test_an_unknown_route_is_answered_with_its_file_exactly(tmp_path, capsys):
    fuente = tmp_path / "fuente"
    write_file(fuente, "v1/finanzas/indices/uva", json.dumps([{"fecha": "2016-03-31", "valor": 14.05}]))
    nuevo = '{\n  "estado": "ok",\n  "valores": [1, 1.0, null, "ñ"],\n  "n": 1e-7\n}\n'
    write_file(fuente, "v1/algo/nuevo", nuevo)
    write_file(fuente, "v1/algo/lista", "[]")
    salida = tmp_path / "a.db"
    assert cli.main(["--source", str(fuente), "--output", str(salida)]) == 0
    err = capsys.readouterr().err
    assert "documentos: 2 filas de 2 archivos" in err

    ds = datasette_for(salida)
    r = await ds.client.get("/v1/algo/nuevo")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert r.content == nuevo.encode()  # byte for byte
    assert orjson.loads(r.content) == json.loads(nuevo)
    assert (await ds.client.get("/v1/algo/lista")).json() == []
    assert (await ds.client.get("/v1/algo/otro")).status_code == 404
    with sqlite3.connect(salida) as con:
        assert con.execute("SELECT tabla, registros FROM fuentes WHERE ruta = '/v1/algo/nuevo'").fetchall() == [
            ("documentos", 1)
        ]


def test_an_unknown_file_that_is_not_json_stops_the_build_naming_it(tmp_path, capsys):
    fuente = tmp_path / "fuente"
    write_file(fuente, "v1/finanzas/indices/uva", json.dumps([{"fecha": "2016-03-31", "valor": 14.05}]))
    write_file(fuente, "v1/algo/roto", "<html>")
    code = cli.main(["--source", str(fuente), "--output", str(tmp_path / "a.db")])
    assert code == 1
    assert f"{fuente}/v1/algo/roto/index.json: no es JSON válido" in capsys.readouterr().err
    code = cli.main(["--source", str(fuente), "--output", str(tmp_path / "a.db"), "--keep-going"])
    assert code == 3  # built, without that file


def test_routes_an_endpoint_derives_are_not_documents(conn):
    """A senator's trips or a year of international trips come from the trips' tables (today the
    catalogue describes the whole mirror, and the documents table is empty)."""
    rutas = {r[0] for r in conn.execute("SELECT ruta FROM publicados WHERE tabla = 'documentos'")}
    derived = [
        r
        for r in rutas
        if (r.startswith("/v1/senado/senadores/") and r.endswith("/viajes"))
        or r.startswith(("/v1/senado/viajes/internacionales/", "/v1/senado/viajes/nacionales/"))
    ]
    assert derived == []
    claimed = [r for r in rutas if r.startswith(("/v1/feriados", "/v1/finanzas/fci/mercadoDinero"))]
    assert claimed == []


def test_every_file_of_the_mirror_has_a_catalogue_table(conn):
    """Documents are the safety net for routes upstream adds tomorrow: on the mirror, none."""
    assert conn.execute("SELECT ruta FROM publicados WHERE tabla = 'documentos'").fetchall() == []


def test_a_store_that_fails_is_not_read_as_no_such_file():
    conn = sqlite3.connect(":memory:")
    assert publicados.body(conn, "/v1/x") is None  # a build of part of the catalogue that read no file
    conn.execute(f"CREATE TABLE {publicados.TABLE} (ruta TEXT)")  # there, but it cannot give the file
    with pytest.raises(sqlite3.OperationalError, match="gzip"):
        publicados.body(conn, "/v1/x")


def test_the_store_keeps_the_bytes_and_compresses_them_the_same_way_every_time():
    conn = sqlite3.connect(":memory:")
    body = b'[\n  {\n    "fecha": "2024-01-02",\n    "valor": 1.0\n  }\n]'
    publicados.write(conn, [("/v1/x", "t", body)])
    assert publicados.body(conn, "/v1/x") == body
    assert publicados.stored(conn, "/v1/x") == publicados.compress(body)  # no timestamp in the gzip header
    assert publicados.body(conn, "/v1/y") is None
