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


def start_child(cmd: list[str], log: Path, **kwargs) -> subprocess.Popen:
    """``cmd`` in a session of its own (stop_child ends all it started), its output in ``log``."""
    with open(log, "wb") as out:
        return subprocess.Popen(
            cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True, **kwargs
        )


def wait_answering(proc: subprocess.Popen, probe, seconds: float, what: str, output) -> bool:
    """True once ``probe()`` no longer raises OSError, False after ``seconds``; a RuntimeError with
    ``output()`` when ``what`` ends first."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} terminó al arrancar:\n{output()}")
        try:
            probe()
            return True
        except OSError:
            time.sleep(0.05)
    return False


def stop_child(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


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
        self.proc = start_child(
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
            self.log,
            cwd=REPO,
        )
        if wait_answering(
            self.proc,
            lambda: self.get("/-/versions.json", timeout=2),
            60,
            "serve-datos",
            lambda: self.log_text()[-2000:],
        ):
            return self
        self.__exit__()
        raise RuntimeError(f"serve-datos no respondió en 60 s:\n{self.log_text()[-2000:]}")

    def __exit__(self, *exc) -> None:
        stop_child(self.proc)

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
