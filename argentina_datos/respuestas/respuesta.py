"""What a /v1 answer is, whoever computes it: a status and a body (``Answer``), or an error (``ApiError``) that
becomes one.  The lowest module of ``respuestas``: the query, the selection and the routes all raise its errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import orjson

from argentina_datos.almacen import publicados


class ApiError(Exception):
    """A 4xx answer: its status, its message (in Spanish) and the parameter at fault, if one is."""

    def __init__(self, status: int, message: str, param: Optional[str] = None):
        super().__init__(message)
        self.status, self.message, self.param = status, message, param


class BadQuery(ApiError):
    """A 400: a query parameter the route does not take, or a value it cannot have."""

    param: str

    def __init__(self, param: str, message: str):
        super().__init__(400, message, param)


@dataclass(frozen=True)
class Answer:
    status: int
    data: Any = None  # the JSON-ready answer (status 200)
    raw: Optional[bytes] = None  # or the bytes of a file upstream published, answered as they came
    gzip: Optional[bytes] = None  # ... and the same compressed, as stored (served as they are to gzip clients)
    message: str = ""  # an error's explanation (status >= 400)
    param: Optional[str] = None  # the parameter at fault, if one is
    next_page: Optional[str] = None  # a paged answer's next page (its URL), when it has one

    def json(self) -> bytes:
        """The body of a 200: exactly the bytes upstream's file would have (an answer no file has, as upstream
        writes its files)."""
        return self.raw if self.raw is not None else publicados.written(self.data)

    def records(self) -> Any:
        """The answer as JSON-ready data (for CSV and iCalendar)."""
        return self.data if self.raw is None else orjson.loads(self.raw)
