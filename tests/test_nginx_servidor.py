"""deploy/nginx-servidor.conf in front of a real serve-datos: /v1 and the download pass through whole,
the SQL users write is limited per client (tests like tests/test_exportar.py's of deploy/nginx.conf:
the very file, only its `listen` and upstream `server` lines replaced)."""

from __future__ import annotations

import http.client
import json
import sqlite3
import threading
import urllib.parse

import pytest
from ayudas import UVA_DIAS, write_file
from paths import REPO
from servidor_datos import ServeDatos
from servidor_nginx import HOST, Nginx, configured, find_nginx

from argentina_datos.construccion import cli

pytestmark = pytest.mark.lento

CONF = REPO / "deploy" / "nginx-servidor.conf"
UVA = "v1/finanzas/indices/uva"
ROWS = UVA_DIAS
SLOW_SQL = "with recursive c(x) as (select 1 union all select x + 1 from c) select count(*) from c"


def proxy_server(port: int, upstream_port: int) -> str:
    return configured(CONF, port, server=f"{HOST}:{upstream_port}")


def get(port: int, path: str, timeout: float = 30) -> tuple[int, dict, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    nginx = find_nginx()
    if nginx is None:
        pytest.skip("sin nginx: apt-get install -y nginx-light (o bash scripts/paquetes.sh nginx-light)")
    root = tmp_path_factory.mktemp("frente")
    write_file(root / "fuente", UVA, ROWS)
    db = root / "argentina.db"
    assert cli.main(["--source", str(root / "fuente"), "--output", str(db)]) == 0
    with sqlite3.connect(db) as conn:  # a download larger than the sockets' buffers
        conn.execute("CREATE TABLE relleno (b BLOB)")
        conn.executemany("INSERT INTO relleno VALUES (randomblob(1 << 20))", [()] * 8)
    conn.close()
    with ServeDatos(db) as app:
        proxy = Nginx(nginx, lambda port: proxy_server(port, app.port))
        with proxy:
            yield proxy.port, app, db


def test_v1_and_the_download_pass_through_whole(front):
    port, app, db = front
    status, headers, body = get(port, f"/{UVA}")
    assert status == 200 and json.loads(body) == ROWS
    assert body == app.get(f"/{UVA}")[2]
    status, headers, body = get(port, "/argentina.db")
    assert status == 200 and body == db.read_bytes() and headers["content-length"] == str(len(body))


def test_the_users_sql_is_limited_per_client(front):
    port, _, _ = front
    slow = "/argentina.json?" + urllib.parse.urlencode({"sql": SLOW_SQL})
    statuses: list[int] = []

    def ask():
        statuses.append(get(port, slow)[0])

    threads = [threading.Thread(target=ask) for _ in range(3)]
    for t in threads:
        t.start()
    # while those run, /v1 passes and a page answers
    assert get(port, f"/{UVA}")[0] == 200
    assert get(port, "/argentina/uva")[0] == 200
    for t in threads:
        t.join()
    # two reach serve-datos (each runs into its 3 s time limit: 400), the third is refused at once
    assert sorted(statuses) == [400, 400, 429], statuses
    status, headers, body = get(port, slow)  # the limit is on connections at a time: free again
    assert status == 400
