"""Datasette plugin: the pages a researcher reads first.

- The database page (``templates/database-argentina.html``) lists the tables by theme, each with its
  title and the start of its description, and the build's own tables last, where Datasette lists
  every name A→Z (starting with ``_construccion``).
- Table and row pages fold the column descriptions into a closed ``<details>`` (they filled the first
  screen before any data) and show the `code` in them as code.
- The pages are in Spanish: ``templates/`` holds copies of Datasette 0.65's own templates (base, index,
  table, row, query, error and their includes) with only their text translated, which a Datasette
  upgrade must copy again (web/compatibilidad.py, ``COPIED_TEMPLATES``); the numbers of the HTML tables
  read "1.430,5" (``castellano.py``), while their JSON and CSV stay as stored.
"""

from __future__ import annotations

import json
import weakref

from datasette import hookimpl
from datasette.database import QueryInterrupted
from markupsafe import Markup, escape

from argentina_datos.almacen import calidad, controles, propias
from argentina_datos.catalogo import BY_TABLE, references, tables_by_theme
from argentina_datos.catalogo.series import SPECS
from argentina_datos.documentacion.metadatos import code_html
from argentina_datos.respuestas import catalogo_series, frescura
from argentina_datos.web.paginas import castellano, explorador

INTERNAL = "Tablas de la construcción"
INTERNAL_TABLES = tuple(own.name for own in propias.TABLES)
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
def prepare_jinja2_environment(env, datasette):
    # What the copied templates use for Spanish text and Argentine numbers.
    env.filters["miles"] = castellano.thousands
    env.filters["filas"] = castellano.rows
    env.globals["describir_filtros"] = castellano.describe
    env.globals["operacion_de_filtro"] = castellano.lookup
    env.filters["en_castellano"] = castellano.error_text


# datasette -> (database, table) -> the table's units (metadata "units"): asked once per table, not per cell.
_units: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def table_units(datasette, database: str, table: str) -> dict:
    by_table = _units.setdefault(datasette, {})
    if (database, table) not in by_table:
        by_table[database, table] = dict(datasette.table_metadata(database, table).get("units") or {})
    return by_table[database, table]


@hookimpl
def render_cell(row, value, column, table, database, datasette):
    # Only the HTML pages call this hook: the JSON and CSV keep the stored number.
    if isinstance(value, (int, float)):
        unit = table_units(datasette, database, table).get(column) if table and database else None
        return castellano.cell(value, column, unit)
    dated = DATED_SERIES.get(table or "")
    if dated is None or column != dated[1] or not isinstance(value, str) or not database:
        return None

    async def marked():
        # A day the calidad table doubts in this row's series: the date cell says so, the values stay as published.
        spans = await doubtful_spans(datasette.get_database(database), table)
        names = row.keys()
        serie = calidad.series_label(dated[0], [row[c] if c in names else None for c in dated[0]])
        found = list(
            dict.fromkeys(control for first, last, control in spans.get(serie, ()) if first <= value[:10] <= last)
        )
        if not found:
            return None
        checks = "; ".join(found)
        return Markup(
            f'{escape(value)} <span class="dudoso" style="color: #c0392b" title="la tabla calidad pone en duda este valor: {escape(checks)}">'
            f"⚠ {escape(checks)}</span>"
        )

    return marked


# Each table of series (not a child table's): the columns that name its series and its date column.
DATED_SERIES: dict[str, tuple[tuple[str, ...], str]] = {}
for _spec in SPECS:
    if _spec.member is None:
        DATED_SERIES.setdefault(_spec.table, (tuple(_spec.by), _spec.declared.date))
# database -> table -> serie («casa=mayorista», None for a table of one series) -> (first day, last day, check) of
# the findings that doubt its values: read once per database file (a new build is a new Database).
_doubtful: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


async def doubtful_spans(db, table: str) -> dict:
    by_table = _doubtful.setdefault(db, {})
    if table not in by_table:
        marking = [c.name for c in controles.CONTROLS if c.marks]
        sql = (
            f"SELECT serie, fecha, coalesce(hasta, fecha), control FROM {propias.CALIDAD.name} WHERE tabla = ? "
            f"AND fecha IS NOT NULL AND control IN ({', '.join('?' * len(marking))}) ORDER BY fecha"
        )
        spans: dict = {}
        try:
            for serie, first, last, control in (await db.execute(sql, [table, *marking])).rows:
                spans.setdefault(serie, []).append((first[:10], last[:10], control))
        except Exception:  # a database without the calidad table: nothing marked
            pass
        by_table[table] = spans
    return by_table[table]


def first_tables(names: list[str]) -> list[str]:
    """What the home page lists of a database: the first table of each theme that it has, in the catalogue's
    order (Datasette lists the largest first, and the build's own history was the third link a newcomer saw)."""
    present = set(names)
    return [t for _, tables in tables_by_theme() for t in tables[:1] if t in present]


# The tables whose page opens with each category's last day (fci_serie: the categories end on different days,
# retornoTotal's listings on a day of their own).
LAST_DAY_BY_CATEGORY = ("fci_serie", "fci_serie_vista")
# A category's last day is the latest of its last day in each moneda: each one a search of the index on
# (moneda, categoria_id), whose entries end in the key (fecha, fondo_id); 0.1 ms, and so for a category that
# stopped long ago (a max(fecha) by categoria_id alone walks the key back to it: 0.56 s for one with no rows).
_LAST_DAYS = """
SELECT c.id, c.categoria,
       (SELECT max((SELECT max(fecha) FROM fci_serie s WHERE s.moneda IS m.moneda AND s.categoria_id = c.id))
        FROM (SELECT DISTINCT moneda FROM fci_serie) m) AS fecha,
       (SELECT count(*) FROM fci_serie s WHERE s.moneda IS NULL AND s.categoria_id = c.id) AS sin_moneda
FROM fci_valores_categoria c ORDER BY c.id
"""


async def last_days(db) -> dict | None:
    """Each category's last day in fci_serie, the last day they all have and the rows without a currency
    (searches of fci_serie's index on (moneda, categoria_id))."""
    try:
        rows = [r for r in (await db.execute(_LAST_DAYS)).rows if r[2]]
    except QueryInterrupted:  # a database built before those indexes: the page, without the box
        return None
    if not rows:
        return None
    common = min(r[2] for r in rows)
    categories = [{"id": i, "categoria": c, "fecha": f, "propia": f != common, "sin_moneda": n} for i, c, f, n in rows]
    return {"comun": common, "categorias": categories}


async def findings_on(db, table: str, serie: str | None = None) -> dict | None:
    """How many findings the calidad table has on ``table`` (on its series ``serie``, «casa=mayorista», if given),
    and how many of them doubt a span of its values."""
    marking = [c.name for c in controles.CONTROLS if c.marks]
    sql = (
        f"SELECT count(*), coalesce(sum(control IN ({', '.join('?' * len(marking))})), 0) "
        f"FROM {propias.CALIDAD.name} WHERE tabla = ?" + (" AND serie = ?" if serie else "")
    )
    try:
        total, doubtful = (await db.execute(sql, [*marking, table, *([serie] if serie else [])])).rows[0]
    except Exception:  # a database without the calidad table: the page, without the box
        return None
    return {"total": total, "dudosos": doubtful, "serie": serie} if total else None


def filtered_series(table: str, args) -> str | None:
    """The series a table page's filter picks (``casa=mayorista``, or ``casa__exact=``), as calidad names it; None
    if the page does not pick one by every column that names its series."""
    names = DATED_SERIES.get(table, ((), ""))[0]
    values = [args.get(c) or args.get(f"{c}__exact") for c in names]
    return calidad.series_label(names, values) if names and all(values) else None


async def freshness(db) -> list[dict]:
    """The main data's last dates (respuestas/frescura.py, from the series table): what the home and database
    pages say in one line; [] for a database without the series table."""
    datasets = await db.execute_fn(lambda conn: frescura.by_dataset(conn, catalogo_series.today()))
    return [
        {"titulo": d.titulo, "hasta": d.hasta[:10], "atrasado": d.atrasado} for d in datasets if d.principal and d.hasta
    ]


@hookimpl
def menu_links(datasette):
    return [{"href": datasette.urls.path(explorador.PATH), "label": "Series"}]


@hookimpl
def extra_template_vars(template, database, table, datasette, request):
    if template == "index.html":

        async def home():
            out, fresh = {}, {}
            for name, db in datasette.databases.items():
                out[name] = first_tables(await db.table_names())
                fresh[name] = await freshness(db) if not name.startswith("_") else []
            return {"primeras_tablas": out, "frescura": fresh, "explorador": datasette.urls.path(explorador.PATH)}

        return home
    if template.startswith("table") and table in LAST_DAY_BY_CATEGORY and database:

        async def by_category():
            return {"ultimos_dias": await last_days(datasette.get_database(database))}

        return by_category
    dataset = BY_TABLE.get(table or "")
    if template.startswith("table") and database and dataset is not None and dataset.series is not None:

        async def quality():
            serie = filtered_series(dataset.table, request.args) if request is not None else None
            db = datasette.get_database(database)
            # the page's series, when its filter picks one and the calidad table has findings on it
            return {
                "hallazgos": serie
                and await findings_on(db, dataset.table, serie)
                or await findings_on(db, dataset.table)
            }

        return quality
    if not template.startswith("database") or database is None:
        return None

    async def groups():
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
        return {"groups": out, "frescura": await freshness(db), "explorador": datasette.urls.path(explorador.PATH)}

    return groups


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


SCRIPT = "paginas.js"  # static/paginas.js: what the table and row pages run


def _table_or_row(template: str) -> bool:
    return template.startswith("table") or template.startswith("row")


def _dashboard(template: str) -> bool:
    return template.startswith("dashboard_")  # datasette-dashboards' pages


@hookimpl
def register_routes():
    return [(rf"^{explorador.PATH}$", explorador.explorer)]


@hookimpl
def extra_js_urls(template, datasette):
    if not _table_or_row(template) and not _dashboard(template):
        return None
    # Datasette serves a plugin package's static/ under its distribution's name.
    return [datasette.urls.static_plugins("argentina-datos", SCRIPT)]


@hookimpl
def extra_body_script(template, database, table, datasette):
    if _dashboard(template):
        return "argentinaDatos.translateDashboard();"
    if not _table_or_row(template):
        return None
    calls = [
        "argentinaDatos.translateColumnMenus();",
        "argentinaDatos.foldColumnDescriptions();",
    ]
    label = datasette.table_metadata(database, table).get("label_column") if database and table else None
    if template.startswith("row") and label:
        calls.append(f"argentinaDatos.titleRowByLabel({json.dumps(label)});")
    related = related_rows(database, table, datasette) if template.startswith("row") and table else []
    if related:
        calls.append(f"argentinaDatos.listRelatedRows({json.dumps(related)});")
    return "\n".join(calls)
