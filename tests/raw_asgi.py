"""Calling the Datasette ASGI app directly, to see the bytes and headers httpx would hide or refuse.

httpx decompresses gzip bodies and cannot send a path with undecodable bytes; the raw call can.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RawResponse:
    status: int
    headers: dict  # lower-case str -> str (the last value wins)
    body: bytes


async def call(app, path: str, method: str = "GET", headers: dict | None = None) -> RawResponse:
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode("utf-8", "surrogateescape"),
        "query_string": b"",
        "root_path": "",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 1),
        "headers": [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()],
    }
    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return RawResponse(start["status"], {k.decode().lower(): v.decode() for k, v in start["headers"]}, body)
