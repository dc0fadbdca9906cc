"""Datasette plugin: the site only reads. Outside /v1 (which answers its own methods) and the MCP endpoint
(whose messages are POSTs, and whose tools only read), anything but GET and HEAD gets a 405 instead of reaching
Datasette, where a POST to a table page is a 500."""

from argentina_datos.web.complementos import MCP_PATH
from argentina_datos.web.v1 import is_v1

READ_METHODS = {"GET", "HEAD"}


def wrap(datasette, app):
    """This layer around `app` (the order of the layers is in argentina_datos.web.capas)."""

    async def read_only(scope, receive, send):
        path = scope.get("path", "")
        if scope["type"] != "http" or scope.get("method", "GET") in READ_METHODS or is_v1(path) or path == MCP_PATH:
            return await app(scope, receive, send)
        body = "Este sitio es de sólo lectura: use GET.\n".encode()
        await send(
            {
                "type": "http.response.start",
                "status": 405,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"allow", b"GET, HEAD"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    return read_only
