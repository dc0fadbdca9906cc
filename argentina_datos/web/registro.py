"""`serve-datos --log-json`: one JSON line per request on standard error, for a log collector.

Each line: `hora` (UTC, when the answer ended), `metodo`, `ruta` (path and query string, as asked),
`estado`, `bytes` (of the body sent), `ms` (from the request to the last byte), `agente`
(User-Agent) and `cliente` (the peer address: nginx's, behind it; nginx's own log has the client's).
The outermost layer (web/capas.py): it sees every answer, the refused heads' included.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time

ENV = "ARGENTINA_DATOS_LOG_JSON"


def enabled() -> bool:
    return os.environ.get(ENV) == "1"


def line(scope, status: int, sent: int, started: float) -> bytes:
    headers = dict(scope.get("headers") or [])
    query = scope.get("query_string", b"").decode("latin1")
    client = scope.get("client")
    record = {
        "hora": dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "metodo": scope.get("method"),
        "ruta": scope.get("path", "") + (f"?{query}" if query else ""),
        "estado": status,
        "bytes": sent,
        "ms": round((time.perf_counter() - started) * 1000, 1),
        "agente": headers.get(b"user-agent", b"").decode("latin1") or None,
        "cliente": client[0] if client else None,
    }
    return json.dumps(record, ensure_ascii=False).encode() + b"\n"


def wrap(datasette, app):
    """This layer around `app` (the order of the layers is in argentina_datos.web.capas)."""
    if not enabled():
        return app

    async def logging_requests(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        started = time.perf_counter()
        status, sent = 0, 0

        async def sending(message):
            nonlocal status, sent
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                sent += len(message.get("body", b""))
            await send(message)

        try:
            await app(scope, receive, sending)
        finally:
            # One write per line: lines of several workers do not interleave.
            os.write(2, line(scope, status, sent, started))

    return logging_requests
