"""Datasette plugin: pages served after a new build replaced the database file read the new file
(see argentina_datos.recarga; /v1 looks too, in plugins/api_v1.py)."""
from datasette import hookimpl

from argentina_datos import recarga


@hookimpl
def startup(datasette):
    # Which file each database reads is noted now, before anything can replace it.
    recarga.look(datasette, force=True)


@hookimpl
def asgi_wrapper(datasette):
    def wrap(app):
        async def looking(scope, receive, send):
            if scope["type"] == "http":
                recarga.look(datasette)
            await app(scope, receive, send)

        return looking

    return wrap
