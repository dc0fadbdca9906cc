"""Datasette plugin: tables and queries for a spreadsheet in any language (docs/planilla.md).

- ``.xlsx`` beside ``.json`` and ``.csv`` (the documented ``register_output_renderer`` hook): the rows as an Excel
  workbook, numbers as numbers and dates as dates (web/v1/formatos.py, as /v1's ``formato=xlsx``).
- ``decimal=coma`` on a ``.csv`` (a layer, argentina_datos.web.capas): «;» between fields and a decimal comma, the CSV
  a Spanish-locale spreadsheet reads right, as /v1's ``formato=csv&decimal=coma``.  The parameter is taken out of
  the query string before Datasette sees it (on a table it would be a filter on a column «decimal»).
"""

from __future__ import annotations

import codecs
import csv
import io
from urllib.parse import parse_qsl, urlencode

from datasette import hookimpl
from datasette.utils.asgi import Response

from argentina_datos.web.v1.formatos import XLSX_TYPE, comma_decimal, to_xlsx

DECIMAL = "decimal"


@hookimpl
def register_output_renderer():
    return {"extension": "xlsx", "render": render_xlsx}


def render_xlsx(columns, rows, table, query_name, data):
    if data.get("error"):  # a query that failed: what failed, not an empty workbook
        return Response.text(f"La consulta falló: {data['error']}", status=400)
    name = table or query_name or "consulta"
    return Response(
        to_xlsx(list(columns), (tuple(r) for r in rows)),
        content_type=XLSX_TYPE,
        headers={"content-disposition": f'inline; filename="{name}.xlsx"'},
    )


def _rewritten(scope) -> tuple[dict, str | None]:
    """``scope`` without ``decimal`` in its query string, and the mark asked for (None: not asked)."""
    pairs = parse_qsl(scope.get("query_string", b"").decode("utf-8", "replace"), keep_blank_values=True)
    marks = [v for k, v in pairs if k == DECIMAL]
    if not marks:
        return scope, None
    rest = urlencode([(k, v) for k, v in pairs if k != DECIMAL]).encode()
    return {**scope, "query_string": rest}, marks[-1].lower()


class CommaCsv:
    """Datasette's CSV, as it streams, with «;» between fields and a decimal comma: rows are rewritten as soon as
    they are complete (a line break inside quotes, even quotes before it, is part of a field)."""

    def __init__(self) -> None:
        self.pending = ""
        self.decoder = codecs.getincrementaldecoder("utf-8")()  # a chunk may end inside a character

    def feed(self, chunk: bytes, last: bool = False) -> str:
        text = self.pending + self.decoder.decode(chunk, final=last)
        end = len(text) if last else _last_row_end(text)
        self.pending = text[end:]
        out = io.StringIO()
        writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
        for row in csv.reader(io.StringIO(text[:end], newline="")):
            writer.writerow([comma_decimal(c) for c in row])
        return out.getvalue()


def _last_row_end(text: str) -> int:
    """Where the last complete row of ``text`` ends (after its «\\n»), 0 if none is complete."""
    end, quotes = 0, 0
    for i, ch in enumerate(text):
        if ch == '"':
            quotes += 1
        elif ch == "\n" and quotes % 2 == 0:
            end = i + 1
    return end


def wrap(datasette, app):
    """This layer around `app` (the order of the layers is in argentina_datos.web.capas)."""

    async def comma_csv(scope, receive, send):
        if scope["type"] != "http" or not scope.get("path", "").endswith(".csv"):
            return await app(scope, receive, send)
        scope, mark = _rewritten(scope)
        if mark is None or mark == "punto":
            return await app(scope, receive, send)
        if mark != "coma":
            body = f"«{DECIMAL}» debe ser punto o coma, no «{mark[:40]}»\n".encode()
            headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            return await send({"type": "http.response.body", "body": body})
        rows, ok = CommaCsv(), True

        async def sending(message):
            nonlocal ok
            if message["type"] == "http.response.start":
                ok = message["status"] == 200
                if ok:  # the body changes length
                    kept = [(k, v) for k, v in message.get("headers", []) if bytes(k).lower() != b"content-length"]
                    message = {**message, "headers": kept}
            elif message["type"] == "http.response.body" and ok:
                last = not message.get("more_body", False)
                text = rows.feed(bytes(message.get("body", b"")), last)
                message = {**message, "body": text.encode()}
            await send(message)

        await app(scope, receive, sending)

    return comma_csv
