"""Datasette plugin: the pages a researcher reads first.

- The database page (``templates/database-argentina.html``) lists the tables by theme, each with its
  title and the start of its description, and the build's own tables last, where Datasette lists
  every name A→Z (starting with ``_construccion``).
- Table and row pages fold the column descriptions into a closed ``<details>`` (they filled the first
  screen before any data) and show the `code` in them as code.
"""

from __future__ import annotations

import json

from datasette import hookimpl
from markupsafe import Markup

from argentina_datos.catalogo import references, tables_by_theme
from argentina_datos.documentacion.metadatos import code_html

INTERNAL = "Tablas de la construcción"
INTERNAL_TABLES = ("fuentes", "calidad", "documentos")
SUMMARY_CHARS = 240


def group_tables(names: list[str]) -> list[tuple[str, list[str]]]:
    """The database's tables by theme, in the catalogue's order.  A dataset's child, lookup and view
    tables go with it (their names start with its name); the build's own tables, and any table no
    theme claims, go last."""
    themes = tables_by_theme()
    owner = {table: title for title, tables in themes for table in tables}
    by_length = sorted(owner, key=len, reverse=True)
    groups: dict[str, list[str]] = {title: [] for title, _ in themes}
    internal = []
    for name in names:
        title = owner.get(name) or next((owner[t] for t in by_length if name.startswith(t + "_")), None)
        if title is None or name.startswith("_") or name in INTERNAL_TABLES:
            internal.append(name)
        else:
            groups[title].append(name)
    return [(title, tables) for title, tables in groups.items() if tables] + (
        [(INTERNAL, internal)] if internal else []
    )


def summary(description: str) -> str:
    """The first sentences of a description, up to about SUMMARY_CHARS."""
    if len(description) <= SUMMARY_CHARS:
        return description
    cut = description.rfind(". ", 0, SUMMARY_CHARS)
    return description[: cut + 1] if cut > 40 else description[:SUMMARY_CHARS].rsplit(" ", 1)[0] + " …"


@hookimpl
def extra_template_vars(template, database, datasette):
    if not template.startswith("database") or database is None:
        return None

    async def grupos():
        db = datasette.get_database(database)
        hidden = set(await db.hidden_table_names())
        names = [n for n in await db.table_names() if n not in hidden]
        out = []
        for title, tables in group_tables(names):
            rows = []
            for name in tables:
                meta = datasette.table_metadata(database, name)
                text = summary(meta.get("description") or "")
                rows.append({"name": name, "title": meta.get("title") or name, "description": Markup(code_html(text))})
            out.append({"title": title, "tables": rows})
        return {"grupos": out}

    return grupos


# Folds the column descriptions and turns `x` into <code>x</code>, on the text Datasette escaped.
COLUMN_DESCRIPTIONS = """
document.querySelectorAll("dl.column-descriptions").forEach(function (dl) {
  dl.querySelectorAll("dd").forEach(function (dd) {
    var parts = dd.textContent.split("`");
    if (parts.length < 3) return;
    dd.textContent = "";
    parts.forEach(function (part, i) {
      if (i % 2) { var code = document.createElement("code"); code.textContent = part; dd.appendChild(code); }
      else dd.appendChild(document.createTextNode(part));
    });
  });
  var details = document.createElement("details");
  details.className = "descripciones-de-columnas";
  var summary = document.createElement("summary");
  summary.textContent = "Qué es cada columna (" + dl.querySelectorAll("dt").length + ")";
  dl.parentNode.insertBefore(details, dl);
  details.appendChild(summary);
  details.appendChild(dl);
});
"""


# A row page is titled by the row's label (a senator's name) rather than by its key.
ROW_TITLE = """
(function (label) {
  var cell = document.querySelector("table.rows-and-columns td.col-" + label);
  var h1 = document.querySelector(".page-header h1") || document.querySelector("h1");
  if (!cell || !h1 || !cell.textContent.trim()) return;
  h1.textContent = h1.textContent.split(":")[0] + ": " + cell.textContent.trim();
  document.title = h1.textContent;
})(%s);
"""


# A row page lists the rows of other tables that name it (a senator's trips and votes), with their
# count, asked of this same server.
RELATED = """
(function (related) {
  var table = document.querySelector("table.rows-and-columns");
  if (!table) return;
  var box = document.createElement("div");
  box.className = "filas-relacionadas";
  var title = document.createElement("h2");
  title.textContent = "Filas que nombran a esta";
  var list = document.createElement("ul");
  list.className = "bullets";
  related.forEach(function (r) {
    var cell = table.querySelector("td.col-" + r.key);
    var value = cell && cell.textContent.trim();
    if (!value) return;
    var href = r.url + "?" + encodeURIComponent(r.column) + "=" + encodeURIComponent(value);
    var item = document.createElement("li");
    var a = document.createElement("a");
    a.href = href;
    a.textContent = r.title + " (" + r.table + "." + r.column + " = " + value + ")";
    item.appendChild(a);
    list.appendChild(item);
    fetch(r.url + ".json?_size=0&" + encodeURIComponent(r.column) + "=" + encodeURIComponent(value))
      .then(function (res) { return res.json(); })
      .then(function (data) { item.appendChild(document.createTextNode(": " + data.filtered_table_rows_count + " filas")); });
  });
  if (!list.children.length) return;
  box.appendChild(title);
  box.appendChild(list);
  table.parentNode.insertBefore(box, table.nextSibling);
})(%s);
"""


def related_rows(database: str, table: str, datasette) -> list[dict]:
    return [
        {
            "table": other,
            "column": column,
            "key": key,
            "title": datasette.table_metadata(database, other).get("title") or other,
            "url": datasette.urls.table(database, other),
        }
        for other, column, target, key in references()
        if target == table
    ]


@hookimpl
def extra_body_script(template, database, table, datasette):
    if not (template.startswith("table") or template.startswith("row")):
        return None
    script = COLUMN_DESCRIPTIONS
    label = datasette.table_metadata(database, table).get("label_column") if database and table else None
    if template.startswith("row") and label:
        script += ROW_TITLE % json.dumps(label)
    related = related_rows(database, table, datasette) if template.startswith("row") and table else []
    if related:
        script += RELATED % json.dumps(related)
    return script
