"""nginx on 127.0.0.1, as a child process in the foreground with a prefix of its own (its pid, logs and
temporary files in a temporary directory: nothing under /etc/nginx is read or written).

The server block is either the plain one that serves the upstream mirror (``mirror_server``, what
benchmarks/bench_api.py compares /v1 with) or deploy/nginx.conf, the configuration a deployment of the
exported tree uses, with only its ``listen`` and ``root`` lines replaced (``deploy_server``).

Used by tests/test_exportar.py (``Nginx``) and by the benchmarks (bench_api.start_nginx, through
``write_conf`` and ``nginx_command``)."""

from __future__ import annotations

import http.client
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Optional

from paths import REPO

HOST = "127.0.0.1"
DEPLOY_CONF = REPO / "deploy" / "nginx.conf"

MAIN_CONF = """\
daemon off;
{user}master_process on;
worker_processes auto;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/client_body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
{server}
}}
"""

MIRROR_SERVER = """\
server {{
    listen {host}:{port};
    root {root};
    sendfile on;
    tcp_nopush on;
    default_type application/json;
    location / {{ try_files $uri/index.json =404; }}
}}
"""


def find_nginx() -> Optional[str]:
    """The nginx binary (Debian puts it in /usr/sbin, outside a user's PATH), or None."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:/sbin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def mirror_server(port: int, root: Path) -> str:
    return MIRROR_SERVER.format(host=HOST, port=port, root=Path(root).resolve())


def deploy_server(port: int, root: Path) -> str:
    """deploy/nginx.conf listening on HOST:port and serving ``root``: nothing else changed."""
    text = DEPLOY_CONF.read_text()
    text, listens = re.subn(r"(?m)^(\s*)listen\s+[^;]+;", rf"\g<1>listen {HOST}:{port};", text)
    text, roots = re.subn(r"(?m)^(\s*)root\s+[^;]+;", rf"\g<1>root {Path(root).resolve()};", text)
    assert listens == 1 and roots == 1, f"{DEPLOY_CONF}: se esperaba una línea listen y una root"
    return text


def write_conf(prefix: Path, server: str) -> Path:
    """The main configuration around ``server``, in ``prefix``."""
    prefix.mkdir(parents=True, exist_ok=True)
    conf = prefix / "nginx.conf"
    # Started by root, nginx's workers would read as «nobody»: as the user who runs this, they read what it reads
    # (a test's temporary directory is private).
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
    conf.write_text(MAIN_CONF.format(prefix=prefix, server=server, user=user))
    return conf


def nginx_command(nginx: str, prefix: Path, conf: Path) -> list[str]:
    # -e: nginx opens its compiled-in error log before reading the config unless told otherwise.
    return [nginx, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log")]


class Nginx:
    """``with Nginx(nginx, lambda port: deploy_server(port, root)) as url:`` — started, answering, stopped."""

    def __init__(self, nginx: str, server_for_port):
        self.nginx = nginx
        self.port = free_port()
        self.server = server_for_port(self.port)
        self.url = f"http://{HOST}:{self.port}"
        self.proc: Optional[subprocess.Popen] = None
        self._tmp = tempfile.TemporaryDirectory(prefix="nginx-")
        self.prefix = Path(self._tmp.name)

    def __enter__(self) -> str:
        conf = write_conf(self.prefix, self.server)
        log = self.prefix / "stdout.log"
        with open(log, "wb") as out:
            self.proc = subprocess.Popen(
                nginx_command(self.nginx, self.prefix, conf),
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                errors = (
                    (self.prefix / "error.log").read_text(errors="replace")
                    if (self.prefix / "error.log").exists()
                    else ""
                )
                raise RuntimeError(f"nginx terminó al arrancar:\n{log.read_text(errors='replace')}{errors}")
            try:
                conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
                conn.request("GET", "/")
                conn.getresponse().read()
                conn.close()
                return self.url
            except OSError:
                time.sleep(0.05)
        self.__exit__()
        raise RuntimeError(f"nginx no respondió en {HOST}:{self.port}")

    def __exit__(self, *exc) -> None:
        if self.proc is not None and self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=10)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self._tmp.cleanup()
