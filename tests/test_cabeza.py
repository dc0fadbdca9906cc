"""The request-head limits of web/complementos/cabeza.py, on ASGI scopes made here (no server, no mirror)."""

import asyncio

import orjson
import pytest

from argentina_datos.web.complementos import cabeza
from argentina_datos.web.complementos.cabeza import MAX_HEAD, MAX_HEADERS, MAX_REQUEST_LINE, head_status


def scope(path: bytes = b"/v1/feriados/2025", query: bytes = b"", headers=(), method: str = "GET") -> dict:
    return {
        "type": "http",
        "method": method,
        "path": path.decode("latin1"),
        "raw_path": path,
        "query_string": query,
        "headers": [(b"host", b"x"), *headers],
    }


def wire_head(s: dict) -> bytes:
    """The request head as a client writes it, to check the estimate against."""
    target = s["raw_path"] + (b"?" + s["query_string"] if s["query_string"] else b"")
    lines = [s["method"].encode() + b" " + target + b" HTTP/1.1"] + [k + b": " + v for k, v in s["headers"]]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def test_an_ordinary_request_passes():
    assert head_status(scope(headers=[(b"accept-encoding", b"gzip")])) is None


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_the_head_limit_is_counted_as_on_the_wire(extra):
    base = scope()
    room = MAX_HEAD - len(wire_head(base)) - len(b"x-grande: \r\n")
    s = scope(headers=[(b"x-grande", b"a" * (room + extra))])
    assert len(wire_head(s)) == MAX_HEAD + extra
    assert head_status(s) == (431 if extra > 0 else None)


@pytest.mark.parametrize("extra", [0, 1])
def test_the_request_line_limit(extra):
    line = len(b"GET /v1/x? HTTP/1.1\r\n")
    s = scope(path=b"/v1/x", query=b"q" * (MAX_REQUEST_LINE - line + extra))
    assert head_status(s) == (414 if extra else None)


def test_too_many_headers():
    assert head_status(scope(headers=[(b"x-%d" % i, b"v") for i in range(MAX_HEADERS - 1)])) is None
    assert head_status(scope(headers=[(b"x-%d" % i, b"v") for i in range(MAX_HEADERS)])) == 431


async def answer(s: dict):
    sent = []

    async def app(scope, receive, send):
        raise AssertionError("a refused head must not reach the app")

    async def send(message):
        sent.append(message)

    await cabeza.wrap(None, app)(s, None, send)
    start, body = sent
    return start["status"], dict(start["headers"]), body["body"]


def test_under_v1_the_answer_is_the_json_error():
    status, headers, body = asyncio.run(answer(scope(headers=[(b"x", b"a" * MAX_HEAD)])))
    assert status == 431 and headers[b"content-type"].startswith(b"application/json")
    assert headers[b"connection"] == b"close" and int(headers[b"content-length"]) == len(body)
    assert orjson.loads(body)["status"] == 431


def test_elsewhere_it_is_a_line_of_text_and_head_gets_no_body():
    status, headers, body = asyncio.run(answer(scope(path=b"/argentina", query=b"a" * MAX_REQUEST_LINE)))
    assert status == 414 and headers[b"content-type"].startswith(b"text/plain") and b"8192" in body
    status, headers, body = asyncio.run(answer(scope(path=b"/argentina", query=b"a" * MAX_REQUEST_LINE, method="HEAD")))
    assert status == 414 and body == b"" and int(headers[b"content-length"]) > 0


def test_other_requests_go_on_to_the_app():
    reached = []

    async def app(scope, receive, send):
        reached.append(scope["type"])

    for s in (scope(), {"type": "lifespan"}):
        asyncio.run(cabeza.wrap(None, app)(s, None, None))
    assert reached == ["http", "lifespan"]
