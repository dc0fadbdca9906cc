"""Datasette plugin: Datasette's pages take turns, so that they cannot crowd /v1 off the event loop,
and the SQL users type takes turns of its own, so that it cannot crowd out the pages.

A table page is tens of milliseconds of Python on the one event loop (queries, plugins, templates);
with dozens of them in progress at once, every cached /v1 answer (well under a millisecond of work)
waited behind all of their steps. Here at most TURNS pages are being prepared at a time, the others
wait for their turn without using the loop, and /v1 never waits for a turn. A page gives its turn
back when it starts answering, so a long download or CSV stream does not keep it.

SQL a user writes (`?sql=` on the database, `_where=` on a table) can hold a query thread for the
whole time limit (3 s). Sharing the pages' turns and threads, 12 connections sending such queries
kept every thread busy: a table page took 9-10 s (issue 33). That SQL takes SQL_TURNS turns of its
own, one SQL thread each (num_sql_threads is TURNS + SQL_TURNS, web/servidor.py), so a page's
queries never queue behind it; it holds its turn until its answer is sent (a CSV stream of it runs
more queries). A query that waits more than SQL_WAIT seconds for a turn is answered 503 with
Retry-After: the server is busy with other people's SQL, not broken.
"""

import asyncio
import json
from urllib.parse import parse_qs

from argentina_datos.web.complementos import HEALTH_PATHS, MCP_PATH
from argentina_datos.web.v1 import is_v1

TURNS = 3  # pages (and canned queries) prepared at a time
SQL_TURNS = 1  # user-written SQL running at a time
SQL_WAIT = 10.0  # seconds a user's SQL waits for its turn before a 503
RETRY_AFTER = 5  # seconds, in that 503


def is_users_sql(scope) -> bool:
    """A request whose SQL the user wrote: `?sql=` (the database page, any format) or `_where=`; or an MCP
    message, which may carry SQL (execute_sql) and holds its turn until its answer (a tool call is one POST)."""
    if scope.get("path") == MCP_PATH and scope.get("method") == "POST":
        return True
    query = scope.get("query_string", b"")
    if b"sql=" not in query and b"_where=" not in query:
        return False
    args = parse_qs(query.decode("latin1"))
    return "sql" in args or "_where" in args


async def send_busy(scope, send) -> None:
    message = f"hay muchas consultas SQL en curso; intente de nuevo en {RETRY_AFTER} s"
    if scope.get("path", "").split("?")[0].endswith(".json"):
        body = json.dumps({"ok": False, "error": message, "status": 503, "title": None}).encode()
        kind = b"application/json; charset=utf-8"
    else:
        body, kind = (message + "\n").encode(), b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(RETRY_AFTER).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def wrap(datasette, app):
    """This layer around `app` (the order of the layers is in argentina_datos.web.capas)."""
    turns: asyncio.Semaphore | None = None
    sql_turns: asyncio.Semaphore | None = None

    async def taking_turns(scope, receive, send):
        nonlocal turns, sql_turns
        # /v1 has its own limits; the health checks wait for no page: a busy server is alive
        if scope["type"] != "http" or is_v1(scope.get("path", "")) or scope.get("path") in HEALTH_PATHS:
            return await app(scope, receive, send)
        if turns is None or sql_turns is None:  # created inside the server's event loop
            turns, sql_turns = asyncio.Semaphore(TURNS), asyncio.Semaphore(SQL_TURNS)
        if is_users_sql(scope):
            try:
                await asyncio.wait_for(sql_turns.acquire(), SQL_WAIT)
            except asyncio.TimeoutError:
                return await send_busy(scope, send)
            try:
                return await app(scope, receive, send)
            finally:
                sql_turns.release()
        await turns.acquire()
        holding = True

        async def send_and_give_back(message):
            nonlocal holding
            if holding and message["type"] == "http.response.start":
                holding = False
                turns.release()
            await send(message)

        try:
            await app(scope, receive, send_and_give_back)
        finally:
            if holding:
                turns.release()

    return taking_turns
