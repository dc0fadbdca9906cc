"""Generated documents: Datasette's metadata and the OpenAPI description of /v1."""
