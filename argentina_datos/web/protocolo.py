"""uvicorn's httptools protocol with limits on the request head, and /v1's JSON on the parser's errors
(the limits themselves, and the answer past them, are in `web/complementos/cabeza.py`).

httptools has no limit of its own: it grows a header or a URL by concatenating every fragment that
arrives, so one 64 MB header kept the event loop (every other client) busy for 6.5 s. Here the bytes
of a request's head are counted as they arrive, and past the limit the request is answered 431 (or
414 for the request line) and the connection closed, after parsing at most one more read's worth.
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from argentina_datos.web.complementos.cabeza import MAX_HEAD, MAX_HEADERS, MAX_REQUEST_LINE, rejection

LINGER_SECONDS = 2.0


class LimitedHeadProtocol(HttpToolsProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.url = b""
        self._in_head = True
        self._head_bytes = 0
        self._discarding = False

    def data_received(self, data: bytes) -> None:
        if self._discarding:
            return
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        if not self._in_head or self._discarding or self.transport.is_closing():
            return
        if len(self.url) > MAX_REQUEST_LINE:
            self._reject(414)
        elif self._head_bytes > MAX_HEAD or len(self.headers or ()) > MAX_HEADERS:
            self._reject(431)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        # What follows on the connection is the next request's head.
        self._in_head = True
        self._head_bytes = 0

    def send_400_response(self, msg: str) -> None:
        # uvicorn answers the parser's errors itself, in plain text.
        self._reject(400)

    def _reject(self, status: int) -> None:
        body, headers = rejection(status, self.url)
        head = [STATUS_LINE[status]]
        for name, value in [*self.server_state.default_headers, *headers]:
            head += [name, b": ", value, b"\r\n"]
        head += [b"content-length: ", str(len(body)).encode(), b"\r\n", b"connection: close\r\n", b"\r\n"]
        if self.cycle is not None and not self.cycle.response_complete:
            # A request of this connection is still being answered: its answer is dropped, as uvicorn
            # does when it closes the connection on a parser error.
            self.cycle.disconnected = True
        self.transport.write(b"".join(head) + body)
        # Closing with the client's bytes still unread would send a reset, which can destroy the
        # answer before the client reads it: stop writing, drop what still arrives, close shortly.
        self._discarding = True
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()
