"""Datasette plugin: Datasette's pages take turns, so that they cannot crowd /v1 off the event loop.

A table page is tens of milliseconds of Python on the one event loop (queries, plugins, templates);
with dozens of them in progress at once, every cached /v1 answer (well under a millisecond of work)
waited behind all of their steps. Here at most TURNS pages are being prepared at a time, the others
wait for their turn without using the loop, and /v1 never waits for a turn. A page gives its turn
back when it starts answering, so a long download or CSV stream does not keep it.
"""

import asyncio

TURNS = 3  # as many as Datasette's SQL threads (num_sql_threads): more would only queue there


def _is_v1(path: str) -> bool:
    return path == "/v1" or path.startswith("/v1/")


def wrap(datasette, app):
    """This layer around `app` (the order of the layers is in argentina_datos.web.capas)."""
    turns = None

    async def taking_turns(scope, receive, send):
        nonlocal turns
        if scope["type"] != "http" or _is_v1(scope.get("path", "")):
            return await app(scope, receive, send)
        if turns is None:  # created inside the server's event loop
            turns = asyncio.Semaphore(TURNS)
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
