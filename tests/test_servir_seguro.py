"""A server that never serves a broken file, never answers a 500 for one, and never lets one query take
its memory (issue 24, items 3 and 4).

- serve-datos refuses, at startup and in one line, a file that is not a complete build: cut short,
  random bytes, text, a directory, empty, a SQLite file of something else;
- the hot switch keeps the good database when the new file is such a file;
- a file that breaks under a running server gets JSON 503s, not 500s;
- `randomblob(1e9)`, a huge `printf` and a query whose rows add up to too many bytes are refused (400)
  at once, and /v1 answers meanwhile."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time

import pytest
from ayudas import UVA_DIAS

from argentina_datos.almacen import archivo
from argentina_datos.construccion import cli
from argentina_datos.web import recarga
from argentina_datos.web.complementos import memoria
from argentina_datos.web.servidor import datasette_for

pytestmark = pytest.mark.lento

UVA = "v1/finanzas/indices/uva"
RECORDS = UVA_DIAS


def build(root, out, records=RECORDS):
    path = root / UVA / "index.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records))
    assert cli.main(["--source", str(root), "--output", str(out), "--force"]) == 0


@pytest.fixture
def good(tmp_path):
    out = tmp_path / "argentina.db"
    build(tmp_path / "fuente", out)
    return out


def broken_files(good, where):
    """Each kind of file the fault probe gave to serve-datos, with what its message must say."""
    where.mkdir()
    data = good.read_bytes()
    files = {
        "cortado": (data[: len(data) // 2], "está cortado"),
        "al azar": (os.urandom(65536), "no es una base SQLite"),
        "texto": ("esto no es una base\n" * 100).encode(),
        "vacío": (b"", "está vacío"),
    }
    files["texto"] = (files["texto"], "no es una base SQLite")
    out = {}
    for name, (content, expected) in files.items():
        path = where / f"{name}.db"
        path.write_bytes(content)
        out[name] = (path, expected)
    directory = where / "directorio.db"
    directory.mkdir()
    out["directorio"] = (directory, "es un directorio")
    other = where / "otra.db"
    with sqlite3.connect(other) as con:
        con.execute("CREATE TABLE t (x)")
    out["otra base"] = (other, "no es una base de argentina-datos")
    return out


def test_the_check_tells_each_broken_file_from_a_build(good, tmp_path):
    assert archivo.problem(good) is None
    for name, (path, expected) in broken_files(good, tmp_path / "malos").items():
        found = archivo.problem(path)
        assert found is not None and expected in found, (name, found)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_serve_datos_refuses_a_broken_file_in_one_line(good, tmp_path, server):
    for name, (path, expected) in broken_files(good, tmp_path / "malos").items():
        start = time.monotonic()
        run = subprocess.run(
            [sys.executable, "-m", "argentina_datos.web.servidor", str(path), "--port", str(free_port())]
            + ["--server", server],
            capture_output=True,
            text=True,
            timeout=60,
        )
        lines = run.stderr.strip().splitlines()
        assert run.returncode == 1, (name, run.stderr)
        assert lines == [f"error: {path}: {archivo.problem(path)}"], (name, lines)
        assert expected in lines[0] and time.monotonic() - start < 30


async def test_the_hot_switch_keeps_the_good_database_when_the_new_file_is_broken(good, tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(recarga, "CHECK_EVERY", 0.0)
    ds = datasette_for(good)
    await ds.invoke_startup()  # as a server does before its first request (lifespan)
    assert (await ds.client.get("/" + UVA)).json() == RECORDS
    for name, (path, _) in broken_files(good, tmp_path / "malos").items():
        if path.is_dir():
            continue
        replacement = tmp_path / "nueva.db"
        shutil.copyfile(path, replacement)
        os.replace(replacement, good)  # as build-db does: a new file renamed over the served one
        database = ds.databases["argentina"]
        r = await ds.client.get(f"/{UVA}?desde=2016-04-01")  # an answer not cached yet
        assert r.status_code == 200 and r.json() == RECORDS[1:], name
        assert ds.databases["argentina"] is database, name  # no switch
        assert any("no se cambia a la base nueva" in m for m in caplog.messages), name
        # Datasette's pages too, from every one of its SQL threads (each opened its connection at
        # startup, while the path named the good file: lazily it would open the broken one)
        sql = "/argentina.json?_shape=array&sql=select+fecha,+valor+from+uva+order+by+fecha"
        pages = await asyncio.gather(*(ds.client.get(sql) for _ in range(6)))
        assert [p.status_code for p in pages] == [200] * 6, name
        assert all(p.json() == RECORDS for p in pages), (name, pages[0].json())
        caplog.clear()
    # a complete build is switched to as before
    build(tmp_path / "fuente", tmp_path / "buena.db", RECORDS[:1])
    os.replace(tmp_path / "buena.db", good)
    assert (await ds.client.get("/" + UVA)).json() == RECORDS[:1]


async def test_a_file_copied_in_place_is_picked_up_once_complete(good, tmp_path, monkeypatch):
    monkeypatch.setattr(recarga, "CHECK_EVERY", 0.0)
    ds = datasette_for(good)
    assert (await ds.client.get("/" + UVA)).json() == RECORDS
    new = tmp_path / "nueva.db"
    build(tmp_path / "fuente2", new, RECORDS[:1])
    inode = good.stat().st_ino
    shutil.copyfile(new, good)  # cp new.db argentina.db: the same inode, other bytes
    assert good.stat().st_ino == inode
    assert (await ds.client.get("/" + UVA)).json() == RECORDS[:1]


async def test_a_file_that_breaks_under_the_server_gets_json_503s(good, monkeypatch):
    """What the checks cannot see (pages broken inside a file whose header is whole) fails at request
    time: as JSON 503s.  The file breaks once the server started, before /v1 opened its own connection
    (SQLite answers from the pages it has already read)."""
    monkeypatch.setattr(recarga, "CHECK_EVERY", 3600.0)  # the switch does not look: the broken file is read
    ds = datasette_for(good)
    await ds.invoke_startup()
    size = good.stat().st_size
    with good.open("r+b") as f:  # garbage over every page but the header, in place
        f.seek(100)
        f.write(os.urandom(size - 100))
    for path in (f"/{UVA}?desde=2016-04-01", "/v1/feriados/2025", "/v1/openapi.json"):
        r = await ds.client.get(path)
        assert r.status_code == 503, (path, r.status_code, r.text[:200])
        assert r.headers["content-type"].startswith("application/json")
        assert "la base no se puede leer" in r.json()["mensaje"]
    # Datasette's pages: from the pages its connections read at startup, or a 503; never a 500
    r = await ds.client.get("/argentina/uva.json")
    assert r.status_code in (200, 503), r.text[:300]


# ---- memory ---------------------------------------------------------------------------------
BIG_ROWS = (
    "with recursive n(x) as (select 1 union all select x + 1 from n where x < 12) "
    f"select x, randomblob({memoria.MAX_VALUE_BYTES - 1}) from n"
)


@pytest.mark.parametrize(
    "sql, expected",
    [
        ("select randomblob(1e9)", "string or blob too big"),
        ("select zeroblob(2e9)", "string or blob too big"),
        (BIG_ROWS, "la respuesta pasa de"),
    ],
)
@pytest.mark.parametrize("extension", [".json", ""])
async def test_a_query_too_big_for_memory_is_a_400_at_once(good, sql, expected, extension):
    ds = datasette_for(good)
    start = time.monotonic()
    r = await ds.client.get(f"/argentina{extension}", params={"sql": sql})
    assert time.monotonic() - start < 2.0
    assert r.status_code == 400
    assert expected in r.text


async def test_a_huge_printf_answers_null_at_once_as_sqlite_does_for_a_text_too_long(good):
    ds = datasette_for(good)
    start = time.monotonic()
    sql = "select length(printf('%.*c', 999999999, 'x')) as n, printf('%5.2f|%-3s|%%', 3.14159, 'ab') as f"
    r = await ds.client.get("/argentina.json", params={"sql": sql, "_shape": "array"})
    assert time.monotonic() - start < 1.0
    assert r.status_code == 200 and r.json() == [{"n": None, "f": " 3.14|ab |%"}]


async def test_v1_answers_while_heavy_queries_run(good):
    ds = datasette_for(good)
    assert (await ds.client.get("/" + UVA)).status_code == 200

    async def heavy():
        return await ds.client.get("/argentina.json", params={"sql": "select randomblob(1e9)"})

    tasks = [asyncio.ensure_future(heavy()) for _ in range(8)]
    start = time.monotonic()
    r = await ds.client.get(f"/{UVA}?hasta=2016-03-31")
    assert r.status_code == 200 and time.monotonic() - start < 1.0
    assert all(t.status_code == 400 for t in await asyncio.gather(*tasks))


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_a_second_server_on_a_taken_port_is_an_error_naming_it(good, server):
    port = free_port()
    env = {**os.environ, "ARGENTINA_DATOS_SERVER": server}
    first = subprocess.Popen(
        [sys.executable, "-m", "argentina_datos.web.servidor", str(good), "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        else:
            pytest.fail("el primer servidor no arrancó")
        second = subprocess.run(
            [sys.executable, "-m", "argentina_datos.web.servidor", str(good), "--port", str(port)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1
        assert second.stderr.strip().splitlines() == [
            f"error: no se puede escuchar en 127.0.0.1:{port}: el puerto ya está en uso (¿otro serve-datos?); "
            "elija otro con --port"
        ]
    finally:
        first.terminate()
        first.wait(timeout=30)
