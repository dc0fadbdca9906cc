"""Datasette plugin: a bounded cost per table page, and 400s for query parameters Datasette chokes on.

Facets: each one gets Datasette's own time limit (facet_time_limit_ms), so `_facet=vcp` asked 100
times ran 100 queries of 400 ms each on the 850,000 rows of fci_valores (42 s). A page may ask for
at most MAX_FACETS facets, and all the facets of a page (its metadata ones too) share one time budget:
a facet that starts after it is spent is shown as timed out, like any slow facet.
"""
import contextvars
import json
import time

from datasette import hookimpl
from datasette.database import QueryInterrupted
from datasette.utils.asgi import BadRequest

MAX_FACETS = 5
FACET_BUDGET_MS = 1500
FACET_TYPES = ("_facet", "_facet_array", "_facet_date")

_budget = contextvars.ContextVar("presupuesto_de_facetas", default=None)


class FacetBudget:
    def __init__(self, total_ms: int):
        self.total_ms = total_ms
        self.deadline = None  # starts with the page's first facet query

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
    for key, value in requested:
        if value.startswith("{"):
            # Datasette reads a JSON config and then takes its "simple" or "column" key unchecked.
            try:
                config = json.loads(value)
            except ValueError:
                raise BadRequest(f"{key}: «{value[:100]}» no es JSON válido") from None
            column = (config.get("column") or config.get("simple")) if isinstance(config, dict) else None
            if not isinstance(column, str):
                raise BadRequest(f"{key}: la configuración JSON necesita «column» o «simple» con el nombre de una columna")


def check_time_limit(args) -> None:
    value = args.get("_timelimit")
    if value is not None and not value.isdigit():
        raise BadRequest(f"_timelimit debe ser un número entero de milisegundos, no «{value[:100]}»")


@hookimpl
def filters_from_request(request, database, table, datasette):
    # Called by every table page before its queries run: the place where an exception becomes
    # Datasette's own 400 page (HTML, or JSON for .json).
    check_facets(request.args)
    check_time_limit(request.args)
    # The facet queries run in tasks started from this one, which inherit this value.
    _budget.set(FacetBudget(FACET_BUDGET_MS))
    return None


@hookimpl
def startup(datasette):
    if getattr(datasette, "_presupuesto_de_facetas", False):
        return
    datasette._presupuesto_de_facetas = True
    execute = datasette.execute

    async def execute_within_budget(db_name, sql, params=None, truncate=False, custom_time_limit=None,
                                    **kwargs):
        budget = _budget.get()
        # Datasette's facets (and only they) ask for exactly facet_time_limit_ms.
        facet_limit = datasette.setting("facet_time_limit_ms")
        if budget is not None and custom_time_limit == facet_limit:
            custom_time_limit = budget.time_limit(facet_limit)
            if custom_time_limit <= 0:  # 0 would mean no custom limit at all
                raise QueryInterrupted(None, sql, params)
        return await execute(db_name, sql, params, truncate=truncate, custom_time_limit=custom_time_limit,
                             **kwargs)

    datasette.execute = execute_within_budget
