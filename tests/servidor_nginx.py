"""nginx on 127.0.0.1, as a child process in the foreground with a prefix of its own (its pid, logs and
temporary files in a temporary directory: nothing under /etc/nginx is read or written).

The server block is either the plain one that serves the upstream mirror (``mirror_server``, what
benchmarks/bench_api.py compares /v1 with) or deploy/nginx.conf, the configuration a deployment of the
exported tree uses, with only its ``listen`` and ``root`` lines replaced (``deploy_server``).

Used by tests/test_exportar.py (``Nginx``), by the HTTP builds of tests/test_http_source.py and
tests/test_repositorio.py (``nginx_serving``, ``mirror_differences``) and by the benchmarks (bench_api.start_nginx, through
``write_conf`` and ``nginx_command``)."""

from __future__ import annotations

import http.client
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

from paths import REPO
from servidor_datos import HOST, free_port, start_child, stop_child, wait_answering

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
{extra}    location / {{ try_files $uri/index.json =404; }}
}}
"""


def find_nginx() -> Optional[str]:
    """The nginx binary (Debian puts it in /usr/sbin, outside a user's PATH), or None."""
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:/sbin")


def mirror_server(port: int, root: Path, gzip_static: bool = False) -> str:
    """``gzip_static``: each file's ``.gz`` beside it to clients that accept gzip (deploy/nginx.conf does so)."""
    extra = "    gzip_static on;\n    gzip_vary on;\n" if gzip_static else ""
    return MIRROR_SERVER.format(host=HOST, port=port, root=Path(root).resolve(), extra=extra)


def configured(conf: Path, port: int, **values) -> str:
    """``conf`` listening on HOST:port and with each other directive named given its value (``root=``, the
    ``server=`` of an upstream block): nothing else changed; each directive must be there once."""
    text = conf.read_text()
    for directive, value in {"listen": f"{HOST}:{port}", **values}.items():
        text, found = re.subn(rf"(?m)^(\s*){directive}\s+[^;{{]+;", rf"\g<1>{directive} {value};", text)
        assert found == 1, f"{conf}: se esperaba una línea {directive}, hay {found}"
    return text


def deploy_server(port: int, root: Path) -> str:
    """deploy/nginx.conf listening on HOST:port and serving ``root``: nothing else changed."""
    return configured(DEPLOY_CONF, port, root=Path(root).resolve())


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
        self.proc = start_child(nginx_command(self.nginx, self.prefix, conf), log)

        def output() -> str:
            errors = self.prefix / "error.log"
            return log.read_text(errors="replace") + (errors.read_text(errors="replace") if errors.exists() else "")

        def probe() -> None:
            conn = http.client.HTTPConnection(HOST, self.port, timeout=2)
            conn.request("GET", "/")
            conn.getresponse().read()
            conn.close()

        if wait_answering(self.proc, probe, 30, "nginx", output):
            return self.url
        self.__exit__()
        raise RuntimeError(f"nginx no respondió en {HOST}:{self.port}")

    def __exit__(self, *exc) -> None:
        stop_child(self.proc)
        self._tmp.cleanup()


def nginx_serving(root: Path) -> Nginx:
    """``with nginx_serving(root) as url:`` — ``root`` in upstream's layout; the test is skipped without nginx."""
    import pytest

    nginx = find_nginx()
    if nginx is None:
        pytest.skip("hace falta nginx (scripts/paquetes.sh lo instala)")
    return Nginx(nginx, lambda port: mirror_server(port, root))


def mirror_differences(db: Path, files: Optional[list[Path]] = None) -> list[str]:
    """Each mirror route (of ``files``, by default all) whose /v1 answer on ``db`` is not exactly its file
    (compared as tests/test_conformance.py does)."""
    import sqlite3

    import orjson
    from paths import UPSTREAM
    from test_conformance import MIRROR_FILES, answer_difference

    from argentina_datos.web.v1.api import V1

    assert len(MIRROR_FILES) > 100
    failures = []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        api = V1()
        for path in MIRROR_FILES if files is None else files:
            route = "/" + str(path.parent.relative_to(UPSTREAM))
            response = api.compute(conn, route)
            diff = answer_difference(route, response.status, response.body, orjson.loads(path.read_bytes()))
            if diff:
                failures.append(diff)
    return failures
