"""The /v1 API: the plugin, the ASGI answer and its cache, the router, ranges and CSV."""


def is_v1(path: str) -> bool:
    """A path of the /v1 API, which answers its own methods and never waits for the pages' turns."""
    return path == "/v1" or path.startswith("/v1/")
