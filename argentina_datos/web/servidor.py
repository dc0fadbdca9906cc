"""How the database is served: the Datasette settings the tests and `serve-datos` share."""

from __future__ import annotations

import argparse
import errno
import os
import secrets
import socket
import sys
from pathlib import Path
from typing import Optional

from argentina_datos.almacen import archivo
from argentina_datos.documentacion.metadatos import DATABASE as DATABASE_NAME
from argentina_datos.web import registro
from argentina_datos.web.compatibilidad import serve_file, served_datasette_class
from argentina_datos.web.complementos import salud, turnos
from argentina_datos.web.v1.api import DEFAULT_MAX_AGE, MAX_AGE_ENV, max_age_setting

SETTINGS = {
    "sql_time_limit_ms": 3000,
    "max_returned_rows": 5000,
    "default_page_size": 100,
    "facet_time_limit_ms": 400,
    # The pages' turns and those of the SQL users write, one thread each (web/complementos/turnos.py):
    # a page's queries never wait behind a user's 3-second query.
    "num_sql_threads": turnos.TURNS + turnos.SQL_TURNS,
    "default_cache_ttl": 3600,
    "allow_download": True,
    "allow_csv_stream": True,
    # Suggesting facets probes every column: 2.3 s per page of the 850,000-row fci_valores, 0.17 s
    # without. Facets set in metadata.yml still show, and any column can be faceted from its menu.
    "suggest_facets": False,
}


def datasette_for(db_path, **kwargs):
    """A Datasette instance configured exactly as `serve-datos` runs it (for tests and scripts)."""
    from argentina_datos.documentacion import metadatos

    # The plugins come with the package (entry points in pyproject.toml): Datasette loads them itself.
    ds = served_datasette_class()(immutables=[str(db_path)], metadata=metadatos.load(), settings=SETTINGS, **kwargs)
    # metadata.yml (descriptions, canned queries) is keyed by database name, which Datasette takes
    # from the file stem: serve any file (build/argentina-test.db too) under the one name it documents.
    ds.remove_database(Path(db_path).stem)
    serve_file(ds, str(db_path), DATABASE_NAME)
    return ds


DB_ENV = "ARGENTINA_DATOS_SERVE_DB"
SECRET_ENV = "DATASETTE_SECRET"


def app():
    """The ASGI app `serve-datos` runs: one per worker process, each with its own response cache.
    The workers share one signing secret, so a cookie or CSRF token signed by one is valid in all."""
    _log_to_stderr()
    return datasette_for(os.environ[DB_ENV], secret=os.environ.get(SECRET_ENV)).app()


def _log_to_stderr() -> None:
    """The package's own lines (a switch to a new build, a refused file, a download cut short) with their
    time and level, INFO included: without a handler, Python printed only warnings, bare."""
    import logging

    logger = logging.getLogger("argentina_datos")
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False


SERVERS = ("granian", "uvicorn")
SERVER_ENV = "ARGENTINA_DATOS_SERVER"
APP = "argentina_datos.web.servidor:app"


def run_granian(args) -> None:
    # granian (an HTTP server written in Rust) answered the 2 KB /v1 route at twice uvicorn's rate on
    # this machine, and every other route as fast or faster (benchmarks/bench_api.py --servers,
    # docs/velocidad.md). It enforces the head limits itself, with an empty body: web/complementos/cabeza.py.
    from granian import Granian
    from granian.constants import Interfaces

    Granian(
        APP,
        address=args.host,
        port=args.port,
        interface=Interfaces.ASGI,  # with lifespan: Datasette's startup hooks run before the first request
        factory=True,
        workers=args.workers,
        websockets=False,
        log_access=args.access_log,
    ).serve()


def run_uvicorn(args) -> None:
    import uvicorn

    from argentina_datos.web.protocolo import LimitedHeadProtocol

    uvicorn.run(
        APP,
        factory=True,
        host=args.host,
        port=args.port,
        http=LimitedHeadProtocol,
        workers=args.workers,
        access_log=args.access_log,
        lifespan="on",
        log_level="info",
    )


def port_in_use(host: str, port: int) -> Optional[str]:
    """Why the port cannot be taken, if it cannot.  granian binds with SO_REUSEPORT, so a second server
    on a port already served started without error and the kernel split the requests between the two
    (and their databases): a plain bind, without that option, tells."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As the servers do: connections of a server that just stopped (TIME_WAIT) do not hold the port.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                return "el puerto ya está en uso (¿otro serve-datos?); elija otro con --port"
            return e.strerror or str(e)
    return None


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="serve-datos", description="Sirve la base con Datasette y la API /v1.")
    p.add_argument("db", nargs="?", default="argentina.db", help="archivo SQLite (por defecto %(default)s)")
    p.add_argument(
        "--host", default="127.0.0.1", help="dirección donde escuchar (por defecto %(default)s; 0.0.0.0: todas)"
    )
    p.add_argument("--port", type=int, default=8001, help="puerto donde escuchar (por defecto %(default)s)")
    p.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("ARGENTINA_DATOS_WORKERS", "1")),
        help="procesos que atienden pedidos (por defecto %(default)s; $ARGENTINA_DATOS_WORKERS)",
    )
    p.add_argument(
        "--server",
        choices=SERVERS,
        default=os.environ.get(SERVER_ENV, SERVERS[0]),
        help="servidor HTTP (por defecto %(default)s; $" + SERVER_ENV + "); uvicorn responde con el JSON de "
        "error de /v1 también los pedidos que rechaza su parser HTTP",
    )
    p.add_argument("--access-log", action="store_true", help="registrar cada pedido (más lento)")
    p.add_argument(
        "--max-age",
        default=os.environ.get(MAX_AGE_ENV, str(DEFAULT_MAX_AGE)),
        help="segundos que un cliente o una CDN puede reusar una respuesta de /v1 sin preguntar (Cache-Control; "
        "por defecto %(default)s; $" + MAX_AGE_ENV + ")",
    )
    p.add_argument(
        "--log-json",
        action="store_true",
        help="registrar cada pedido como una línea JSON en la salida de errores (hora, método, ruta con la "
        "consulta, estado, bytes, ms, agente, cliente), en lugar del registro del servidor HTTP",
    )
    p.add_argument(
        "--edad-maxima",
        type=float,
        metavar="HORAS",
        help="/-/salud.json responde 503 cuando los datos tienen más de HORAS horas (por defecto, nunca)",
    )
    args = p.parse_args(argv)
    os.environ[MAX_AGE_ENV] = str(args.max_age)
    try:
        max_age_setting()
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    bad = archivo.problem(args.db)
    if bad:
        print(f"error: {args.db}: {bad}", file=sys.stderr)
        return 1
    if args.workers < 1:
        print(f"error: --workers debe ser 1 o más, no {args.workers}", file=sys.stderr)
        return 1
    if args.server not in SERVERS:  # argparse does not check a default taken from the environment
        print(f"error: ${SERVER_ENV} debe ser {' o '.join(SERVERS)}, no {args.server!r}", file=sys.stderr)
        return 1
    taken = port_in_use(args.host, args.port)
    if taken:
        print(f"error: no se puede escuchar en {args.host}:{args.port}: {taken}", file=sys.stderr)
        return 1
    # The server itself rather than `datasette serve`: no per-request access log (a large share of a
    # cached /v1 answer's cost), several workers. Each worker builds the app from these variables.
    os.environ[DB_ENV] = str(Path(args.db).resolve())
    os.environ.setdefault(SECRET_ENV, secrets.token_hex(32))
    if args.log_json:
        os.environ[registro.ENV] = "1"
        args.access_log = False
    if args.edad_maxima is not None:
        os.environ[salud.MAX_AGE_ENV] = str(args.edad_maxima)
    (run_granian if args.server == "granian" else run_uvicorn)(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
