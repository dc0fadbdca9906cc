"""The limits on a request's head (request line, header bytes, header count), and the answer past them.

Whatever HTTP server runs the app enforces them first where it can (uvicorn through
`web/protocolo.py`, granian through its own buffer and header count): a 64 MB header never reaches
Python. This layer answers what the server lets through: granian reads heads up to its buffer
(400 KB), so a 40 KB header reaches the app, and it is answered here, with /v1's JSON error.
"""

from __future__ import annotations

from argentina_datos.web.v1.api import JSON_TYPE, error_body

MAX_REQUEST_LINE = 8 * 1024
MAX_HEAD = 32 * 1024  # request line and headers together (nginx's default buffers: 4 x 8 KB)
MAX_HEADERS = 100

MESSAGES = {
    400: "pedido HTTP mal formado",
    414: f"la línea del pedido tiene más de {MAX_REQUEST_LINE} bytes",
    431: f"los encabezados del pedido tienen más de {MAX_HEAD} bytes o son más de {MAX_HEADERS}",
}


def is_v1(url: bytes) -> bool:
    path = url.split(b"?", 1)[0].lower()
    return path == b"/v1" or path.startswith(b"/v1/")


def rejection(status: int, url: bytes) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """The body and headers of a refused head: /v1's JSON error under /v1, a line of text elsewhere."""
    mensaje = MESSAGES[status]
    if is_v1(url):
        return error_body(status, mensaje), [
            (b"content-type", JSON_TYPE),
            (b"access-control-allow-origin", b"*"),
        ]
    return (mensaje + "\n").encode(), [(b"content-type", b"text/plain; charset=utf-8")]


def head_status(scope) -> int | None:
    """414 or 431 if the request's head, as written on the wire, is past a limit; else None."""
    target = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
    if scope.get("query_string"):
        target += b"?" + scope["query_string"]
    # "GET /x HTTP/1.1\r\n": the method, the target, the version and three separators.
    line = len(scope["method"]) + len(target) + 12
    if line > MAX_REQUEST_LINE:
        return 414
    headers = scope.get("headers") or ()
    if len(headers) > MAX_HEADERS:
        return 431
    # Each header line is "name: value\r\n"; a blank line ends the head.
    if line + sum(len(k) + len(v) + 4 for k, v in headers) + 2 > MAX_HEAD:
        return 431
    return None


def wrap(datasette, app):
    async def limited_head(scope, receive, send):
        status = head_status(scope) if scope["type"] == "http" else None
        if status is None:
            return await app(scope, receive, send)
        url = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
        body, headers = rejection(status, url)
        headers += [(b"content-length", str(len(body)).encode()), (b"connection", b"close")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})

    return limited_head
