"""The turns of web/complementos/turnos.py on a stand-in app: pages share TURNS, the SQL users write
has SQL_TURNS of its own, and a query that waits too long for one is a 503 with Retry-After."""

from __future__ import annotations

import asyncio

import orjson
import pytest

from argentina_datos.web.complementos import turnos


def slow_app(seconds: float, running: list):
    async def app(scope, receive, send):
        running.append(scope["path"])
        await asyncio.sleep(seconds)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    return app


async def call(app, scope: dict) -> tuple[int, dict, bytes]:
    sent: list = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], dict(sent[0]["headers"]), b"".join(m.get("body", b"") for m in sent[1:])


def scope(path: str, query: bytes = b"") -> dict:
    return {"type": "http", "method": "GET", "path": path, "query_string": query, "headers": []}


@pytest.mark.parametrize(
    "query, users",
    [(b"sql=select+1", True), (b"_where=id>1", True), (b"_size=5", False), (b"", False), (b"xsql=1", False)],
)
def test_which_requests_carry_the_users_sql(query, users):
    assert turnos.is_users_sql(scope("/argentina", query)) is users


def test_an_mcp_message_takes_the_users_sql_turns():
    """A POST to /-/mcp may run execute_sql: it waits for the SQL turns, not the pages'."""
    assert turnos.is_users_sql({**scope("/-/mcp"), "method": "POST"})
    assert not turnos.is_users_sql(scope("/-/mcp"))  # the GET of an event stream carries no SQL


async def test_users_sql_takes_its_own_turns_and_pages_theirs(monkeypatch):
    monkeypatch.setattr(turnos, "SQL_WAIT", 0.6)
    running: list = []
    app = turnos.wrap(None, slow_app(0.4, running))
    sql = [asyncio.create_task(call(app, scope("/argentina.json", b"sql=select+1"))) for _ in range(3)]
    pages = [asyncio.create_task(call(app, scope(f"/argentina/t{i}"))) for i in range(turnos.TURNS + 1)]
    await asyncio.sleep(0.2)
    # one query runs; every page but the one past TURNS runs beside it
    assert running.count("/argentina.json") == turnos.SQL_TURNS
    assert len([p for p in running if p.startswith("/argentina/t")]) == turnos.TURNS
    answers = await asyncio.gather(*sql)
    statuses = sorted(a[0] for a in answers)
    assert statuses == [200, 200, 503]  # the third waited 0.8 s for its turn: more than SQL_WAIT
    busy = next(a for a in answers if a[0] == 503)
    assert busy[1][b"retry-after"] == str(turnos.RETRY_AFTER).encode()
    assert "consultas SQL en curso" in orjson.loads(busy[2])["error"]
    assert [a[0] for a in await asyncio.gather(*pages)] == [200] * (turnos.TURNS + 1)


async def test_the_health_checks_wait_for_no_page():
    """A server whose page turns are all taken is alive: /-/vivo and /-/salud.json answer at once."""
    pages_app = slow_app(0.5, [])

    async def inner(scope, receive, send):  # pages take 0.5 s; the health checks answer at once
        if scope["path"].startswith("/-/"):
            await send({"type": "http.response.start", "status": 200, "headers": []})
            return await send({"type": "http.response.body", "body": b"ok"})
        await pages_app(scope, receive, send)

    app = turnos.wrap(None, inner)
    pages = [asyncio.create_task(call(app, scope(f"/argentina/t{i}"))) for i in range(turnos.TURNS + 1)]
    await asyncio.sleep(0.05)
    for path in ("/-/vivo", "/-/salud.json"):
        status, _, _ = await asyncio.wait_for(call(app, scope(path)), 0.3)  # not after the pages' 0.5 s
        assert status == 200
    await asyncio.gather(*pages)
