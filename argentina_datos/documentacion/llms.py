"""``/llms.txt`` (https://llmstxt.org): what the service holds and how to ask for it, for a language model.

Written from the catalogue's routes (respuestas/rutas.py), the query parameters' table (respuestas/consulta.py)
and the themes of the series catalogue, so it says what the server answers and cannot drift from it.
``python -m argentina_datos.documentacion.llms`` prints it.
"""

from __future__ import annotations

import sys
from typing import Optional, Sequence

from argentina_datos.catalogo.series import THEMES_WITH_SERIES
from argentina_datos.respuestas.catalogo_series import CALENDAR_PATH, DATA_PATH, LIST_PATH, MAX_IDS, RELEASES_PATH
from argentina_datos.respuestas.consulta import PARAMETERS
from argentina_datos.respuestas.responder import fill_path
from argentina_datos.respuestas.rutas import OPENAPI_PATH, Router

PATH = "/llms.txt"
# The most bytes of one MCP tool's answer, about 20,000 tokens (Claude Code refuses one of ~25,000): what a model
# can read and still work.  web/complementos/agentes.py keeps every tool within it.
MAX_ANSWER_BYTES = 80_000
CUT = "RESPUESTA RECORTADA"  # how the first line of a cut answer starts
MCP_PATH = "/-/mcp"
# The MCP tools (datasette-mcp's and web/complementos/agentes.py's): tests/test_mcp.py checks that every
# tool the endpoint lists is named here.
# One worked example of each kind of question: the question, the MCP call, the same over HTTP (tests/test_llms.py
# asks each URL of the test database).
EXAMPLES = (
    (
        "el valor de un día (el dólar blue el 2 de enero de 2024)",
        'consultar_api(ruta="/v1/cotizaciones/dolares/blue/2024/01/02")',
        "/v1/cotizaciones/dolares/blue/2024/01/02",
    ),
    (
        "el último valor hasta una fecha (el riesgo país a fin de 2024)",
        'consultar_api(ruta="/v1/finanzas/indices/riesgo-pais/ultimo?fecha=2024-12")',
        "/v1/finanzas/indices/riesgo-pais/ultimo?fecha=2024-12",
    ),
    (
        "una serie en un período (la inflación mensual de 2025)",
        'datos_series(ids="inflacion", desde="2025", hasta="2025")',
        "/v1/series/datos?ids=inflacion&desde=2025&hasta=2025",
    ),
    (
        "una serie por su nombre común (el dólar MEP: la casa «bolsa»)",
        'buscar_series(q="dólar mep"), y su id a datos_series',
        "/v1/series?q=d%C3%B3lar%20mep",
    ),
    (
        "un máximo y el día en que ocurrió (el riesgo país de 2024)",
        'datos_series(ids="riesgo_pais", desde="2024", hasta="2024", agrupar="anio", funcion="maximo")',
        "/v1/series/datos?ids=riesgo_pais&desde=2024&hasta=2024&agrupar=anio&funcion=maximo",
    ),
    (
        "una serie larga resumida (el blue por mes, su último valor de cada mes)",
        'datos_series(ids="cotizaciones_dolares.blue.venta", desde="2020", agrupar="mes", funcion="ultimo")',
        "/v1/series/datos?ids=cotizaciones_dolares.blue.venta&desde=2020&agrupar=mes&funcion=ultimo",
    ),
    (
        "en pesos de otro mes (el blue de diciembre de 2023 en pesos de diciembre de 2025)",
        'datos_series(ids="cotizaciones_dolares.blue.venta", desde="2023-12", hasta="2023-12", agrupar="mes", '
        'ajustar="ipc", base="2025-12")',
        "/v1/series/datos?ids=cotizaciones_dolares.blue.venta&desde=2023-12&hasta=2023-12&agrupar=mes&ajustar=ipc"
        "&base=2025-12",
    ),
    (
        "un fondo común (sus valores de cuotaparte de 2025)",
        'buscar_series(q="balanz money market"), y datos_series(ids=<id de su vcp>, desde="2025", hasta="2025")',
        "/v1/series?q=balanz%20money%20market",
    ),
    (
        "una expectativa del REM (la inflación esperada para 2026)",
        'buscar_series(q="inflacion esperada 2026"): la ruta nueva del REM primero, con sus informes más recientes',
        "/v1/series?q=inflacion%20esperada%202026",
    ),
    (
        "cómo estaba publicado antes de una revisión (el riesgo país del 2003-06-02 al 31 de diciembre de 2024)",
        'datos_series(ids="riesgo_pais", desde="2003-06-02", hasta="2003-06-02", publicado="2024-12-31")',
        "/v1/series/datos?ids=riesgo_pais&desde=2003-06-02&hasta=2003-06-02&publicado=2024-12-31",
    ),
    (
        "cada valor que tuvo un dato y cuándo se publicó (el riesgo país del 2003-06-02: 5360 desde el 2024-07-28, "
        "5359 desde el 2025-01-01)",
        'historia_de_dato(id="riesgo_pais", fecha="2003-06-02")',
        "/v1/series/datos?ids=riesgo_pais&desde=2003-06-02&hasta=2003-06-02&publicado=todas",
    ),
    (
        "cuándo publica una serie y cuándo se espera la próxima (la inflación del INDEC)",
        'buscar_series(q="inflación"): su «publicacion»; o consultar_api(ruta="/v1/series/calendario?ids=inflacion")',
        "/v1/series/calendario?ids=inflacion&desde=2026-01-01",
    ),
    (
        "qué valores son dudosos (el mayorista congelado de diciembre de 2023)",
        'calidad_de_serie(id="cotizaciones_dolares.mayorista.venta", desde="2023-12", hasta="2024-01")',
        "/v1/series/datos?ids=cotizaciones_dolares.mayorista.venta&marcar=calidad&desde=2023-12&hasta=2024-01",
    ),
    (
        "una lista de la API (los feriados de 2025; los viajes internacionales del Senado en 2025)",
        'consultar_api(ruta="/v1/feriados/2025"); consultar_api(ruta="/v1/senado/viajes/internacionales/2025")',
        "/v1/senado/viajes/internacionales/2025",
    ),
    (
        "lo que ninguna ruta da (las casas de cambio un día, en una tabla)",
        'execute_sql(database="argentina", sql="SELECT casa, compra, venta FROM cotizaciones_dolares WHERE fecha = '
        "'2025-01-02'\")",
        "/argentina.json?sql=SELECT%20casa%2C%20compra%2C%20venta%20FROM%20cotizaciones_dolares%20WHERE%20fecha%20%3D"
        "%20%272025-01-02%27",
    ),
)
MCP_TOOLS = (
    ("buscar_series", "busca en el catálogo de series, con los nombres comunes (q, tema, pagina, limite)"),
    (
        "datos_series",
        "varias series lado a lado por fecha (ids, desde, hasta, agrupar, funcion, ajustar, base, marcar, publicado: "
        "la versión que upstream había publicado ese día, o primera: el primer valor publicado de cada fecha)",
    ),
    (
        "historia_de_dato",
        "cada valor que upstream publicó para una fecha de una serie, con los días en que estuvo vigente (id, fecha)",
    ),
    (
        "calidad_de_serie",
        "los puntos de una serie que la auditoría pone en duda, con sus controles (id; desde y hasta, opcionales)",
    ),
    ("consultar_api", 'cualquier ruta /v1 con su consulta, respondida como la responde /v1; ruta="/v1" las lista'),
    ("execute_sql", "una consulta SQL de sólo lectura (con el límite de tiempo y de filas del sitio)"),
    ("list_databases", "las bases (una: la de los datos)"),
    ("get_database_schema", "el esquema SQL de la base (sin las tablas internas de los índices de texto)"),
    ("list_canned_queries", "las consultas guardadas (brecha cambiaria, inflación acumulada, ...)"),
    ("execute_canned_query", "corre una consulta guardada con sus parámetros"),
)


def dotted(n: int) -> str:
    """A count as written in Spanish: 80.000."""
    return f"{n:,}".replace(",", ".")


def _first_clause(text: str) -> str:
    """A description up to its first «;» or «. » outside parentheses, without Markdown's code marks: one line
    per parameter."""
    plain, depth = text.replace("`", ""), 0
    for i, c in enumerate(plain):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and (c == ";" or plain.startswith(". ", i)):
            return plain[:i]
    return plain.rstrip(".")


def route_lines(router: Router) -> list[str]:
    """Every /v1 route as a line of Markdown: its path (a link to an example), what it answers, an example."""
    lines = []
    for e in sorted(router.endpoints, key=lambda e: e.path):
        example = fill_path(e.path, {p.name: p.example for p in e.params})
        shown = f"[{e.path}]({example})" if e.params else f"[{e.path}]({e.path})"
        lines.append(f"- {shown}: {e.summary}" + (f" (ej.: {example})" if e.params else ""))
    return lines


def llms_txt(router: Optional[Router] = None, freshness: Sequence[str] = ()) -> str:
    """The text; ``freshness``: its lines on how fresh the data is (the served database's: web/complementos/agentes.py),
    none without a database."""
    router = router or Router()
    lines = [
        "# Datos públicos de Argentina (ArgentinaDatos)",
        "",
        "> Réplica de sólo lectura de la API pública de ArgentinaDatos (api.argentinadatos.com/v1: cotizaciones "
        "del dólar y otras monedas, inflación, UVA, riesgo país, tasas, plazos fijos, fondos comunes de inversión, "
        "feriados, Senado y Diputados, ...) servida desde una base SQLite con Datasette. Cada ruta /v1 responde lo "
        "mismo que upstream, y además acepta desde/hasta, fecha, publicado, agrupar, variacion, ajustar y formato=csv (con decimal=coma, para una planilla en castellano) o xlsx; una capa de "
        "series las alinea por fecha.",
        "",
        "Fechas AAAA-MM-DD. En las rutas, la fecha va como AAAA/MM/DD (/v1/cotizaciones/dolares/blue/2025/01/02). "
        "Los errores son JSON: {status, error, mensaje, parametro}; un 404 de una ruta que no existe dice la más "
        f"parecida y enlaza {OPENAPI_PATH}. Los montos dicen su unidad; una tasa en fracción es 0.25 = 25 %.",
        "",
        *(["## Frescura", "", *freshness, ""] if freshness else []),
        "## Para agentes (MCP)",
        "",
        f"- [{MCP_PATH}]({MCP_PATH}): servidor MCP (Streamable HTTP), todas sus herramientas de sólo lectura. "
        "Primero las series y /v1; el SQL, cuando ellas no alcanzan:",
        *(f"  - `{name}`: {what}" for name, what in MCP_TOOLS),
        "",
        "## Límites de tamaño",
        "",
        f"- Ninguna respuesta de una herramienta MCP pasa de {dotted(MAX_ANSWER_BYTES)} bytes (unos 20.000 tokens). "
        f"Una más larga trae sus primeras filas y su primera línea empieza con «{CUT}»: dice cuántas filas "
        'faltan y cómo pedirlas (desde="<la fecha de la primera que falta>", agrupar, pagina, LIMIT/OFFSET).',
        "- /v1 responde entero: una lista diaria de años pesa cientos de KB (/v1/cotizaciones/dolares, 2 MB). "
        "Acótela con desde/hasta o fecha, o resúmala con agrupar.",
        f"- {DATA_PATH}: hasta {MAX_IDS} series; {LIST_PATH}: 100 series por página (limite hasta 1.000, pagina; "
        'el encabezado Link rel="next" da la siguiente). El SQL: 5.000 filas y 3 segundos por consulta.',
        "",
        "## Un ejemplo de cada tipo de pregunta",
        "",
        *(f"- {question}: `{call}` ([HTTP]({url}))" for question, call, url in EXAMPLES),
        "",
        "## Series",
        "",
        f"- [{LIST_PATH}]({LIST_PATH}?q=dolar%20blue): el catálogo de series (id, título, unidad, tipo, frecuencia, "
        "primer y último dato, si está atrasada); parámetros q (palabras), tema, frecuencia, tipo. Temas: "
        + ", ".join(THEMES_WITH_SERIES),
        f"- [{DATA_PATH}]({DATA_PATH}?ids=riesgo_pais&desde=2025-01): hasta {MAX_IDS} series (ids separados por "
        "comas) lado a lado, una fila por fecha, con los parámetros de consulta de abajo. Un id desconocido es un "
        "400 que sugiere los más parecidos; con publicado=primera, el primer valor publicado de cada fecha y el día "
        f"(y con publicado=todas cada valor que tuvo: {DATA_PATH}?ids=riesgo_pais&desde=2003-06-02&hasta=2003-06-02&"
        "publicado=todas da 5360, publicado el 2024-07-28 y reemplazado el 2025-01-01 por 5359; lo mismo en las listas "
        "/v1 que guardan versiones propias: /v1/finanzas/indices/riesgo-pais?desde=2003-06-02&hasta=2003-06-02&"
        "publicado=todas)",
        f"- [{RELEASES_PATH}]({RELEASES_PATH}?ids=inflacion&desde=2025-01): cada día en que upstream publicó o "
        "revisó cada serie, con cuántos valores agregó, revisó y quitó; el ritmo de cada serie (rezago habitual, "
        "próxima publicación estimada) está en `publicacion` de su entrada del catálogo",
        f"- [{CALENDAR_PATH}]({CALENDAR_PATH}?frecuencia=mensual&desde=2026-01): las publicaciones pasadas y la "
        "próxima estimada de las series con versiones guardadas (ids, frecuencia, desde, hasta; formato=ics)",
        "- Filas agrupadas (agrupar): una por período, y su fecha es el primer día del período (2024-01-01 para "
        "2024), no el de un valor. Con funcion=maximo, minimo, primero o ultimo, la columna «id:fecha» junto a cada "
        "serie (en las rutas /v1, fecha<Medida>: fechaValor, fechaVenta) es el día del que viene el valor",
        f"- marcar=calidad (sólo en {DATA_PATH}): junto a cada serie, la columna «id:calidad» con los controles de "
        "la auditoría que ponen en duda ese valor (un valor congelado, compra mayor que venta, una cifra publicada "
        "distinta...), o null; los valores no cambian",
        "- La búsqueda conoce los nombres comunes: mep (la casa bolsa), ccl o contado con liqui (contadoconliqui), "
        "turista (tarjeta), ipc (la inflación), plazo fijo tradicional; la serie común va antes que sus variantes",
        "",
        "## Parámetros de consulta",
        "",
        *(f"- `{p.name}` ({p.values_text()}): {_first_clause(p.description)}. En {p.where}" for p in PARAMETERS),
        "",
        "## Rutas /v1",
        "",
    ]
    lines += route_lines(router)
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
