"""What /v1 means, apart from HTTP: a route and its query -> a status and the records to answer.

Read by everything that answers or reproduces /v1: the web layer (``web/v1``: responses, cache,
ETag, gzip, CSV bytes), the builder (a previous build's files are its answers) and the documents
(the OpenAPI document describes these routes and parameters).  It reads the database only through
``almacen`` and knows the routes only from the catalogue.
"""
