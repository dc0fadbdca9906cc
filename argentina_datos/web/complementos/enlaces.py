"""Datasette plugin: logos and photos shown as images, lists of links (a senator's `redes`) as links.

Datasette already turns a cell that is a single URL into a link; this covers what it does not.
Which columns hold image URLs is configured in metadata.yml (plugins: enlaces: imagenes).
"""

import json
from urllib.parse import urlparse

import markupsafe
from datasette import hookimpl

DEFAULT_IMAGES = ("logo", "imagen", "foto")


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
@hookimpl(tryfirst=True)
def render_cell(value, column, table, database, datasette):
    if not isinstance(value, str):
        return None
    text = value.strip()
    config = datasette.plugin_config("enlaces", database=database, table=table) or {}
    if column in config.get("imagenes", DEFAULT_IMAGES) and _is_http(text):
        url = markupsafe.escape(text)
        return markupsafe.Markup(
            f'<a href="{url}"><img src="{url}" alt="{markupsafe.escape(column)}" loading="lazy" '
            f'style="max-height: 3em; max-width: 8em"></a>'
        )
    if text.startswith("[") and text.endswith("]"):
        try:
            items = json.loads(text)
        except ValueError:
            return None
        if items and all(isinstance(i, str) for i in items) and any(_is_http(i) or "@" in i for i in items):
            return markupsafe.Markup(", ".join(_link(i) for i in items))
    return None
