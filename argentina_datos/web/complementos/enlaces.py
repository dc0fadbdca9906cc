"""Datasette plugin: lists of links (a senator's `redes`) as links, and a value that names a row of
another table (a trip's senadorId) as a link to that row.

Datasette already turns a cell that is a single URL into a link, logos and photos too: they are shown
as their URL, never loaded from the outside host (a page of this site fetches nothing from others).
"""

import functools
import json
from urllib.parse import quote, urlparse

import markupsafe
from datasette import hookimpl

from argentina_datos.catalogo import references


def _is_http(text: str) -> bool:
    try:
        parsed = urlparse(text)
    except ValueError:
        return False
    return parsed.scheme in ("http", "https") and bool(parsed.netloc)


def _link(text: str) -> str:
    if _is_http(text):
        return f'<a href="{markupsafe.escape(text)}">{markupsafe.escape(text)}</a>'
    if "@" in text and " " not in text:
        return f'<a href="mailto:{markupsafe.escape(text)}">{markupsafe.escape(text)}</a>'
    return str(markupsafe.escape(text))


# tryfirst: the first plugin with an answer renders the cell, and the entry-point plugins (this one,
# datasette-json-html) are otherwise called in an order no one chose.
@functools.cache
def _named_rows() -> dict[tuple[str, str], tuple[str, str]]:
    return {(table, column): (target, key) for table, column, target, key in references()}


@hookimpl(tryfirst=True)
def render_cell(value, column, table, database, datasette):
    if not isinstance(value, str):
        return None
    text = value.strip()
    target = _named_rows().get((table, column))
    if target and text:
        href = datasette.urls.table(database, target[0]) + f"?{quote(target[1])}={quote(text)}"
        return markupsafe.Markup(f'<a href="{markupsafe.escape(href)}">{markupsafe.escape(text)}</a>')
    if text.startswith("[") and text.endswith("]"):
        try:
            items = json.loads(text)
        except ValueError:
            return None
        if items and all(isinstance(i, str) for i in items) and any(_is_http(i) or "@" in i for i in items):
            return markupsafe.Markup(", ".join(_link(i) for i in items))
    return None
