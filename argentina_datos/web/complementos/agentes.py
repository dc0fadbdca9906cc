"""Datasette plugin: what a language model reads and calls: ``/llms.txt`` (documentacion/llms.py) and the MCP
tools of this service, on datasette-mcp's ``/-/mcp`` endpoint.

datasette-mcp serves MCP over Streamable HTTP with its own tools (the read-only SQL, under Datasette's
time limit and row cap, and the canned queries: ``canned_queries`` in metadata.yml); this module adds, through
its ``register_mcp_tools`` hook, the tools that ask /v1: the series catalogue, several series side by side and
any /v1 route.  Each one asks /v1 itself (``datasette.client``, through the same layers as a request from
outside), so a tool answers exactly what the API answers, and a bad argument is a tool error carrying the
API's own Spanish message.
"""

from __future__ import annotations

import functools
import logging
import posixpath
from typing import Annotated, Any, Optional, Union
from urllib.parse import urlencode, urlsplit

import orjson
from datasette import Response, hookimpl
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from argentina_datos.almacen.calidad import series_label
from argentina_datos.almacen.propias import CALIDAD
from argentina_datos.documentacion import llms
from argentina_datos.respuestas.catalogo_series import DATA_PATH, LIST_PATH, MARK

# An answer bigger than this is refused with how to make it smaller: a model reads its whole tool answer.
MAX_ANSWER_BYTES = 300_000
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
PERIOD = "AAAA-MM-DD, AAAA-MM o AAAA"


async def ask_v1(datasette, path: str, params: Optional[dict[str, Any]] = None) -> str:
    """``path`` with ``params`` as /v1 answers it: its body (a list or an object of JSON, or the CSV asked for),
    or a tool error with the API's message."""
    query = urlencode({k: v for k, v in (params or {}).items() if v is not None})
    url = path + ("?" + query if query else "") if params is not None else path
    response = await datasette.client.get(url)
    if response.status_code != 200:
        try:
            message = orjson.loads(response.content)["mensaje"]
        except (orjson.JSONDecodeError, KeyError, TypeError):
            message = response.text[:500]
        raise ToolError(message)
    if len(response.content) > MAX_ANSWER_BYTES:
        raise ToolError(
            f"la respuesta de {url[:200]} tiene {len(response.content) // 1000} KB, más de los "
            f"{MAX_ANSWER_BYTES // 1000} KB que conviene leer de una vez: acótela con desde/hasta ({PERIOD}), "
            "agrupar=mes o una ruta más precisa (…/{fecha}, …/ultimo); o use execute_sql"
        )
    return response.text


def text_result(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)])


def quality_of(answer: str, series_id: str) -> str:
    """``/v1/series/datos?ids=<id>&marcar=calidad`` summed up for a model: the series, its points that a finding
    doubts (with the checks), how many points there are, and the SQL that lists its findings in ``calidad``."""
    data = orjson.loads(answer)
    entry, rows = data["series"][0], data["datos"]
    mark = f"{series_id}:{MARK}"
    doubted = [{"fecha": r["fecha"], "valor": r[series_id], "controles": r[mark]} for r in rows if r.get(mark)]
    serie = series_label(list(entry["filtro"]), list(entry["filtro"].values()))
    where = f"tabla = '{entry['tabla']}' AND " + (f"serie = '{serie}'" if serie else "serie IS NULL")
    summary = {
        "serie": entry,
        "puntos": len(rows),
        "puntos_dudosos": doubted,
        "sql_hallazgos": f"SELECT control, fecha, hasta, campo, detalle FROM {CALIDAD.name} WHERE {where} ORDER BY fecha",
    }
    return orjson.dumps(summary).decode()


def v1_path(ruta: str) -> str:
    """A /v1 route as a caller may write it (``feriados/2025``, ``/v1/...``, upstream's full URL) as this
    server's path with its query; a ToolError for anything outside /v1."""
    parts = urlsplit(ruta.strip())
    path = parts.path if parts.path.startswith("/") else "/" + parts.path
    if path.lower() != "/v1" and not path.lower().startswith("/v1/"):
        path = "/v1" + path
    if posixpath.normpath(path) != path.rstrip("/") or "//" in path:
        raise ToolError(f"«{ruta[:200]}» no es una ruta de /v1 (sin «..» ni «//»); las rutas están en /v1/openapi.json")
    return path + ("?" + parts.query if parts.query else "")


@functools.cache
def llms_txt() -> bytes:
    """The same for every request of this process: it is written from the catalogue."""
    return llms.llms_txt().encode()


async def llms_view():
    return Response(llms_txt(), content_type="text/plain; charset=utf-8")


@hookimpl
def register_routes():
    return [(r"^/llms\.txt$", llms_view)]


@hookimpl
def register_mcp_tools(datasette, mcp):
    # The MCP SDK's server sets the root logger to INFO, which would log every request a tool makes to /v1
    # (httpx's INFO line) besides the request itself (web/registro.py, with --log-json).
    logging.getLogger("httpx").setLevel(logging.WARNING)

    @mcp.tool(annotations=READ_ONLY)
    async def buscar_series(
        q: Annotated[str, Field(description="palabras a buscar en el nombre, el tema y la descripción: «dólar blue»")],
        tema: Annotated[
            Optional[str], Field(description="sólo las de un tema: cotizaciones, finanzas, ... (ver /v1/series)")
        ] = None,
    ) -> CallToolResult:
        """Busca en el catálogo de series (GET /v1/series?q=...): cada serie con su id, nombre, unidad, tipo
        (nivel, tasa...), frecuencia, su primer y último dato y si está atrasada. El id es lo que toma
        datos_series. Ejemplo: buscar_series(q="riesgo país") → [{"id": "riesgo_pais", ...}]."""
        return text_result(await ask_v1(datasette, LIST_PATH, {"q": q, "tema": tema}))

    @mcp.tool(annotations=READ_ONLY)
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
            Optional[str], Field(description="semana, mes, trimestre o anio: un valor por período")
        ] = None,
        funcion: Annotated[
            Optional[str],
            Field(description="con agrupar: promedio (por omisión), ultimo, primero, minimo, maximo o suma"),
        ] = None,
        ajustar: Annotated[
            Optional[str], Field(description="montos en pesos en otra unidad: ipc (pesos de hoy), uva o dolar-<casa>")
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
        agrupados y convertidos como lo pide cada argumento; la respuesta dice también qué es cada serie.
        Ejemplo: datos_series(ids=["cotizaciones_dolares.blue.venta"], desde="2024-01-02", hasta="2024-01-02")
        → {"series": [...], "datos": [{"fecha": "2024-01-02", "cotizaciones_dolares.blue.venta": 1005}]}."""
        joined = ids if isinstance(ids, str) else ",".join(ids)
        params = {"ids": joined, "desde": desde, "hasta": hasta, "agrupar": agrupar, "funcion": funcion}
        params.update({"ajustar": ajustar, "publicado": publicado})
        return text_result(await ask_v1(datasette, DATA_PATH, params))

    @mcp.tool(annotations=READ_ONLY)
    async def calidad_de_serie(
        id: Annotated[
            str, Field(description="el id de una serie (de buscar_series): «cotizaciones_dolares.blue.venta»")
        ],
        desde: Annotated[Optional[str], Field(description=f"primer día ({PERIOD})")] = None,
        hasta: Annotated[Optional[str], Field(description=f"último día ({PERIOD})")] = None,
    ) -> CallToolResult:
        """Qué puntos de una serie pone en duda la auditoría de la construcción (valores congelados, compra mayor
        que venta, cambios de unidad, cifras que otros publicaron distintas): los de /v1/series/datos con
        marcar=calidad, cada uno con sus controles, y el SQL (para execute_sql) que lista sus hallazgos en la
        tabla calidad. Ejemplo: calidad_de_serie(id="cotizaciones_dolares.blue.venta", desde="2013", hasta="2013")
        → {"serie": {...}, "puntos": ..., "puntos_dudosos": [{"fecha": ..., "valor": ..., "controles":
        "compra mayor que venta"}, ...], "sql_hallazgos": "SELECT ..."}."""
        params = {"ids": id, "desde": desde, "hasta": hasta, "marcar": MARK}
        return text_result(quality_of(await ask_v1(datasette, DATA_PATH, params), id))

    @mcp.tool(annotations=READ_ONLY)
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
        data = orjson.loads(await ask_v1(datasette, DATA_PATH, params))
        values = [{k: v for k, v in row.items() if k != "serie"} for row in data["datos"]]
        return text_result(orjson.dumps({"serie": data["series"][0], "valores": values}).decode())

    @mcp.tool(annotations=READ_ONLY)
    async def consultar_api(
        ruta: Annotated[
            str,
            Field(
                description="una ruta de /v1 con su consulta: «/v1/finanzas/indices/riesgo-pais/ultimo», "
                "«/v1/cotizaciones/dolares/blue?desde=2025-01&hasta=2025-03»"
            ),
        ],
    ) -> CallToolResult:
        """Cualquier ruta de la API /v1 (la misma de api.argentinadatos.com, con desde, hasta, agrupar,
        variacion, ajustar y formato=csv de este servidor), respondida como la responde /v1. Las rutas y sus
        parámetros están en /v1/openapi.json (consultar_api(ruta="/v1/openapi.json")). Ejemplo:
        consultar_api(ruta="/v1/cotizaciones/dolares/blue/2024/01/02") → {"casa": "blue", "compra": 985,
        "venta": 1005, "fecha": "2024-01-02"}."""
        return text_result(await ask_v1(datasette, v1_path(ruta)))
