"""The /v1 API: the plugin, the ASGI answer and its cache, the router, ranges and CSV."""


def is_v1(path: str) -> bool:
    """A path of the /v1 API, which answers its own methods and never waits for the pages' turns.  In any case
    (/V1/feriados/2025): a client that guessed wrong gets /v1's JSON 404 naming the route, not an HTML page."""
    return path[:4].lower() == "/v1/" or path.lower() == "/v1"
