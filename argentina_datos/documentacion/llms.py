"""``/llms.txt`` (https://llmstxt.org): what the service holds and how to ask for it, for a language model.

Written from the catalogue's routes (respuestas/rutas.py), the query parameters' table (respuestas/consulta.py)
and the themes of the series catalogue, so it says what the server answers and cannot drift from it.
``python -m argentina_datos.documentacion.llms`` prints it.
"""

from __future__ import annotations

import sys
from typing import Optional

from argentina_datos.catalogo.series import THEMES_WITH_SERIES
from argentina_datos.respuestas.catalogo_series import CALENDAR_PATH, DATA_PATH, LIST_PATH, MAX_IDS, RELEASES_PATH
from argentina_datos.respuestas.consulta import PARAMETERS
from argentina_datos.respuestas.responder import fill_path
from argentina_datos.respuestas.rutas import OPENAPI_PATH, Router

PATH = "/llms.txt"
MCP_PATH = "/-/mcp"
# The MCP tools (datasette-mcp's and web/complementos/agentes.py's): tests/test_mcp.py checks that every
# tool the endpoint lists is named here.
MCP_TOOLS = (
    ("buscar_series", "busca en el catálogo de series (q, tema)"),
    (
        "datos_series",
        "varias series lado a lado por fecha (ids, desde, hasta, agrupar, funcion, ajustar, publicado: la versión "
        "que upstream había publicado ese día, o primera: el primer valor publicado de cada fecha)",
    ),
    (
        "historia_de_dato",
        "cada valor que upstream publicó para una fecha de una serie, con los días en que estuvo vigente (id, fecha)",
    ),
    (
        "calidad_de_serie",
        "los puntos de una serie que la auditoría pone en duda, con sus controles (id, desde, hasta)",
    ),
    ("consultar_api", "cualquier ruta /v1 con su consulta, respondida como la responde /v1"),
    ("execute_sql", "una consulta SQL de sólo lectura (con el límite de tiempo y de filas del sitio)"),
    ("list_databases", "las bases (una: la de los datos)"),
    ("get_database_schema", "el esquema SQL de la base"),
    ("list_canned_queries", "las consultas guardadas (brecha cambiaria, inflación acumulada, ...)"),
    ("execute_canned_query", "corre una consulta guardada con sus parámetros"),
    ("execute_writable_canned_query", "de datasette-mcp; aquí no hay ninguna consulta que escriba"),
)


def _first_clause(text: str) -> str:
    """A description up to its first «;» or «. » outside parentheses, without Markdown's code marks: one line
    per parameter."""
    plain, depth = text.replace("`", ""), 0
    for i, c in enumerate(plain):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and (c == ";" or plain.startswith(". ", i)):
            return plain[:i]
    return plain.rstrip(".")


def llms_txt(router: Optional[Router] = None) -> str:
    router = router or Router()
    lines = [
        "# Datos públicos de Argentina (ArgentinaDatos)",
        "",
        "> Réplica de sólo lectura de la API pública de ArgentinaDatos (api.argentinadatos.com/v1: cotizaciones "
        "del dólar y otras monedas, inflación, UVA, riesgo país, tasas, plazos fijos, fondos comunes de inversión, "
        "feriados, Senado y Diputados, ...) servida desde una base SQLite con Datasette. Cada ruta /v1 responde lo "
        "mismo que upstream, y además acepta desde/hasta, fecha, publicado, agrupar, variacion, ajustar y formato=csv; una capa de "
        "series las alinea por fecha.",
        "",
        "Fechas AAAA-MM-DD. En las rutas, la fecha va como AAAA/MM/DD (/v1/cotizaciones/dolares/blue/2025/01/02). "
        "Los errores son JSON: {status, error, mensaje, parametro}; un 404 de una ruta que no existe dice la más "
        f"parecida y enlaza {OPENAPI_PATH}. Los montos dicen su unidad; una tasa en fracción es 0.25 = 25 %.",
        "",
        "## Para agentes (MCP)",
        "",
        f"- [{MCP_PATH}]({MCP_PATH}): servidor MCP (Streamable HTTP), todas sus herramientas de sólo lectura:",
        *(f"  - `{name}`: {what}" for name, what in MCP_TOOLS),
        "",
        "## Series",
        "",
        f"- [{LIST_PATH}]({LIST_PATH}?q=dolar%20blue): el catálogo de series (id, título, unidad, tipo, frecuencia, "
        "primer y último dato, si está atrasada); parámetros q (palabras), tema, frecuencia, tipo. Temas: "
        + ", ".join(THEMES_WITH_SERIES),
        f"- [{DATA_PATH}]({DATA_PATH}?ids=riesgo_pais&desde=2025-01): hasta {MAX_IDS} series (ids separados por "
        "comas) lado a lado, una fila por fecha, con los parámetros de consulta de abajo; con publicado=primera, el "
        "primer valor publicado de cada fecha y el día (ej.: "
        f"{DATA_PATH}?ids=riesgo_pais&desde=2003-06-02&hasta=2003-06-02&publicado=todas: 5360 publicado el "
        "2024-07-28, reemplazado el 2025-01-01 por 5359)",
        f"- [{RELEASES_PATH}]({RELEASES_PATH}?ids=inflacion&desde=2025-01): cada día en que upstream publicó o "
        "revisó cada serie, con cuántos valores agregó, revisó y quitó; el ritmo de cada serie (rezago habitual, "
        "próxima publicación estimada) está en `publicacion` de su entrada del catálogo",
        f"- [{CALENDAR_PATH}]({CALENDAR_PATH}?frecuencia=mensual&desde=2026-01): las publicaciones pasadas y la "
        "próxima estimada de las series con versiones guardadas (ids, frecuencia, desde, hasta; formato=ics)",
        "",
        "## Parámetros de consulta",
        "",
        *(f"- `{p.name}` ({p.values_text()}): {_first_clause(p.description)}. En {p.where}" for p in PARAMETERS),
        "",
        "## Rutas /v1",
        "",
    ]
    for e in sorted(router.endpoints, key=lambda e: e.path):
        example = fill_path(e.path, {p.name: p.example for p in e.params})
        shown = f"[{e.path}]({example})" if e.params else f"[{e.path}]({e.path})"
        lines.append(f"- {shown}: {e.summary}" + (f" (ej.: {example})" if e.params else ""))
    lines += [
        "",
        "## Optional",
        "",
        f"- [{OPENAPI_PATH}]({OPENAPI_PATH}): el documento OpenAPI de todas las rutas y sus parámetros",
        "- [/argentina](/argentina): las tablas en Datasette, con SQL de sólo lectura (`/argentina.json?sql=...`)",
        "- [/-/series](/-/series): el explorador de series",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write(llms_txt())
