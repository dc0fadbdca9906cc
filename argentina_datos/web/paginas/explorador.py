"""The series explorer, ``/-/series``: search the catalogue of series, pick some, choose range, period,
transform and conversion, see them in a Vega-Lite chart (the one the dashboards load) and download the CSV.
The page only asks /v1/series and /v1/series/datos: what it shows is what the API answers."""

from __future__ import annotations

from datasette.utils.asgi import Response

from argentina_datos.catalogo.parametros import CASA_ALIASES, CASAS
from argentina_datos.respuestas.catalogo_series import dollars_of

PATH = "/-/series"
SCRIPT = "series.js"


async def explorer(datasette, request):
    vega = [
        datasette.urls.static_plugins("datasette_dashboards", f)
        for f in ("vega.min.js", "vega-lite.min.js", "vega-embed.min.js")
    ]
    html = await datasette.render_template(
        "series.html",
        {
            "casas": [(c, dollars_of(c)) for c in CASAS if c not in CASA_ALIASES],
            "scripts": [*vega, datasette.urls.static_plugins("argentina-datos", SCRIPT)],
        },
        request=request,
    )
    return Response.html(html)
