"""The database download (`/argentina.db`) as any HTTP server can send it, and a client that hangs up.

Datasette 0.65 answers the download with `Content-Length` and `Transfer-Encoding: chunked` together,
which HTTP/1.1 forbids (RFC 9112, 6.1). uvicorn let it through; granian closed the connection before
the first byte (curl: empty reply) and logged one `ASGI transport error` per 4 KB chunk it was then
handed: about 37,000 lines per try. The length is known, so the transfer encoding goes.

A client that hangs up in the middle of the download: neither server's `send` fails (granian logs
each call, 27,000 lines for a client gone after the first megabyte) while Datasette reads on to the
end of the file. The download is the one response that reads no request body, so here its `receive`
is watched for the disconnect, which ends the response with one line in the log.
"""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger("argentina_datos.descarga")


class ClientGone(Exception):
    """The client closed the connection while its response was being sent."""


def without_chunked(headers) -> list:
    """The response headers without `Transfer-Encoding` when they carry a `Content-Length`."""
    names = {bytes(name).lower() for name, _ in headers}
    if b"content-length" not in names:
        return list(headers)
    return [(name, value) for name, value in headers if bytes(name).lower() != b"transfer-encoding"]


def is_download(datasette, scope) -> bool:
    path = scope.get("path", "")
    return (
        scope.get("method") in ("GET", "HEAD")
        and path.endswith(".db")
        and path.count("/") == 1
        and path[1:-3] in datasette.databases
    )


def wrap(datasette, app):
    """This layer around `app` (the order of the layers is in argentina_datos.web.capas)."""

    async def one_length(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        if not is_download(datasette, scope):
            return await app(scope, receive, chunked_dropped(send))
        gone = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            gone.set()

        length, sent = None, 0

        async def sending(message):
            nonlocal length, sent
            if message["type"] == "http.response.start":
                length = next(
                    (int(v) for k, v in message.get("headers", []) if bytes(k).lower() == b"content-length"), None
                )
            if gone.is_set():
                if length is not None and sent >= length:
                    return  # Datasette's last, empty chunk after a client that had it all left
                raise ClientGone()
            sent += len(message.get("body", b""))
            await send(message)

        watcher = asyncio.create_task(watch())
        try:
            await app(scope, receive, chunked_dropped(sending))
        except ClientGone:
            log.warning("%s: el cliente cortó la descarga", scope.get("path"))
        finally:
            watcher.cancel()

    return one_length


def chunked_dropped(send):
    async def sending(message):
        if message["type"] == "http.response.start":
            message = dict(message, headers=without_chunked(message.get("headers", [])))
        await send(message)

    return sending
