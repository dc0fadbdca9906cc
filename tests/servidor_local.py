"""A small threaded HTTP server on 127.0.0.1 that serves a directory in the upstream
static layout the way the public API does: ``GET /v1/X`` answers ``v1/X/index.json``,
anything else is 404.

Tests can make chosen paths misbehave, to check retries, errors and timeouts::

    with LocalServer(root, faults={"/v1/feriados/2025": [500, 500]}) as srv:
        ...  # the first two GETs answer 500, the third serves the file

A fault is an HTTP status to answer, ``("slow", seconds)`` to wait before
answering (longer than the client's timeout = a timeout), ``("trickle", seconds)`` to send
the file a byte at a time over that long, ``("body", bytes)`` to answer 200 with that body
(a page of HTML) or ``("half",)`` to answer 200 with the first half of the file.
``requested`` counts GETs per path.

Like a static file server, each file goes out with an ETag (its content's hash) and a
Last-Modified (its mtime), and a GET whose If-None-Match names the current ETag gets a 304;
``answered`` counts the answers by status.

A real server rather than httpx.MockTransport: the tests using it run `build-db --source
http://127.0.0.1:PORT` as a user does, so the URL goes through the command line, and timeouts,
retries and conditional requests (ETag, 304) cross a real connection; a mock transport can only be
handed to an HttpSource made in the test, which skips the part these tests are about.
"""

from __future__ import annotations

import collections
import email.utils
import hashlib
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterable, Optional, Union

Fault = Union[int, tuple]


class LocalServer:
    def __init__(self, root: Path, faults: Optional[dict[str, Iterable[Fault]]] = None):
        self.root = Path(root)
        self.faults = {path: collections.deque(items) for path, items in (faults or {}).items()}
        self.requested: collections.Counter = collections.Counter()
        self.answered: collections.Counter = collections.Counter()
        self._lock = threading.Lock()
        self._httpd: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def fail_next(self, path: str, *faults: Fault) -> None:
        """Make the next GETs of ``path`` misbehave (e.g. once the server is running)."""
        with self._lock:
            self.faults[path] = collections.deque(faults)

    def _next_fault(self, path: str) -> Optional[Fault]:
        with self._lock:
            self.requested[path] += 1
            queue = self.faults.get(path)
            return queue.popleft() if queue else None

    def _file(self, path: str) -> Optional[Path]:
        parts = [p for p in path.split("/") if p]
        if not parts or parts[0] != "v1" or any(p in (".", "..") for p in parts):
            return None
        f = self.root.joinpath(*parts, "index.json")
        return f if f.is_file() else None

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive: the client reuses connections
            # headers and body go out in two writes: with Nagle on, each answer on a
            # kept-alive connection would wait ~40 ms for the client's delayed ACK
            disable_nagle_algorithm = True

            def do_GET(self):
                path = self.path.split("?", 1)[0].rstrip("/")
                fault = server._next_fault(path)
                if isinstance(fault, tuple) and fault[0] == "slow":
                    time.sleep(fault[1])
                    fault = None
                if isinstance(fault, tuple) and fault[0] == "body":
                    return self._send(200, fault[1])
                if isinstance(fault, int):
                    return self._send(fault, b'{"error": "falla de prueba"}')
                f = server._file(path)
                if f is None:
                    return self._send(404, b'{"error": "no existe"}')
                body = f.read_bytes()
                if fault == ("half",):
                    return self._send(200, body[: len(body) // 2])
                if isinstance(fault, tuple) and fault[0] == "trickle":
                    return self._trickle(body, fault[1])
                validators = {
                    "ETag": '"' + hashlib.sha1(body).hexdigest() + '"',
                    "Last-Modified": email.utils.formatdate(f.stat().st_mtime, usegmt=True),
                }
                if self.headers.get("If-None-Match") == validators["ETag"]:
                    return self._send(304, b"", validators)
                self._send(200, body, validators)

            def _send(self, status: int, body: bytes, extra: Optional[dict] = None):
                with server._lock:
                    server.answered[status] += 1
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                for name, value in (extra or {}).items():
                    self.send_header(name, value)
                if status != 304:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer

            def _trickle(self, body: bytes, seconds: float):
                """Every byte in its own write, spread over ``seconds``: never a long silence."""
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    for i in range(len(body)):
                        self.wfile.write(body[i : i + 1])
                        self.wfile.flush()
                        time.sleep(seconds / len(body))
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, format, *args):
                pass

        return Handler

    def __enter__(self) -> "LocalServer":
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()
