"""`serve-datos` as a child process on 127.0.0.1 and a free port, for the tests that need the real
HTTP server (granian or uvicorn, and our request-head limits) rather than the ASGI app alone."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paths import REPO

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class ServeDatos:
    def __init__(self, db: Path, server: str | None = None, args: tuple = ()):
        self.db = Path(db)
        self.server = server  # None: serve-datos' default
        self.args = args  # more of serve-datos' options
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = Path(tempfile.mkstemp(prefix="serve-datos-", suffix=".log")[1])

    def __enter__(self) -> "ServeDatos":
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "argentina_datos.web.servidor",
                    str(self.db),
                    "--host",
                    HOST,
                    "--port",
                    str(self.port),
                    *(["--server", self.server] if self.server else []),
                    *self.args,
                ],
                cwd=REPO,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve-datos terminó al arrancar:\n{self.log_text()[-2000:]}")
            try:
                self.get("/-/versions.json", timeout=2)
                return self
            except OSError:
                time.sleep(0.1)
        self.__exit__()
        raise RuntimeError(f"serve-datos no respondió en 60 s:\n{self.log_text()[-2000:]}")

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def get(self, path: str, timeout: float = 30, headers: dict | None = None) -> tuple[int, dict, bytes]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
        try:
            conn.request("GET", path, headers=headers or {})
            r = conn.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            conn.close()

    def raw(self, data: bytes, timeout: float = 10) -> bytes:
        """Send bytes as they are (a malformed or oversized request) and read until the server closes."""
        with socket.create_connection((HOST, self.port), timeout=timeout) as s:
            try:
                for i in range(0, len(data), 1 << 20):
                    s.sendall(data[i : i + (1 << 20)])
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered and closed before reading everything: what a limit does
            out = b""
            try:
                while chunk := s.recv(65536):
                    out += chunk
            except ConnectionResetError:
                pass
            return out
