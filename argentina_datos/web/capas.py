"""Datasette plugin: the layers every request crosses before Datasette, in one explicit order.

Each layer is a plain `wrap(datasette, app)` in its own module.  Composing them here, rather than
as one `asgi_wrapper` hook per module, keeps their order a visible list instead of an accident of
the order in which the plugins were registered.
"""

from datasette import hookimpl

from argentina_datos.web import recarga, registro
from argentina_datos.web.complementos import cabeza, descarga, errores, limites, planilla, solo_lectura, turnos
from argentina_datos.web.v1 import complemento as v1

# Outermost first.  With --log-json every answer is logged; a head past the limits is answered
# before anything else; a request then looks for a new build (so /v1 and the pages read the same file), then /v1
# answers its own routes, leaving to the pages the database download (which drops Datasette's chunked encoding:
# looking at every /v1 answer's headers for it cost a quarter of this chain's time per cached /v1 request),
# Datasette's page turns, read-only rule and limits; a database that fails under Datasette itself is a 503. A
# CSV with decimal=coma (web/complementos/planilla.py) is rewritten as Datasette streams it.
LAYERS = (
    registro.wrap,
    cabeza.wrap,
    recarga.wrap,
    v1.wrap,
    descarga.wrap,
    planilla.wrap,
    turnos.wrap,
    solo_lectura.wrap,
    limites.wrap,
    errores.wrap,
)


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        for layer in reversed(LAYERS):
            app = layer(datasette, app)
        return app

    return wrap
