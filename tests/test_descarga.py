"""The database download (/argentina.db) under both servers serve-datos runs: the whole file with its
length, and a client that hangs up costs one log line (web/complementos/descarga.py)."""

from __future__ import annotations

import json
import socket
import sqlite3
import time

import pytest
from servidor_datos import HOST, ServeDatos

from argentina_datos.construccion import cli
from argentina_datos.web.complementos.descarga import without_chunked
from argentina_datos.web.servidor import SERVERS


def test_a_known_length_drops_the_chunked_encoding():
    headers = [(b"Content-Length", b"10"), (b"Transfer-Encoding", b"chunked"), (b"etag", b'"x"')]
    assert without_chunked(headers) == [(b"Content-Length", b"10"), (b"etag", b'"x"')]
    streamed = [(b"transfer-encoding", b"chunked"), (b"content-type", b"text/csv")]
    assert without_chunked(streamed) == streamed  # no length: the encoding is how the body ends


@pytest.fixture(scope="module")
def big_db(tmp_path_factory):
    """A small build padded to 24 MB: more than the sockets' buffers hold, so a client can hang up mid-way."""
    root = tmp_path_factory.mktemp("descarga")
    route = root / "fuente" / "v1/finanzas/indices/uva" / "index.json"
    route.parent.mkdir(parents=True)
    route.write_text(json.dumps([{"fecha": "2016-03-31", "valor": 14.05}]))
    out = root / "argentina.db"
    assert cli.main(["--source", str(root / "fuente"), "--output", str(out)]) == 0
    with sqlite3.connect(out) as conn:
        conn.execute("CREATE TABLE relleno (b BLOB)")
        conn.executemany("INSERT INTO relleno VALUES (randomblob(1 << 20))", [()] * 24)
    conn.close()
    return out


@pytest.mark.lento
@pytest.mark.parametrize("server", SERVERS)
def test_the_download_is_the_whole_file_and_a_hang_up_one_line(big_db, server):
    expected = big_db.read_bytes()
    with ServeDatos(big_db, server=server) as srv:
        status, headers, body = srv.get("/argentina.db")
        assert status == 200
        assert headers["content-length"] == str(len(expected))
        assert "transfer-encoding" not in headers
        assert body == expected

        with socket.create_connection((HOST, srv.port), timeout=10) as s:
            s.sendall(b"GET /argentina.db HTTP/1.1\r\nHost: x\r\n\r\n")
            got = 0
            while got < 1 << 20:
                got += len(s.recv(65536))
        deadline = time.monotonic() + 10
        while "cortó la descarga" not in srv.log_text() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)  # what a broken send loop would keep writing
        log = srv.log_text()
        assert log.count("/argentina.db: el cliente cortó la descarga") == 1, log[-2000:]
        assert "Traceback" not in log and "transport error" not in log, log[-2000:]
        # and the server goes on serving it whole
        status, _, body = srv.get("/argentina.db")
        assert status == 200 and body == expected
