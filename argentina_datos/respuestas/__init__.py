"""What /v1 means, apart from HTTP: a route and its query -> a status and the body upstream publishes (or would
publish) there: its file as it came, or the records its list's typed table selects, in their published text.

Read by everything that answers or reproduces /v1: the web layer (``web/v1``: responses, cache, ETag, gzip, CSV
bytes), the static export (``publicacion/exportar_v1.py``: the routes it writes are chosen as the answers are)
and the documents (the OpenAPI document describes these routes and parameters).  It reads the database only
through ``almacen`` and SQL on the typed tables, and knows the routes only from the catalogue.
"""
