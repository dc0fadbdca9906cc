"""A small threaded HTTP server on 127.0.0.1 that serves a directory in the upstream
static layout the way the public API does: ``GET /v1/X`` answers ``v1/X/index.json``,
anything else is 404.

Tests can make chosen paths misbehave, to check retries, errors and timeouts::

    with ServidorLocal(root, fallas={"/v1/feriados/2025": [500, 500]}) as srv:
        ...  # the first two GETs answer 500, the third serves the file

A falla is an HTTP status to answer, ``("lento", segundos)`` to wait before
answering (longer than the client's timeout = a timeout), ``("goteo", segundos)`` to send
the file a byte at a time over that long, ``("cuerpo", bytes)`` to answer 200 with that body
(a page of HTML) or ``("mitad",)`` to answer 200 with the first half of the file.
``pedidos`` counts GETs per path.

Like a static file server, each file goes out with an ETag (its content's hash) and a
Last-Modified (its mtime), and a GET whose If-None-Match names the current ETag gets a 304;
``respuestas`` counts the answers by status.

A real server rather than httpx.MockTransport: the tests using it run `build-db --source
http://127.0.0.1:PORT` as a user does, so the URL goes through the command line, and timeouts,
retries and conditional requests (ETag, 304) cross a real connection; a mock transport can only be
handed to an HttpSource made in the test, which skips the part these tests are about.
"""

from __future__ import annotations

import collections
import email.utils
import hashlib
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterable, Optional, Union

Falla = Union[int, tuple]


class ServidorLocal:
    def __init__(self, root: Path, fallas: Optional[dict[str, Iterable[Falla]]] = None):
        self.root = Path(root)
        self.fallas = {path: collections.deque(items) for path, items in (fallas or {}).items()}
        self.pedidos: collections.Counter = collections.Counter()
        self.respuestas: collections.Counter = collections.Counter()
        self._lock = threading.Lock()
        self._httpd: Optional[ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def fallar(self, path: str, *fallas: Falla) -> None:
        """Make the next GETs of ``path`` misbehave (e.g. once the server is running)."""
        with self._lock:
            self.fallas[path] = collections.deque(fallas)

    def _next_falla(self, path: str) -> Optional[Falla]:
        with self._lock:
            self.pedidos[path] += 1
            queue = self.fallas.get(path)
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
                falla = server._next_falla(path)
                if isinstance(falla, tuple) and falla[0] == "lento":
                    time.sleep(falla[1])
                    falla = None
                if isinstance(falla, tuple) and falla[0] == "cuerpo":
                    return self._send(200, falla[1])
                if isinstance(falla, int):
                    return self._send(falla, b'{"error": "falla de prueba"}')
                f = server._file(path)
                if f is None:
                    return self._send(404, b'{"error": "no existe"}')
                body = f.read_bytes()
                if falla == ("mitad",):
                    return self._send(200, body[: len(body) // 2])
                if isinstance(falla, tuple) and falla[0] == "goteo":
                    return self._trickle(body, falla[1])
                validators = {
                    "ETag": '"' + hashlib.sha1(body).hexdigest() + '"',
                    "Last-Modified": email.utils.formatdate(f.stat().st_mtime, usegmt=True),
                }
                if self.headers.get("If-None-Match") == validators["ETag"]:
                    return self._send(304, b"", validators)
                self._send(200, body, validators)

            def _send(self, status: int, body: bytes, extra: Optional[dict] = None):
                with server._lock:
                    server.respuestas[status] += 1
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

    def __enter__(self) -> "ServidorLocal":
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join()


class ServidorEnProceso:
    """The same server in a child process: for long walks (thousands of GETs) the client
    and the server then run on separate cores instead of sharing one interpreter's lock.
    No fallas: those need the in-process server."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._proc: Optional[subprocess.Popen] = None
        self.url = ""

    def __enter__(self) -> "ServidorEnProceso":
        self._proc = subprocess.Popen([sys.executable, __file__, str(self.root)], stdout=subprocess.PIPE, text=True)
        self.url = self._proc.stdout.readline().strip()
        if not self.url.startswith("http://127.0.0.1:"):
            self._proc.kill()
            raise RuntimeError(f"el servidor de prueba no arrancó: {self.url!r}")
        return self

    def __exit__(self, *exc) -> None:
        self._proc.terminate()
        self._proc.wait(timeout=10)
        self._proc.stdout.close()


if __name__ == "__main__":
    with ServidorLocal(Path(sys.argv[1])) as srv:
        print(srv.url, flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
