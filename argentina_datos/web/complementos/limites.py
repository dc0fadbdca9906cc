"""Datasette plugin: a bounded cost per table page, and 400s for query parameters Datasette chokes on
(a _facet, a _through or a view's _next it would read unchecked, a row shape asked of a page without
rows: each answered with a 500).

Facets: each one gets Datasette's own time limit (facet_time_limit_ms), so `_facet=vcp` asked 100
times ran 100 queries of 400 ms each on the 850,000 rows of fci_valores (42 s). A page may ask for
at most MAX_FACETS facets, and all the facets of a page (its metadata ones too) share one time budget:
a facet that starts after it is spent is shown as timed out, like any slow facet.
"""

import contextvars
import json
import time
from urllib.parse import parse_qs

from datasette import hookimpl
from datasette.database import QueryInterrupted
from datasette.utils.asgi import BadRequest

from argentina_datos.web.compatibilidad import replace_execute

MAX_FACETS = 5
FACET_BUDGET_MS = 1500
FACET_TYPES = ("_facet", "_facet_array", "_facet_date")

_budget = contextvars.ContextVar("presupuesto_de_facetas", default=None)


class FacetBudget:
    def __init__(self, total_ms: int):
        self.total_ms = total_ms
        self.deadline: float | None = None  # starts with the page's first facet query

    def time_limit(self, per_facet_ms: int) -> int:
        now = time.monotonic()
        if self.deadline is None:
            self.deadline = now + self.total_ms / 1000
        return min(per_facet_ms, int((self.deadline - now) * 1000))


def check_facets(args) -> None:
    # Other _facet_* keys (_facet_size, unknown types) are not facets: Datasette ignores them.
    requested = [(key, value) for key in args if key in FACET_TYPES for value in args.getlist(key)]
    if len(requested) > MAX_FACETS:
        raise BadRequest(f"se pidieron {len(requested)} facetas; el máximo por página es {MAX_FACETS}")
    # Datasette parses every _facet* value that starts with "{" as JSON (even _facet_size's), and
    # then takes a facet's "simple" or "column" key unchecked.
    for key in args:
        if not key.startswith("_facet"):
            continue
        for value in args.getlist(key):
            if not value.startswith("{"):
                continue
            try:
                config = json.loads(value)
            except ValueError:
                raise BadRequest(f"{key}: «{value[:100]}» no es JSON válido") from None
            column = (config.get("column") or config.get("simple")) if isinstance(config, dict) else None
            if key in FACET_TYPES and not isinstance(column, str):
                raise BadRequest(
                    f"{key}: la configuración JSON necesita «column» o «simple» con el nombre de una columna"
                )


def facet_columns(args) -> list[tuple[str, str]]:
    """(parameter, column) of each facet asked for (check_facets has made sure each one names one)."""
    out = []
    for key in FACET_TYPES:
        for value in args.getlist(key):
            config = json.loads(value) if value.startswith("{") else None
            out.append((key, (config.get("column") or config.get("simple")) if config else value))
    return out


async def check_facet_columns(args, datasette, database, table) -> None:
    # Datasette runs a page's facets one after the other: a facet on a column the table lacks raised
    # in the first one and left the others' coroutines never awaited (a RuntimeWarning each), besides
    # answering «no such column» in Datasette's words.
    asked = facet_columns(args)
    if not asked:
        return
    db = datasette.get_database(database)
    columns = set(await db.table_columns(table))
    for key, column in asked:
        if column not in columns:
            raise BadRequest(f"{key}: la tabla {table} no tiene la columna «{column[:100]}»")
        if key == "_facet_array" and not await _holds_json_arrays(db, table, column):
            # Datasette's array facet reads the column with json_each: «malformed JSON», and the same
            # never-awaited coroutine of the page's suggested facets.
            raise BadRequest(f"_facet_array: la columna «{column[:100]}» de {table} no guarda listas JSON")


async def _holds_json_arrays(db, table: str, column: str) -> bool:
    """Whether the column's first values (a thousand at most) are JSON arrays."""
    q = '"' + column.replace('"', '""') + '"'
    t = '"' + table.replace('"', '""') + '"'
    sql = (
        f"SELECT count(*) FROM (SELECT {q} AS v FROM {t} WHERE {q} IS NOT NULL LIMIT 1000) "
        "WHERE NOT json_valid(v) OR json_type(v) <> 'array'"
    )
    return (await db.execute(sql)).first()[0] == 0


def check_through(args) -> None:
    # Datasette reads each _through as a JSON object and indexes "table", "column" and "value" unchecked.
    for value in args.getlist("_through"):
        try:
            config = json.loads(value)
        except ValueError:
            raise BadRequest(f"_through: «{value[:100]}» no es JSON válido") from None
        if not (
            isinstance(config, dict)
            and isinstance(config.get("table"), str)
            and isinstance(config.get("column"), str)
            and "value" in config
        ):
            raise BadRequest('_through debe ser {"table": ..., "column": ..., "value": ...}')


async def check_view_offset(args, datasette, database, table) -> None:
    # A view pages by row offset, and Datasette takes int(_next) unchecked.
    value = args.get("_next")
    if value and await datasette.get_database(database).get_view_definition(table):
        try:
            offset = int(value)
        except ValueError:
            offset = None
        if offset is None or not 0 <= offset < 2**63:  # SQLite's OFFSET is a 64-bit integer
            raise BadRequest(f"_next de una vista es un número de fila, no «{value[:100]}»")


# tryfirst: before Datasette's own filters (registered after the entry-point plugins, so called
# before them otherwise), whose _through parsing fails with a 500 on the values checked here.
@hookimpl(tryfirst=True)
def filters_from_request(request, database, table, datasette):
    # Called by every table page before its queries run: the place where an exception becomes
    # Datasette's own 400 page (HTML, or JSON for .json).
    async def inner():
        check_facets(request.args)
        await check_facet_columns(request.args, datasette, database, table)
        check_through(request.args)
        await check_view_offset(request.args, datasette, database, table)
        # The facet queries run in tasks started from this page's task, and inherit this value.
        _budget.set(FacetBudget(FACET_BUDGET_MS))
        return None

    return inner


@hookimpl
def startup(datasette):
    if getattr(datasette, "_presupuesto_de_facetas", False):
        return
    datasette._presupuesto_de_facetas = True

    def within_budget(execute):
        async def execute_within_budget(db_name, sql, params=None, truncate=False, custom_time_limit=None, **kwargs):
            budget = _budget.get()
            # Datasette's facets (and only they) ask for exactly facet_time_limit_ms.
            facet_limit = datasette.setting("facet_time_limit_ms")
            if budget is not None and custom_time_limit == facet_limit:
                custom_time_limit = budget.time_limit(facet_limit)
                if custom_time_limit <= 0:  # 0 would mean no custom limit at all
                    raise QueryInterrupted(None, sql, params)
            return await execute(db_name, sql, params, truncate=truncate, custom_time_limit=custom_time_limit, **kwargs)

        return execute_within_budget

    replace_execute(datasette, within_budget)


async def send_json_error(send, status: int, message: str) -> None:
    body = json.dumps({"ok": False, "error": message, "status": status, "title": None}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def wrap(datasette, app):
    """This layer around `app` (the order of the layers is in argentina_datos.web.capas)."""

    async def rows_only_where_there_are_rows(scope, receive, send):
        # The database page's JSON (/argentina.json without ?sql=) has no rows, and Datasette's
        # renderer looks them up anyway for _shape=array and arrayfirst.
        path = scope.get("path", "") if scope["type"] == "http" else ""
        if path.endswith(".json") and path.count("/") == 1 and path[1:-5] in datasette.databases:
            args = parse_qs(scope.get("query_string", b"").decode("latin1"))
            if "sql" not in args and set(args.get("_shape", ())) & {"array", "arrayfirst"}:
                return await send_json_error(
                    send, 400, "_shape=array y arrayfirst necesitan filas: la página de la base no las tiene sin ?sql="
                )
        return await app(scope, receive, send)

    return rows_only_where_there_are_rows
