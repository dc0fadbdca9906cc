"""Datasette plugin: Datasette's error pages, answered quickly and never as a 500 by accident.

Datasette 0.65's own handler prints a traceback with every local variable through `rich` before
answering: 0.5 s of work on the event loop (everyone waits) and 17 KB of log per 404, and outside an
`except` block rich refuses and raises, so an unknown page like /a/b/c/d/e/f became a bare 500.
This handler answers the same pages (HTML, or JSON for a `.json` path) without that, and keeps a
traceback in the log only for real bugs.
"""

import difflib
import json
import logging
import sqlite3
from typing import Optional

from datasette import Response, hookimpl
from datasette.database import QueryInterrupted
from datasette.utils import add_cors_headers
from datasette.utils.asgi import Base400
from datasette.views.base import DatasetteError
from markupsafe import Markup

from argentina_datos.respuestas.responder import unreadable, unreadable_message
from argentina_datos.web.complementos.descarga import ClientGone
from argentina_datos.web.complementos.memoria import ResultTooLarge

DEFAULT_HANDLER = "datasette.handle_exception"
log = logging.getLogger("argentina_datos.errores")


def status_and_message(exception):
    if isinstance(exception, Base400):
        return exception.status, {}, exception.args[0] if exception.args else "", None
    if isinstance(exception, DatasetteError):
        # In Datasette 0.65 the errors left at the default status 500 all refuse the request itself
        # (an unknown `_sort` column, `_sort` with `_sort_desc`, a `_through` without a foreign key).
        status = 400 if exception.status == 500 else exception.status
        message = Markup(exception.message) if exception.message_is_html else exception.message
        return status, dict(exception.error_dict), message, exception.title
    if isinstance(exception, json.JSONDecodeError):
        # Datasette parses JSON only from the request there (a column__in=[...] filter, a _facet or
        # _through config), and unchecked.
        return 400, {}, f"un parámetro del pedido no es JSON válido: {exception}", None
    if isinstance(exception, OverflowError) or (
        isinstance(exception, ValueError) and str(exception).startswith("invalid literal for int()")
    ):
        # A number from the request that Datasette converts unchecked: a _timelimit that is not one,
        # a filter value (id__gt=99999999999999999999) too big for SQLite's 64-bit integers.
        return 400, {}, f"un número del pedido no es válido: {exception}", None
    if isinstance(exception, ResultTooLarge) or (
        isinstance(exception, sqlite3.DataError) and str(exception) == "string or blob too big"
    ):
        # The bounds of complementos/memoria.py: what the request asked for does not fit.
        return 400, {}, f"la consulta pide demasiado: {exception}", None
    if isinstance(exception, sqlite3.DatabaseError) and unreadable(exception):
        return 503, {}, unreadable_message(exception), None
    if isinstance(exception, sqlite3.ProgrammingError):
        # The SQL Datasette built from the request cannot run: a NUL typed into it (?sql=, _where, a
        # facet's column), or a row URL with fewer key parts than the table's primary key has.
        return 400, {}, f"el pedido no forma una consulta válida: {exception}", "Invalid SQL"
    return 500, {}, str(exception), None


# The page's heading for Datasette's titles (the JSON keeps them).
TITLES = {"Invalid SQL": "SQL inválido", "SQL Interrupted": "La consulta tardó demasiado"}
SUGGESTIONS = 6


def interrupted(exception) -> Optional[QueryInterrupted]:
    """The query that hit the time limit, when Datasette 0.65 turned it into its «SQL Interrupted» error
    (raised while handling it: its context)."""
    cause = exception.__context__
    return cause if isinstance(exception, DatasetteError) and isinstance(cause, QueryInterrupted) else None


def time_limit_message(seconds: float) -> str:
    return (
        f"La consulta tardó más de {seconds:g} s, el límite de tiempo de cada consulta en este sitio, y se "
        "interrumpió. Para que termine a tiempo: filtre por una columna con índice (fecha, o la clave de la tabla: "
        "«where fecha >= '2025-01-01'»), agregue «limit», o lea una tabla resumida (fci_serie en vez de "
        "fci_valores). Para consultas largas, descargue la base y úsela con sqlite3 o pandas, sin límite. "
        "La consulta está abajo para corregirla."
    )


async def suggestions(datasette, request) -> tuple[Optional[str], list[dict]]:
    """For a page that does not exist: the database to go back to, and the names of its tables, views and
    canned queries closest to the one asked for (the database's names, for an unknown database)."""
    parts = [p for p in request.path.split("/") if p]
    if not parts:
        return None, []
    asked = parts[0].removesuffix(".json")
    databases = [name for name in datasette.databases if not name.startswith("_")]
    if asked not in datasette.databases:
        close = _closest(asked, databases)
        return None, [{"name": n, "url": datasette.urls.database(n)} for n in close]
    if len(parts) < 2:
        return asked, []
    db = datasette.get_database(asked)
    hidden = set(await db.hidden_table_names())
    names = [n for n in await db.table_names() if n not in hidden] + await db.view_names()
    names += list((datasette.metadata("queries", database=asked) or {}).keys())
    close = _closest(parts[1], names)
    return asked, [{"name": n, "url": datasette.urls.table(asked, n)} for n in close]


def _closest(asked: str, names: list[str]) -> list[str]:
    """The names that contain what was asked for (shortest first), then the most alike (difflib)."""
    asked = asked.lower()
    containing = sorted((n for n in names if asked and asked in n.lower()), key=len)
    alike = difflib.get_close_matches(asked, names, n=SUGGESTIONS, cutoff=0.6)
    return list(dict.fromkeys(containing + alike))[:SUGGESTIONS]


async def error_response(datasette, request, exception) -> Response:
    if isinstance(exception, ClientGone):
        raise exception  # no one to answer: web/complementos/descarga.py logs it, once
    status, info, message, title = status_and_message(exception)
    if status >= 500:
        # A bug: worth a plain traceback in the log (not rich's, with every local variable).
        log.error("error en %s", request.path, exc_info=exception)
    query = interrupted(exception)
    if query is not None:
        message = time_limit_message(datasette.setting("sql_time_limit_ms") / 1000)
    info.update({"ok": False, "error": message, "status": status, "title": title})
    headers: dict[str, str] = {}
    if datasette.cors:
        add_cors_headers(headers)
    if request.path.split("?")[0].endswith(".json"):
        return Response.json(info, status=status, headers=headers)
    context = dict(
        info,
        titulo=TITLES.get(title, title) if title else f"Error {status}",
        urls=datasette.urls,
        base_url=datasette.setting("base_url"),
        app_css_hash=datasette.app_css_hash(),
        menu_links=lambda: [],
    )
    if query is not None:
        database = request.url_vars.get("database") or next(iter(datasette.databases))
        params = query.params if isinstance(query.params, dict) else {}
        # The query's own :parameters, not Datasette's controls (_timelimit, _shape...): run again, it gets the
        # site's whole time limit.
        named = {k: v for k, v in params.items() if k != "sql" and not k.startswith("_")}
        context.update(sql=query.sql, params=named, database=database)
    if status == 404:
        context["base_de_datos"], context["sugerencias"] = await suggestions(datasette, request)
    template = datasette.jinja_env.select_template([f"{status}.html", "error.html"])
    body = await template.render_async(context)
    return Response.html(body, status=status, headers=headers)


@hookimpl(wrapper=True)
def handle_exception(datasette, request, exception):
    # Datasette awaits every handler's answer and keeps the first: the default one must not even run.
    # Other plugins' handlers keep their precedence; this one takes the default's place, last.
    answers = yield
    answers = [a for a in answers if getattr(a, "__module__", None) != DEFAULT_HANDLER]

    async def answer():
        return await error_response(datasette, request, exception)

    return answers + [answer]


def wrap(datasette, app):
    """This layer around Datasette (the order of the layers is in argentina_datos.web.capas): a file that
    fails under Datasette's own startup queries (its table counts), outside any page's error handler, is
    a 503 too, not a 500 with a traceback."""

    async def unreadable_is_503(scope, receive, send):
        started = False

        async def watching(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await app(scope, receive, watching)
        except sqlite3.DatabaseError as e:
            if scope["type"] != "http" or started or not unreadable(e):
                raise
            log.error("la base no se puede leer en %s: %s", scope.get("path"), e)
            message = unreadable_message(e)
            if scope.get("path", "").endswith(".json"):
                response = Response.json({"ok": False, "error": message, "status": 503, "title": None}, status=503)
            else:
                response = Response.text(f"503: {message}\n", status=503)
            await response.asgi_send(send)

    return unreadable_is_503
