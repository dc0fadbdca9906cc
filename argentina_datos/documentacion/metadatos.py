"""metadata.yml, the documentation researchers read in Datasette, generated from the catalogue.

Every table the builder writes is described here from the same catalogue entry that
created it: the dataset's table, its child tables, its lookup tables and their view.
Hand-written parts live in ``partes/`` beside this module: ``base.yml`` (title, licence, the builder's own
tables, overrides), ``consultas.yml`` (canned queries) and, when present, ``tableros.yml``
(chart and dashboard plugins).  Hand-written YAML wins over generated values, so a
description or a facet list can be corrected without touching code.

    python -m argentina_datos.documentacion.metadatos           # writes metadata.yml
    python -m argentina_datos.documentacion.metadatos --check   # exit 1 if metadata.yml is stale
"""

from __future__ import annotations

import argparse
import copy
import html
import re
import sys
from pathlib import Path
from typing import Optional

import yaml

from argentina_datos.almacen import propias
from argentina_datos.almacen.tablas import Layout
from argentina_datos.catalogo import DATASETS, DERIVED_TABLES, LICENCIA, PORCENTAJE
from argentina_datos.catalogo.esquema import (
    BOOLEAN,
    JSON,
    ORDER,
    ROW_ID,
    Dataset,
    DerivedTable,
    Field,
    flat_fields,
)
from argentina_datos.catalogo.parametros import slash_date_to_iso

# Datasette keys metadata by database name, the file's stem.  Users serve argentina.db;
# servidor.datasette_for serves any other file (the tests') under this same name.
DATABASE = "argentina"
PARTS = Path(__file__).resolve().parent / "partes"
# In a checkout, the generated file sits at the root, where Datasette users look for it.
REPO = Path(__file__).resolve().parents[2]
METADATA = REPO / "metadata.yml"

# Datasette renders `units` with Pint: only units Pint knows, the rest stays in the text.
PINT_UNITS = {PORCENTAJE: "percent", "días": "day"}
KIND_NOTES = {
    BOOLEAN: "Booleano: 1 = sí, 0 = no.",
    JSON: "Texto JSON (usar json_extract / json_each para consultarlo).",
}
# The column a row is known by, when another table points at it.
# The column that names a row: Datasette shows it for a foreign key's value, and a row page's title
# is it (web/paginas) rather than the row's id.
LABELS = ("nombre", "entidad", "nombreComercial", "compania", "fondo", "titulo")
HEADER = (
    "# Generado por `python -m argentina_datos.documentacion.metadatos` desde argentina_datos/catalogo/\n"
    "# y argentina_datos/documentacion/partes/*.yml. No editar a mano: cambiar el catálogo o partes/ y volver a generar.\n"
)


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "?", "!")) else text + "."


def describe_field(f: Field, parent: str = "") -> str:
    text = f.description or f.name
    if parent:
        text = f"{parent}: {text}"
    parts = [sentence(text)]
    if f.unit and f.unit not in text:
        parts.append(f"Unidad: {f.unit}.")
    if f.kind in KIND_NOTES:
        parts.append(KIND_NOTES[f.kind])
    if f.optional and "null" not in text:
        parts.append("Null si el registro original no trae este campo.")
    return " ".join(parts)


def value_columns(members) -> list[tuple[str, Field, str]]:
    """(column, field, description) for the scalar columns of a record, as the storage layout has them."""
    return [(column, f, describe_field(f, parent)) for column, f, parent in flat_fields(members)]


def routes_text(dataset: Dataset) -> str:
    paths = [r.path for r in dataset.routes]
    if not paths:
        return "No respalda ninguna ruta /v1: está para consultas."
    return "Respalda " + ("la ruta " if len(paths) == 1 else "las rutas ") + ", ".join(paths) + "."


def partition_text(dataset: Dataset, name: str) -> str:
    param = next(p for p in dataset.partitions if p.name == name)
    routes = ", ".join(s.route for s in dataset.sources if "{" + name + "}" in s.route)
    fixed = sorted({str(s.fixed[name]) for s in dataset.sources if name in s.fixed})
    text = f"{sentence(param.description)} Tomado de la ruta del archivo ({routes})"
    if param.convert is slash_date_to_iso:
        text += ", con guiones en lugar de barras (2025/03/05 → 2025-03-05)"
    if fixed:
        text += (
            "; "
            + ", ".join(f"«{v}»" for v in fixed)
            + " para "
            + ", ".join(s.route for s in dataset.sources if name in s.fixed)
        )
    return text + "."


def code_html(text: str) -> str:
    """The text as HTML, its `names` as code (Datasette would show the backticks)."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))


def table_base(dataset: Dataset, description: str, title: str = "") -> dict:
    meta = {"title": title} if title else {}
    meta["description"] = description
    if dataset.origin:
        meta["source"] = dataset.origin
    if dataset.origin_url:
        meta["source_url"] = dataset.origin_url
    return meta


def facet_and_units(meta: dict, fields: list[tuple[str, Field, str]], stored) -> None:
    facets = [stored(c) for c, f, _ in fields if f.facet]
    if facets:
        meta["facets"] = facets
    units = {stored(c): PINT_UNITS[f.unit] for c, f, _ in fields if f.unit in PINT_UNITS}
    if units:
        meta["units"] = units


def label_for(columns) -> Optional[str]:
    return next((c for c in LABELS if c in columns), None)


def dataset_tables(dataset: Dataset) -> dict[str, dict]:
    """Metadata of every table and view the builder writes for one dataset."""
    layout = Layout(dataset)
    out: dict[str, dict] = {}
    fields = list(value_columns(dataset.fields))  # a scalar list's one Field is its one column
    extra = []
    if dataset.has_children:
        extra.append(
            f"Las listas anidadas están en {', '.join(c.table for c in layout.all_children())}, "
            f"unidas por {dataset.table}_id = {ROW_ID}."
        )
    main = table_base(dataset, " ".join([sentence(dataset.description), routes_text(dataset), *extra]), dataset.title)
    columns: dict[str, str] = {}
    looked_up: dict[str, str] = {}  # a lookup column's description, without where its id points
    if dataset.has_children:
        columns[ROW_ID] = (
            f"Clave interna de la fila; las tablas hijas la nombran en {dataset.table}_id. No es un dato de la API."
        )
    for p in dataset.partitions:
        text = partition_text(dataset, p.name)
        if p.name in layout.lookups:
            looked_up[p.name] = text
            columns[p.name + "_id"] = f"{text} Guardado como id de la tabla {layout.lookup_table(p.name)}."
        elif p.name not in layout.field_columns:
            columns[p.name] = text
    if dataset.ordered:
        key = ", ".join(layout.key[:-1])
        columns[ORDER] = (
            f"Posición del registro en su archivo (0 = primero). Con {key} forma la clave "
            "y conserva el orden en que la API lista los registros."
        )
    partition_names = set(dataset.partition_names)
    for column, f, text in fields:
        if column in partition_names and column in layout.field_columns:
            text += " También es la partición: " + partition_text(dataset, column)
        if column in layout.lookups:
            looked_up[column] = text
            columns[column + "_id"] = f"{text} Guardado como id de la tabla {layout.lookup_table(column)}."
        else:
            columns[column] = text
    for column, computed in dataset.derived.items():
        columns[column] = sentence(computed.description) + " Calculada al construir la base."
    main["columns"] = columns
    facet_and_units(main, fields, layout.stored)
    facets = main.get("facets", [])
    for p in dataset.partitions:
        # A dated history has hundreds of file dates: a facet of them would be noise.
        if layout.stored(p.name) not in facets and p.name not in layout.field_columns and p.name != "fecha":
            facets.append(layout.stored(p.name))
    if facets:
        main["facets"] = facets
    if dataset.sort:
        main["sort_desc"] = dataset.sort[0]
    own_fts = [c for c in dataset.fts if c not in layout.lookups]
    if own_fts:
        main["fts_table"] = dataset.table + "_fts"
        main["fts_pk"] = ROW_ID if dataset.has_children else "rowid"
        main["searchmode"] = "escaped"
        main["description"] += " Búsqueda de texto en: " + ", ".join(own_fts) + "."
    label = label_for(columns)
    if label:
        main["label_column"] = label
    out[dataset.table] = main

    for child in layout.all_children():
        member = child.member
        cfields = list(value_columns(member.fields))
        path = ".".join(child.path)
        cmeta = table_base(
            dataset,
            (
                f"{sentence(member.description or member.name)} Cada fila es un elemento de la lista «{path}» "
                f"de una fila de {child.parent_table}; en /v1 vuelve anidada dentro de su registro. "
                + routes_text(dataset)
            ),
            f"{dataset.title} — {member.description or member.name}",
        )
        ccols = {
            ROW_ID: "Clave interna del elemento. No es un dato de la API.",
            child.parent_column: f"Fila de {child.parent_table} a la que pertenece ({child.parent_table}.{ROW_ID}).",
            ORDER: f"Posición del elemento en la lista «{path}» (0 = primero).",
        }
        ccols.update({c: t for c, _, t in cfields})
        cmeta["columns"] = ccols
        facet_and_units(cmeta, cfields, lambda c: c)
        out[child.table] = cmeta

    for link in dataset.links:
        out[link.table]["columns"][link.column] = (
            sentence(link.description) + " Calculada al construir la base; /v1 no la muestra."
        )

    for column in layout.lookups:
        table = layout.lookup_table(column)
        what = looked_up.get(column, "")
        out[table] = table_base(
            dataset,
            (
                f"Valores distintos de «{column}» de {dataset.table}, guardados una vez: {dataset.table}.{column}_id "
                f"apunta a id. La vista {layout.view_name} ya los trae resueltos."
            ),
            f"{dataset.title} — valores de «{column}»",
        )
        out[table]["columns"] = {"id": f"Id del valor (lo usa {dataset.table}.{column}_id).", column: what}
        out[table]["label_column"] = column
        out[table]["sort"] = column
        if column in dataset.fts:
            out[table]["fts_table"] = table + "_fts"
            out[table]["fts_pk"] = "id"
            out[table]["searchmode"] = "escaped"
            out[table]["description"] += (
                f" Búsqueda de texto en «{column}»: cada resultado enlaza a sus filas de {dataset.table}."
            )

    if layout.view_select():
        vcols = {}
        for name, text in columns.items():
            base = name[:-3] if name.endswith("_id") and name[:-3] in layout.lookups else name
            vcols[base] = looked_up[base] if base != name else text
        out[layout.view_name] = table_base(
            dataset,
            (
                f"La tabla {dataset.table} con {', '.join(layout.lookups)} como texto en lugar de ids: la forma más "
                f"cómoda de consultarla. " + sentence(dataset.description)
            ),
            # The page adds «(vista)» to a view's title.
            dataset.title + ", con nombres",
        )
        out[layout.view_name]["columns"] = vcols
    return out


def catalogue_tables() -> dict[str, dict]:
    tables: dict[str, dict] = {}
    for dataset in DATASETS:
        tables.update(dataset_tables(dataset))
    for derived in DERIVED_TABLES:
        tables[derived.table] = derived_table(derived)
        if derived.references:
            tables[derived.table + "_vista"] = derived_view(derived, tables)
    # The build's own tables, as almacen/propias.py declares them.
    tables.update((own.name, own.metadata()) for own in propias.TABLES)
    return tables


def derived_view(derived: DerivedTable, tables: dict[str, dict]) -> dict:
    """Metadata of the view of a derived table with the names its ids point to (construccion/derivadas.py)."""
    meta = derived_table(derived)
    meta["title"] += ", con nombres"  # the page adds «(vista)»
    meta["description"] = (
        f"La tabla {derived.table} con el valor que nombra cada id al lado del id: la forma más cómoda de "
        f"leerla (también desde pandas). " + meta["description"]
    )
    columns: dict[str, str] = {}
    for name, text in meta["columns"].items():
        columns[name] = text
        target = dict(derived.references).get(name)
        if target:
            value = name.removesuffix("_id")
            columns[value] = tables.get(target, {}).get("columns", {}).get(value, "") or f"el valor de {target}"
    meta["columns"] = columns
    # No facet on the whole view: counting its 1.3 million rows by moneda (0.2-0.3 s) hit the facets' time
    # limit on a loaded machine and the page opened on «Estas facetas tardaron demasiado»; the table has it,
    # and any column of the view can be faceted from its menu.
    meta.pop("facets", None)
    return meta


def derived_table(derived: DerivedTable) -> dict:
    """Metadata of a table the builder computes from others (not published upstream, not in /v1)."""
    meta: dict = {
        "title": derived.title,
        "description": sentence(derived.description) + " Calculada al construir la base; no es una ruta de /v1.",
    }
    if derived.origin:
        meta["source"] = derived.origin
    if derived.origin_url:
        meta["source_url"] = derived.origin_url
    fields = [(f.name, f, describe_field(f)) for f in derived.fields]
    meta["columns"] = {name: text for name, _, text in fields}
    facet_and_units(meta, fields, lambda c: c)
    if derived.sort:
        # Newest first, as every dataset's table: fci_serie's first rows are a few stale 2010-2018 values.
        meta["sort_desc"] = derived.sort[0]
    return meta


def merge(base: dict, extra: dict) -> dict:
    """Deep merge: mappings merge key by key, anything else in ``extra`` replaces."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def read_part(name: str, parts: Path) -> dict:
    path = parts / name
    if not path.exists():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise SystemExit(f"{path}: YAML inválido: {e}")
    if not isinstance(data, dict):
        raise SystemExit(f"{path}: se esperaba un mapa de claves en el nivel superior")
    return data


def build(parts: Path = PARTS) -> dict:
    base = read_part("base.yml", parts)
    # Site-wide keys first (as a reader expects them), then the generated tables under base's overrides.
    metadata = {k: v for k, v in base.items() if k != "databases"}
    generated = {DATABASE: {"tables": catalogue_tables()}}
    metadata["databases"] = merge(generated, base.get("databases") or {})
    for meta in metadata["databases"][DATABASE]["tables"].values():
        if "`" in meta.get("description", "") and "description_html" not in meta:
            meta["description_html"] = code_html(meta["description"])
        # The compilation is upstream's, under MIT; the data is its original source's, named per table
        # (every page said "MIT" alone, for INDEC's and the BCRA's data too).
        origin = meta.get("source")
        if origin and origin not in ("ArgentinaDatos", "argentina-datos"):
            meta.setdefault("license", f"{LICENCIA} para la compilación; los datos: {origin}")
        else:
            meta.setdefault("license", LICENCIA)
        if metadata.get("license_url"):
            meta.setdefault("license_url", metadata["license_url"])
    consultas = read_part("consultas.yml", parts)
    # consultas.yml is either the query mapping itself or a full `databases:` tree.
    if "databases" not in consultas:
        consultas = {"databases": {DATABASE: {"queries": consultas}}}
    metadata = merge(metadata, consultas)
    # A saved query's `code` as code, as a table's: its page showed the backticks (tramos_dudosos)
    for query in (metadata["databases"][DATABASE].get("queries") or {}).values():
        if isinstance(query, dict) and "`" in query.get("description", "") and "description_html" not in query:
            query["description_html"] = code_html(query["description"])
    tableros = read_part("tableros.yml", parts)
    metadata = merge(metadata, tableros)
    name_chart_databases(metadata)
    return metadata


def name_chart_databases(metadata: dict) -> None:
    """datasette-dashboards needs the database (`db`) of every chart and filter with a query; the
    served database is always DATABASE (servidor.datasette_for names it so), so tableros.yml leaves
    it out.  A chart that names its own keeps it."""
    dashboards = (metadata.get("plugins") or {}).get("datasette-dashboards") or {}
    for dashboard in dashboards.values():
        if not isinstance(dashboard, dict):
            continue
        for kind in ("charts", "filters"):
            for spec in (dashboard.get(kind) or {}).values():
                if isinstance(spec, dict) and spec.get("query"):
                    spec.setdefault("db", DATABASE)


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (SQL, HTML) as literal blocks, so metadata.yml stays readable; a part's YAML
    anchors (the charts' shared config) written out in full rather than as &id001 / *id001."""

    def ignore_aliases(self, data):
        return True


def _str(dumper, value: str):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def load() -> dict:
    """The metadata to serve: metadata.yml in a checkout, else (an installed package) built now."""
    if METADATA.exists():
        return yaml.safe_load(METADATA.read_text(encoding="utf-8")) or {}
    return build()


def render(metadata: dict) -> str:
    return HEADER + yaml.dump(metadata, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m argentina_datos.documentacion.metadatos",
        description="Genera metadata.yml desde el catálogo y partes/*.yml.",
    )
    p.add_argument("--check", action="store_true", help="sólo verificar que metadata.yml está al día")
    p.add_argument("--output", type=Path, default=METADATA)
    args = p.parse_args(argv)
    text = render(build())
    if args.check:
        current = args.output.read_text(encoding="utf-8") if args.output.exists() else ""
        if current != text:
            print(
                f"{args.output} no está al día: corra python -m argentina_datos.documentacion.metadatos",
                file=sys.stderr,
            )
            return 1
        return 0
    args.output.write_text(text, encoding="utf-8")
    print(f"escrito {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
