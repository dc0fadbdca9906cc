"""Serving: the Datasette server, its plugins and the /v1 API."""
