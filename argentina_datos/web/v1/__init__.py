"""The /v1 API: the plugin, the ASGI answer and its cache, the router, ranges and CSV."""
