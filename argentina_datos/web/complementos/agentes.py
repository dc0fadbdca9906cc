"""Datasette plugin: what a language model reads and calls: ``/llms.txt`` (documentacion/llms.py) and the MCP
tools of this service, on datasette-mcp's ``/-/mcp`` endpoint.

datasette-mcp serves MCP over Streamable HTTP with its own tools (the read-only SQL, under Datasette's
time limit and row cap, and the canned queries: ``canned_queries`` in metadata.yml); this module adds, through
its ``register_mcp_tools`` hook, the tools that ask /v1: the series catalogue, several series side by side and
any /v1 route.  Each one asks /v1 itself (``datasette.client``, through the same layers as a request from
outside), so a tool answers exactly what the API answers, and a bad argument is a tool error carrying the
API's own Spanish message.

A model reads the whole of a tool's answer, and clients refuse one over about 100 KB: no answer of any tool
here passes ``MAX_ANSWER_BYTES``.  A longer one keeps its first rows, and its first line says that it was cut,
how much was left out and how to ask for the rest (``fitted``).  datasette-mcp 0.3 has no option for that, nor
for its server's instructions and version: ``adapt_datasette_mcp`` sets them, the one place that reaches into
the SDK's server (tests/test_mcp.py checks it through the SDK's client).
"""

from __future__ import annotations

import functools
import inspect
import logging
import posixpath
import sqlite3
from typing import Annotated, Any, Callable, Optional, Union
from urllib.parse import urlencode, urlsplit

import httpx
import orjson
from datasette import Response, hookimpl
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from argentina_datos import __version__
from argentina_datos.almacen.calidad import series_label
from argentina_datos.almacen.propias import CALIDAD, CONSTRUCCION
from argentina_datos.documentacion import llms
from argentina_datos.documentacion.llms import CUT, MAX_ANSWER_BYTES, dotted
from argentina_datos.documentacion.metadatos import DATABASE
from argentina_datos.respuestas import frescura
from argentina_datos.respuestas.catalogo_series import DATA_PATH, LIST_PATH, MARK, today
from argentina_datos.respuestas.rutas import OPENAPI_PATH, Router

NOTE_BYTES = 1_000  # room kept for the first line of a cut answer
LIMITS = (
    f"Ninguna respuesta pasa de {dotted(MAX_ANSWER_BYTES)} bytes"
    + ": una más larga llega recortada (sus primeras filas) y su primera línea empieza con «"
    + CUT
    + "» y dice cuánto falta y cómo pedirlo."
)
SERIES_PAGE = 20  # series per page of buscar_series, by default: a catalogue entry is about 700 bytes
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
PERIOD = "AAAA-MM-DD, AAAA-MM o AAAA"
GROUPED_DAY = (
    "en una fila agrupada, fecha es el primer día del período; con funcion=maximo, minimo, primero o ultimo, "
    "«id:fecha» (en /v1, fecha<Medida>: fechaValor, fechaVenta) es el día del que viene el valor"
)
INSTRUCTIONS = (
    "Datos públicos de Argentina (réplica de la API de ArgentinaDatos): cotizaciones del dólar y otras monedas, "
    "inflación, UVA, riesgo país, tasas y plazos fijos, fondos comunes, bonos, REM (expectativas), feriados, "
    "Senado y Diputados. "
    '1) Para una serie de tiempo (un valor por fecha): buscar_series(q="dólar mep") da su id, y '
    "datos_series(ids=[...], desde, hasta, agrupar, funcion, ajustar) sus valores, una fila por fecha; "
    "calidad_de_serie(id) dice qué puntos pone en duda la auditoría; historia_de_dato(id, fecha), cada valor que "
    "tuvo un dato y cuándo se publicó. "
    "2) Para una ruta de la API /v1 (un día de una cotización, el último REM, los feriados de un año, los "
    'senadores): consultar_api(ruta=...); consultar_api(ruta="/v1") lista las rutas. Con fecha= una lista da su '
    "valor de ese día, mes o año; con publicado=AAAA-MM-DD, lo que upstream había publicado ese día. "
    "3) Sólo si eso no alcanza, SQL de sólo lectura: get_database_schema, execute_sql, list_canned_queries y "
    "execute_canned_query. "
    f"Fechas AAAA-MM-DD; {GROUPED_DAY}. {LIMITS} Más en /llms.txt."
)


async def ask_v1(datasette, path: str, params: Optional[dict[str, Any]] = None) -> httpx.Response:
    """``path`` with ``params`` as /v1 answers it (an httpx response with status 200), or a tool error with the
    API's message."""
    query = urlencode({k: v for k, v in (params or {}).items() if v is not None})
    url = path + ("?" + query if query else "") if params is not None else path
    response = await datasette.client.get(url)
    if response.status_code != 200:
        try:
            message = orjson.loads(response.content)["mensaje"]
        except (orjson.JSONDecodeError, KeyError, TypeError):
            message = response.text[:500]
        raise ToolError(message)
    return response


def text_result(text: str, structured: Optional[dict] = None) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured)


def _json(data: Any) -> str:
    return orjson.dumps(data).decode()


def fitted(
    text: str,
    data: Any,
    rows_at: Callable[[Any], Optional[list]],
    framed: Callable[[Any, list], Any],
    rest: Callable[[list, list], str],
    render: Callable[[Any], str] = _json,
) -> tuple[str, Any]:
    """``text`` (the answer ``data``, written) if it fits in MAX_ANSWER_BYTES; else a first line that says it was
    cut (how many rows of how many, and ``rest(kept, left)``: how to ask for the others) and, written by ``render``,
    the answer with the first rows of its list (``rows_at(data)``) that fit (``framed(data, rows)``).  Also the
    answer as given (``data`` or the cut one)."""
    size = len(text.encode())
    if size <= MAX_ANSWER_BYTES:
        return text, data
    rows = rows_at(data) or []
    budget = MAX_ANSWER_BYTES - NOTE_BYTES - len(render(framed(data, [])).encode())
    kept = 0
    for row in rows:
        budget -= len(render([row]).encode()) + 1
        if budget < 0:
            break
        kept += 1
    answer = framed(data, rows[:kept])
    note = (
        f"{CUT} a {dotted(MAX_ANSWER_BYTES)} bytes (la entera tiene {dotted(size)}): van las primeras "
        f"{dotted(kept)} de {dotted(len(rows))} filas; faltan {dotted(len(rows) - kept)}. "
        + rest(rows[:kept], rows[kept:])
    )
    return note + "\n" + render(answer), answer


def fitted_list(answer: dict, key: str, rest: Callable[[list, list], str]) -> tuple[str, Any]:
    """``fitted`` for an answer whose rows are its list ``key``."""
    return fitted(_json(answer), answer, lambda a: a[key], lambda a, rows: {**a, key: rows}, rest)


def _rows_key(data: dict) -> Optional[str]:
    """Where an object's rows are: its longest list (bonos-cer's ``bonos``, /v1/series/datos's ``datos``)."""
    lists = [k for k, v in data.items() if isinstance(v, list)]
    return max(lists, key=lambda k: len(data[k])) if lists else None


def _rows(data: Any) -> Optional[list]:
    """The rows of a /v1 answer: the list itself, or the rows of an object."""
    if isinstance(data, list):
        return data
    key = _rows_key(data) if isinstance(data, dict) else None
    return data[key] if key is not None else None


def _with_rows(data: Any, rows: list) -> Any:
    if isinstance(data, list):
        return rows
    key = _rows_key(data)
    return {**data, key: rows} if key is not None else data


def _day(row: Any) -> Optional[str]:
    day = row.get("fecha") if isinstance(row, dict) else None
    return day[:10] if isinstance(day, str) else None


def _next_day(kept: list, left: list) -> Optional[str]:
    """The day to go on from: the first row's left out, if the rows are in order of date up to it (desde= then
    gives the rest; a list in another order has none)."""
    days = [d for r in [*kept, *left[:1]] if (d := _day(r)) is not None]
    if not left or len(days) != len(kept) + 1 or any(a > b for a, b in zip(days, days[1:])):
        return None
    return days[-1]


def fitted_v1(response: httpx.Response, rest: Callable[[Optional[str]], str]) -> str:
    """A /v1 answer that fits: its JSON (or CSV) as /v1 gives it, or its first rows with the line that says so;
    ``rest(day)``: how to ask for the rest, from the ``day`` of the first row left out (None: it has none)."""
    text = response.text
    if len(response.content) <= MAX_ANSWER_BYTES:
        return text
    if not response.headers.get("content-type", "").startswith("application/json"):  # CSV: a header, then rows
        lines = text.splitlines()
        return fitted(
            text, lines, lambda d: d[1:], lambda d, rows: d[:1] + rows, lambda kept, left: rest(None), "\n".join
        )[0]
    data = orjson.loads(response.content)
    return fitted(text, data, _rows, _with_rows, lambda kept, left: rest(_next_day(kept, left)))[0]


def quality_of(data: dict, series_id: str) -> dict:
    """``/v1/series/datos?ids=<id>&marcar=calidad`` summed up for a model: the series, its points that a finding
    doubts (with the checks), how many points there are, and the SQL that lists its findings in ``calidad``."""
    entry, rows = data["series"][0], data["datos"]
    mark = f"{series_id}:{MARK}"
    doubted = [{"fecha": r["fecha"], "valor": r[series_id], "controles": r[mark]} for r in rows if r.get(mark)]
    serie = series_label(list(entry["filtro"]), list(entry["filtro"].values()))
    where = f"tabla = '{entry['tabla']}' AND " + (f"serie = '{serie}'" if serie else "serie IS NULL")
    return {
        "serie": entry,
        "puntos": len(rows),
        "puntos_dudosos": doubted,
        "sql_hallazgos": f"SELECT control, fecha, hasta, campo, detalle FROM {CALIDAD.name} WHERE {where} ORDER BY fecha",
    }


def v1_path(ruta: str) -> str:
    """A /v1 route as a caller may write it (``feriados/2025``, ``/v1/...``, upstream's full URL) as this
    server's path with its query; a ToolError for anything outside /v1."""
    parts = urlsplit(ruta.strip())
    path = parts.path if parts.path.startswith("/") else "/" + parts.path
    if path.lower() != "/v1" and not path.lower().startswith("/v1/"):
        path = "/v1" + path
    if posixpath.normpath(path) != path.rstrip("/") or "//" in path:
        raise ToolError(f'«{ruta[:200]}» no es una ruta de /v1 (sin «..» ni «//»); consultar_api(ruta="/v1") las lista')
    return path + ("?" + parts.query if parts.query else "")


@functools.cache
def routes_text() -> str:
    """What ``consultar_api(ruta="/v1")`` answers: every /v1 route, what it answers and an example (10 KB, where
    the OpenAPI document is half a megabyte)."""
    return "\n".join(
        [
            "Las rutas de /v1 (pídalas con consultar_api; sus parámetros de consulta, en la descripción de "
            "consultar_api y en /llms.txt):",
            *llms.route_lines(Router()),
        ]
    )


@functools.lru_cache(maxsize=4)
def llms_txt(freshness: tuple[str, ...] = ()) -> bytes:
    """Written from the catalogue, and from how fresh the served data is (which changes with a new build)."""
    return llms.llms_txt(freshness=freshness).encode()


async def freshness(datasette) -> tuple[str, ...]:
    """How fresh the served database's data is, for /llms.txt: when it was built, each main dataset's last
    observation against its cadence (respuestas/frescura.py, as /-/salud.json) and the others' last dates."""
    if DATABASE not in datasette.databases:
        return ()
    on = today()
    db = datasette.get_database(DATABASE)
    try:
        datasets = await db.execute_fn(lambda conn: frescura.by_dataset(conn, on))
        built = (await db.execute(f"SELECT valor FROM {CONSTRUCCION.name} WHERE clave = 'construido'")).first()
    except sqlite3.Error:
        return ()
    others = [f"{d.conjunto} ({d.hasta[:10] if d.hasta else 'sin datos'})" for d in datasets if not d.principal]
    return (
        f"Base construida el {built[0] if built else '(sin fecha)'}; el último dato de cada conjunto al {on}:",
        *(f"- {frescura.describe(d)}" for d in datasets if d.principal),
        *([f"- los demás, su último dato: {', '.join(others)}"] if others else []),
    )


async def llms_view(datasette):
    return Response(llms_txt(await freshness(datasette)), content_type="text/plain; charset=utf-8")


@hookimpl
def register_routes():
    return [(r"^/llms\.txt$", llms_view)]


# ---- datasette-mcp's tools, within the limit ----------------------------------------------------
def _sql_rest(kept: list, left: list) -> str:
    return (
        f"Para seguir, repita la consulta con LIMIT {len(kept)} OFFSET {len(kept)} (y ORDER BY, para un orden fijo); "
        "o pida menos: las columnas que necesita, un WHERE, un GROUP BY."
    )


def _canned_rest(kept: list, left: list) -> str:
    return (
        "Acote con los parámetros de la consulta (list_canned_queries los dice: desde, hasta...), o corra su SQL "
        f"(list_canned_queries lo muestra) con execute_sql y LIMIT {len(kept)} OFFSET {len(kept)}."
    )


def _capped(answer: dict) -> str:
    """What an answer whose SQL gave more rows than Datasette returns (its max_returned_rows) says of it."""
    return f"La consulta da más de {dotted(len(answer['rows']))} filas, las que Datasette devuelve como máximo. "


def _limited_rows(original: Callable, rest: Callable[[list, list], str]) -> Callable:
    """A tool of datasette-mcp's that answers ``{database, columns, rows, truncated}``, within the limit."""

    @functools.wraps(original)
    async def tool(*args, **kwargs) -> CallToolResult:
        answer = await original(*args, **kwargs)
        capped = _capped(answer) if answer["truncated"] else ""  # more rows than Datasette returns
        text, cut = fitted_list(answer, "rows", lambda kept, left: capped + rest(kept, left))
        if cut is answer and capped:
            text = f"{CUT}: {capped}Para el resto, LIMIT/OFFSET en el SQL; o pida menos (WHERE, GROUP BY).\n{text}"
        return text_result(text, {**cut, "truncated": cut["truncated"] or cut is not answer})

    return tool


def _limited_list(original: Callable, key: str, rest: str) -> Callable:
    """A tool of datasette-mcp's that answers an object with one list (``key``), within the limit."""

    @functools.wraps(original)
    async def tool(*args, **kwargs) -> CallToolResult:
        answer = await original(*args, **kwargs)
        text, cut = fitted_list(answer, key, lambda kept, left: rest)
        return text_result(text, cut)

    return tool


def _schema(datasette, original: Callable) -> Callable:
    """get_database_schema without the tables Datasette hides (full-text indexes and their shadow tables,
    sqlite_stat...) nor triggers: the tables, views and indexes a query can use, within the limit."""

    @functools.wraps(original)
    async def tool(database: str, ctx) -> CallToolResult:
        await original(database, ctx)  # its checks: a database that exists, that the caller may see
        db = datasette.databases[database]
        hidden = set(await db.hidden_table_names())
        rows = await db.execute(
            "SELECT tbl_name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND type IN ('table', 'view', 'index') "
            "ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 1 ELSE 2 END, tbl_name, name"
        )
        statements = [r["sql"].rstrip().rstrip(";") + ";" for r in rows.rows if r["tbl_name"] not in hidden]
        answer = {"database": database, "schema": "\n".join(statements)}
        text, cut = fitted(
            orjson.dumps(answer).decode(),
            statements,
            lambda s: s,
            lambda s, kept: {"database": database, "schema": "\n".join(kept)},
            lambda kept, left: "Las otras: execute_sql con SELECT sql FROM sqlite_master WHERE name = '<tabla>'.",
            lambda s: orjson.dumps(s if isinstance(s, dict) else "\n".join(s)).decode(),
        )
        return text_result(text, cut if isinstance(cut, dict) else answer)

    return tool


DESCRIPTIONS = {
    "execute_sql": (
        "Corre una consulta SQL de sólo lectura (SQLite) y da sus filas, cada una con sus columnas. Para series y "
        "rutas de la API, mejor buscar_series/datos_series/consultar_api. Datasette corta la consulta a los 3 "
        "segundos y a las 5.000 filas. "
        + LIMITS
        + ' Ejemplo: execute_sql(database="argentina", sql="SELECT fecha, valor FROM riesgo_pais ORDER BY '
        'valor DESC LIMIT 3").'
    ),
    "execute_canned_query": (
        "Corre una consulta guardada (list_canned_queries las lista, con sus parámetros; todos opcionales) y da sus "
        "filas. " + LIMITS + ' Ejemplo: execute_canned_query(database="argentina", query="brecha_cambiaria", '
        'parameters={"desde": "2025-01-01"}).'
    ),
    "get_database_schema": (
        "El esquema SQL de la base (CREATE TABLE, VIEW e INDEX), sin las tablas internas de los índices de texto "
        "(…_fts): cada tabla y sus columnas, para escribir el SQL de execute_sql. " + LIMITS
    ),
    "list_canned_queries": (
        "Las consultas guardadas (brecha cambiaria, inflación acumulada, el dólar de una casa...), cada una con su "
        "descripción, su SQL y sus parámetros; se corren con execute_canned_query. " + LIMITS
    ),
    "list_databases": "Las bases de este Datasette: una, «argentina», la de los datos.",
}
DATABASE_ARGUMENT = "la base: «argentina» (list_databases)"
ARGUMENTS = {  # what each argument of datasette-mcp's tools takes, which it does not say
    "execute_sql": {"database": DATABASE_ARGUMENT, "sql": "una sola consulta SELECT (o WITH ... SELECT) de SQLite"},
    "execute_canned_query": {
        "database": DATABASE_ARGUMENT,
        "query": "el nombre de la consulta (list_canned_queries)",
        "parameters": "sus parámetros por nombre; los que falten toman su valor por omisión",
    },
    "get_database_schema": {"database": DATABASE_ARGUMENT},
    "list_canned_queries": {"database": "sólo las de esta base (por omisión, todas)"},
}
WRITE_TOOLS = ("execute_writable_canned_query",)  # nothing here writes: the service is read-only


def adapt_datasette_mcp(datasette, mcp) -> None:
    """datasette-mcp's server as this service's: its name, version and instructions (series and /v1 before SQL),
    no tool that writes, and its SQL tools within the size limit, described in Spanish.  datasette-mcp 0.3 sets
    none of this (it names the server «datasette», without a version), so it is set on the SDK's objects here."""
    server = mcp._lowlevel_server
    server.name, server.version, server.instructions = "argentina-datos", __version__, INSTRUCTIONS
    manager = mcp._tool_manager
    for name in WRITE_TOOLS:
        if manager.get_tool(name) is not None:
            mcp.remove_tool(name)
    wrapped = {
        "execute_sql": lambda f: _limited_rows(f, _sql_rest),
        "execute_canned_query": lambda f: _limited_rows(f, _canned_rest),
        "get_database_schema": lambda f: _schema(datasette, f),
        "list_canned_queries": lambda f: _limited_list(f, "queries", "Pida las de una base (database)."),
    }
    for name, description in DESCRIPTIONS.items():
        tool = manager.get_tool(name)
        if tool is None:  # canned queries off in metadata.yml
            continue
        tool.description = description
        for argument, says in ARGUMENTS.get(name, {}).items():
            tool.parameters["properties"][argument]["description"] = says
        if name in wrapped:
            tool.fn = wrapped[name](tool.fn)


# ---- this service's tools ------------------------------------------------------------------------
@hookimpl(trylast=True)  # after datasette-mcp's own hook: adapt_datasette_mcp changes its tools
def register_mcp_tools(datasette, mcp):
    # The MCP SDK's server sets the root logger to INFO, which would log every request a tool makes to /v1
    # (httpx's INFO line) besides the request itself (web/registro.py, with --log-json).
    logging.getLogger("httpx").setLevel(logging.WARNING)
    adapt_datasette_mcp(datasette, mcp)

    def agent_tool(fn):
        """A tool of this service: read-only, its docstring and the size limit its description."""
        return mcp.tool(annotations=READ_ONLY, description=inspect.cleandoc(fn.__doc__ or "") + " " + LIMITS)(fn)

    @agent_tool
    async def buscar_series(
        q: Annotated[
            str,
            Field(description="palabras a buscar en el nombre, el tema y la descripción: «dólar blue», «mep», «ipc»"),
        ],
        tema: Annotated[
            Optional[str], Field(description="sólo las de un tema: cotizaciones, indices, tasas, rem, fci, ...")
        ] = None,
        pagina: Annotated[Optional[int], Field(description="la página de resultados: 1, 2, ...")] = None,
        limite: Annotated[
            Optional[int], Field(description=f"series por página: {SERIES_PAGE} por omisión, hasta 100")
        ] = None,
    ) -> CallToolResult:
        """Busca en el catálogo de series (GET /v1/series?q=...), las más parecidas primero; conoce los nombres
        comunes (mep, ccl, ipc, tarjeta, plazo fijo). Da cada serie con su id (lo que toma datos_series), nombre,
        unidad, tipo (nivel, tasa...), frecuencia, primer y último dato y si está atrasada. Da 20 por página; si
        hay más, la primera línea lo dice (pagina=2). Ejemplo: buscar_series(q="riesgo país") →
        [{"id": "riesgo_pais", ...}]."""
        params = {"q": q, "tema": tema, "limite": limite or SERIES_PAGE, "pagina": pagina}
        response = await ask_v1(datasette, LIST_PATH, params)
        text = fitted_v1(response, lambda day: "Pida menos series por página (limite) o palabras más precisas.")
        if 'rel="next"' in response.headers.get("link", "") and not text.startswith(CUT):
            text = f"Hay más series: pida pagina={(pagina or 1) + 1}, o palabras más precisas.\n" + text
        return text_result(text)

    @agent_tool
    async def datos_series(
        ids: Annotated[
            Union[list[str], str],
            Field(
                description="ids de buscar_series (hasta 20), en lista o separados por comas; «id:interanual» da "
                "su variación"
            ),
        ],
        desde: Annotated[
            Optional[str], Field(description=f"primer día ({PERIOD}: un mes o un año es su primer día)")
        ] = None,
        hasta: Annotated[
            Optional[str], Field(description=f"último día ({PERIOD}: un mes o un año es su último día)")
        ] = None,
        agrupar: Annotated[
            Optional[str],
            Field(
                description="semana, mes, trimestre o anio: un valor por período; fecha es el primer día del período"
            ),
        ] = None,
        funcion: Annotated[
            Optional[str],
            Field(
                description="con agrupar: promedio (por omisión; una tasa se compone), ultimo, primero, minimo, "
                "maximo o suma; con las cuatro que eligen un valor, «id:fecha» dice de qué día es"
            ),
        ] = None,
        dias: Annotated[
            Optional[str],
            Field(
                description="habiles: de cada serie diaria, sólo los días hábiles (las cotizaciones repiten el viernes "
                "el sábado y el domingo: un promedio mensual de todos los días pesa tres veces el viernes)"
            ),
        ] = None,
        ajustar: Annotated[
            Optional[str],
            Field(description="montos en pesos en otra unidad: ipc (pesos de base), uva o dolar-<casa> (dolar-blue)"),
        ] = None,
        base: Annotated[
            Optional[str],
            Field(description="con ajustar=ipc, el mes AAAA-MM en cuyos pesos se dan (por omisión el último del IPC)"),
        ] = None,
        marcar: Annotated[
            Optional[str],
            Field(description="calidad: una columna «id:calidad» con los controles que dudan de cada valor"),
        ] = None,
        publicado: Annotated[
            Optional[str],
            Field(
                description="AAAA-MM-DD: las series como upstream las había publicado ese día (sus versiones); "
                "primera: el primer valor publicado de cada fecha, con el día (columna «id:publicado»)"
            ),
        ] = None,
    ) -> CallToolResult:
        """Los valores de varias series lado a lado, una fila por fecha (GET /v1/series/datos), recortados,
        agrupados y convertidos como lo pide cada argumento; la respuesta dice también qué es cada serie. Una
        serie diaria de años pasa el límite de tamaño: pida un rango (desde/hasta) o agrupar="mes"; si la
        respuesta se recorta, su primera línea dice desde qué fecha seguir.
        Ejemplo: datos_series(ids=["cotizaciones_dolares.blue.venta"], desde="2024-01-02", hasta="2024-01-02")
        → {"series": [...], "datos": [{"fecha": "2024-01-02", "cotizaciones_dolares.blue.venta": 1005}]}.
        Ejemplo: datos_series(ids="riesgo_pais", desde="2024", hasta="2024", agrupar="anio", funcion="maximo")
        → el máximo de 2024 y, en «riesgo_pais:fecha», el día en que ocurrió."""
        joined = ids if isinstance(ids, str) else ",".join(ids)
        params = {"ids": joined, "desde": desde, "hasta": hasta, "agrupar": agrupar, "funcion": funcion, "dias": dias}
        params.update({"ajustar": ajustar, "base": base, "marcar": marcar, "publicado": publicado})
        response = await ask_v1(datasette, DATA_PATH, params)
        return text_result(fitted_v1(response, lambda day: _series_rest(day, agrupar)))

    @agent_tool
    async def calidad_de_serie(
        id: Annotated[
            str, Field(description="el id de una serie (de buscar_series): «cotizaciones_dolares.blue.venta»")
        ],
        desde: Annotated[Optional[str], Field(description=f"primer día ({PERIOD}); por omisión, el primero")] = None,
        hasta: Annotated[Optional[str], Field(description=f"último día ({PERIOD}); por omisión, el último")] = None,
    ) -> CallToolResult:
        """Qué puntos de una serie pone en duda la auditoría de la construcción (valores congelados, compra mayor
        que venta, cambios de unidad, cifras que otros publicaron distintas): los de /v1/series/datos con
        marcar=calidad, cada uno con sus controles, y el SQL (para execute_sql) que lista sus hallazgos en la
        tabla calidad. Sirve para la serie entera, sin fechas.
        Ejemplo: calidad_de_serie(id="cotizaciones_dolares.blue.venta") → {"serie": {...}, "puntos": ...,
        "puntos_dudosos": [{"fecha": ..., "valor": ..., "controles": "compra mayor que venta"}, ...],
        "sql_hallazgos": "SELECT ..."}."""
        params = {"ids": id, "desde": desde, "hasta": hasta, "marcar": MARK}
        summary = quality_of(orjson.loads((await ask_v1(datasette, DATA_PATH, params)).content), id)
        text, _ = fitted_list(
            summary,
            "puntos_dudosos",
            lambda kept, left: f'Para los demás, desde="{left[0]["fecha"]}"; o el SQL de sql_hallazgos.',
        )
        return text_result(text)

    @agent_tool
    async def historia_de_dato(
        id: Annotated[str, Field(description="el id de una serie (de buscar_series): «riesgo_pais», «inflacion»")],
        fecha: Annotated[
            str,
            Field(description=f"la fecha del dato ({PERIOD}: un mes o un año da la historia de todos sus datos)"),
        ],
    ) -> CallToolResult:
        """La historia de publicación de un dato: cada valor que upstream publicó para esa fecha de la serie, con
        los días en que estuvo vigente (publicadoDesde; publicadoHasta, null si sigue), y el ritmo de publicación
        de la serie (rezago habitual, última publicación, próxima estimada): GET /v1/series/datos con
        publicado=todas. Ejemplo: historia_de_dato(id="riesgo_pais", fecha="2003-06-02") → {"serie": {...},
        "valores": [{"fecha": "2003-06-02", "valor": 5360, "publicadoDesde": "2024-07-28", "publicadoHasta":
        "2025-01-01"}, {"fecha": "2003-06-02", "valor": 5359, "publicadoDesde": "2025-01-01", "publicadoHasta":
        null}]}."""
        params = {"ids": id, "desde": fecha, "hasta": fecha, "publicado": "todas"}
        data = orjson.loads((await ask_v1(datasette, DATA_PATH, params)).content)
        values = [{k: v for k, v in row.items() if k != "serie"} for row in data["datos"]]
        answer = {"serie": data["series"][0], "valores": values}
        text, _ = fitted_list(
            answer,
            "valores",
            lambda kept, left: f'Para los demás, una fecha más acotada: fecha="{left[0]["fecha"]}" o su mes.',
        )
        return text_result(text)

    @agent_tool
    async def consultar_api(
        ruta: Annotated[
            str,
            Field(
                description="una ruta de /v1 con su consulta: «/v1/finanzas/indices/riesgo-pais/ultimo», "
                "«/v1/cotizaciones/dolares/blue?desde=2025-01&hasta=2025-03»; «/v1» lista las rutas"
            ),
        ],
    ) -> CallToolResult:
        """Cualquier ruta de la API /v1 (la de api.argentinadatos.com), respondida como la responde /v1.
        consultar_api(ruta="/v1") lista las rutas. Parámetros de consulta de este servidor (en las rutas que los
        admiten): fecha=AAAA-MM-DD, AAAA-MM o AAAA (los registros de esa fecha; en …/ultimo, el último hasta
        ella); desde= y hasta= (un rango); publicado=AAAA-MM-DD (la respuesta como upstream la había publicado
        ese día); agrupar=semana|mes|trimestre|anio con funcion=promedio|ultimo|primero|minimo|maximo|suma
        (fecha es el primer día del período; con las cuatro que eligen un valor, fecha<Medida> dice su día);
        variacion=absoluta|relativa|interanual|acumulada; ajustar=ipc|uva|dolar-<casa> (con base=AAAA-MM);
        formato=csv. marcar=calidad es de /v1/series/datos (datos_series). Una lista larga pasa el límite de
        tamaño: pida un rango o agrupar; si la respuesta se recorta, su primera línea dice desde qué fecha seguir.
        Ejemplo: consultar_api(ruta="/v1/cotizaciones/dolares/blue/2024/01/02") → {"casa": "blue", "compra": 985,
        "venta": 1005, "fecha": "2024-01-02"}.
        Ejemplo: consultar_api(ruta="/v1/finanzas/indices/riesgo-pais/ultimo?fecha=2024-12") → el último valor de
        diciembre de 2024: {"valor": 635, "fecha": "2024-12-31"}."""
        path = v1_path(ruta)
        if path.split("?")[0].rstrip("/") in ("/v1", OPENAPI_PATH):
            return text_result(routes_text())
        response = await ask_v1(datasette, path)
        return text_result(fitted_v1(response, lambda day: _route_rest(path, day)))


def _series_rest(day: Optional[str], agrupar: Optional[str]) -> str:
    go_on = f'Para seguir, desde="{day}" (la fecha de la primera fila que falta)' if day else "Para seguir, un rango"
    return go_on + ("" if agrupar else '; o menos filas con agrupar="mes" (o semana, trimestre, anio)') + "."


def _route_rest(path: str, day: Optional[str]) -> str:
    if day is None:
        return "Pida una ruta más precisa (…/{fecha}, …/ultimo) o la lista con desde/hasta."
    joined = "&" if "?" in path else "?"
    return (
        f"Para seguir, la misma ruta con desde={day} ({path.split('?')[0]}{joined}desde={day}...; la fecha de la "
        "primera fila que falta); o menos filas con agrupar=mes."
    )
