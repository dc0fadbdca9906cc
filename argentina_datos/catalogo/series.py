"""The catalogue of series, declared from the datasets: each measure of a dataset or derived table with a
``Series`` (``values``), for each value of its naming fields (``by``: a casa, a moneda, a fund, a bank), is one
series.

Only declarations: which measure, of which kind and unit, how often, on which /v1 route, and the rule of its id.
The values of the naming fields are the data's (respuestas/catalogo_series.py reads them); a new dataset with a
``Series`` gets its series without more code.

A declaration's ``member`` puts its measures in a child table (a bank's UVA rates by term range, a wallet's
yields by currency): its series are named by the dataset's columns and the child's, and their table is the child's.

The id of a series (``series_id``), stable from one build to the next: its table (the child table, for a member's),
then each naming value (the dataset's first, then the child's), then its measure (unless it is the table's only one),
joined by dots.  A naming value made only of ASCII letters, digits, ``_`` and ``-`` is written as published
(``cotizaciones_dolares.blue.venta``, ``cotizaciones.EUR.compra``); any other, and the name an id column stands for
(a fund's ``fondo_id`` is its name), as its slug: lowercase, without accents, other characters as hyphens
(``fci_serie.balanz-money-market-usd-clase-a.vcp``,
``plazo_fijo_uva_pago_periodico_historico_tasas.banco-de-la-nacion-argentina.90.119.tna``).  Two values with
the same slug in one table (rare) keep the first one's id for the value that sorts first; the next one gets
``~`` and six hex digits of the SHA-1 of its published value appended, which depend on nothing else.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Mapping, Optional, Sequence, Union

from argentina_datos.catalogo import THEMES
from argentina_datos.catalogo.esquema import (
    INTEGER,
    NUMBER,
    Children,
    Dataset,
    DerivedTable,
    Field,
    PathValue,
    Route,
    Series,
    flat_columns,
)
from argentina_datos.catalogo.indices import CURRENCIES
from argentina_datos.catalogo.slug import slugify

# The peso's last change of unit (catalogo/indices.py, CURRENCIES): an amount of a day before it is not
# comparable with one after, and no conversion multiplies across it.
LAST_CURRENCY_CHANGE = CURRENCIES[-1][1]
CURRENCY_CHANGE = "; ".join(
    f"el {start} el {name} reemplazó al {before} ({units:,} = 1)".replace(",", ".")
    for (before, _, _), (name, start, units) in reversed(list(zip(CURRENCIES, CURRENCIES[1:])))
)

_ID_SAFE = re.compile(r"[A-Za-z0-9_-]+")
Table = Union[Dataset, DerivedTable]


def id_part(value: Any) -> str:
    """A naming value as part of an id: as published if id-safe, else its slug (the module's id rule)."""
    text = str(value)
    return text if _ID_SAFE.fullmatch(text) else (slugify(text) or "-")


def disambiguated(series_id: str, value: Any) -> str:
    """The id of a second series whose naming values have the same slugs as another's (the id rule)."""
    return f"{series_id}~{hashlib.sha1(str(value).encode()).hexdigest()[:6]}"


def measure_label(field: Field) -> str:
    """What a measure is, for a title: its description up to the first «;» or «(» (without the null note)."""
    return re.split(r"[;(]", field.description or field.name, maxsplit=1)[0].strip() or field.name


@dataclass(frozen=True)
class SeriesSpec:
    """One measure of a dataset: the series it makes, one per value of ``by`` (or one, without ``by``).  What it
    derives from its declaration is derived once (cached_property): the catalogue asks for it for every series."""

    dataset: Table
    field: Field
    kind: str
    frequency: str
    late_after: int
    theme: str  # the catalogue module of its dataset: cotizaciones, indices, tasas...
    route: str  # the dataset's list route (/v1/cotizaciones/dolares)
    # A route that publishes one series alone, with its ``by`` values in the path (/v1/cotizaciones/dolares/{casa}).
    by_route: Optional[Route]
    single: bool  # the dataset's only measure: its ids need not name it
    # The child table whose rows hold the measures (Series.member): its ``by`` columns are the dataset's and its.
    member: Optional[Children] = None

    @property
    def table(self) -> str:
        """The table its measure is a column of: the dataset's, or its member's child table."""
        return self.member.table if self.member is not None else self.dataset.table

    @cached_property
    def member_columns(self) -> frozenset[str]:
        """The columns of the member's child table (none without a member): the others are the dataset's."""
        return frozenset(c for c, _ in flat_columns(self.member.fields)) if self.member is not None else frozenset()

    @cached_property
    def fields(self) -> dict[str, Field]:
        """Every column it can be named, described or measured by -> its field."""
        own = _measures(self.dataset)
        return {**own, **dict(flat_columns(self.member.fields))} if self.member is not None else own

    @cached_property
    def declared(self) -> Series:
        assert self.dataset.series is not None
        return self.dataset.series

    @property
    def by(self) -> Sequence[str]:
        return self.declared.by

    @cached_property
    def names(self) -> dict[str, str]:
        """Each column that names or describes its series (by, labels, attributes) -> the name it is shown with:
        an id into a lookup table (``fondo_id``) is shown as the name it stands for (``fondo``)."""
        series = self.declared
        columns = dict.fromkeys([*series.by, *series.labels, *series.attributes])
        return {c: c.removesuffix("_id") if c in self.lookups else c for c in columns}

    @cached_property
    def lookups(self) -> dict[str, str]:
        """Its columns holding an id into a lookup table (a derived table's ``references``) -> that table."""
        return dict(self.dataset.references) if isinstance(self.dataset, DerivedTable) else {}

    def series_id(self, values: Sequence) -> str:
        """A stable, readable id (the module's rule): ``inflacion``, ``cotizaciones_dolares.blue.venta``."""
        parts = [self.table, *(id_part(v) for v in values)]
        if not self.single:
            parts.append(self.field.name)
        return ".".join(parts)

    def title(self, labels: Sequence) -> str:
        """Its title in Spanish: what it is, the names of the entity, the measure (unless the only one).  A naming
        number with a unit says what it is (a term range: «plazo mínimo 90 días, plazo máximo 119 días»)."""
        fields = self.fields
        shown = []
        for column, value in zip(self.declared.labels or self.by, labels):
            field = fields.get(column)
            if value is not None and field is not None and field.unit and isinstance(value, (int, float)):
                shown.append(f"{measure_label(field)} {value} {field.unit}")
            else:
                shown.append(str(value))
        title = (self.declared.title or self.dataset.title) + "".join(f", {v}" for v in shown)
        return title + (f": {measure_label(self.field)}" if not self.single else "")

    def keywords(self, values: Sequence) -> str:
        """The words its declaration adds to a search for the series named ``values``."""
        found = [w for key, w in self.declared.keywords.items() if any(key in str(v) for v in values)]
        return "; ".join(found)

    def unit(self, attributes: Mapping[str, Any]) -> Optional[str]:
        how = self.declared.unit
        return how(self.field, attributes) if how is not None else self.field.unit

    def route_of(self, values: Sequence) -> str:
        """The /v1 route that publishes this series: its own route if it has one, else the dataset's list."""
        if self.by_route is None:
            # a declared route with the naming values in its path (/v1/finanzas/fci/otros/{entidad})
            route = self.route
            for column, value in zip(self.by, values):
                route = route.replace("{" + column + "}", str(value))
            return route
        named = dict(zip(self.by, values))
        path = self.by_route.path
        for column, value in self.by_route.where.items():
            assert isinstance(value, PathValue)
            path = path.replace("{" + value.name + "}", str(named[column]))
        return path


def _list_route(dataset: Table, tables: Mapping[str, Dataset]) -> Optional[str]:
    series = dataset.series
    if series is not None and series.route:
        return series.route
    if isinstance(dataset, DerivedTable):
        return None
    if dataset.versions_of is not None:  # a history: the route whose versions it keeps
        return _list_route(tables[dataset.versions_of], tables)
    # a list, or one inside an envelope (/v1/finanzas/bonos-cer: {"fechaActualizacion", "bonos": [...]})
    return next((r.path for r in dataset.routes if not r.params and r.shape in ("list", "envelope")), None)


def _by_route(dataset: Table, by: Sequence[str], datasets: Sequence[Dataset]) -> Optional[Route]:
    """A route of another list of the same records whose path names exactly the ``by`` columns."""
    if not by or isinstance(dataset, DerivedTable):
        return None
    for other in datasets:
        if other.same_records_as != dataset.table:
            continue
        for route in other.routes:
            where = route.where
            if (
                route.shape == "list"
                and set(where) == set(by)
                and all(isinstance(v, PathValue) and v.name == c and not v.convert for c, v in where.items())
            ):
                return route
    return None


def _member(dataset: Table, series: Series) -> Optional[Children]:
    """The child table ``series.member`` names (None: the series are of the dataset's own rows)."""
    if not series.member:
        return None
    found = [c for _, c in getattr(dataset, "child_tables", ()) if c.name == series.member]
    assert found, f"{dataset.table}: Series.member «{series.member}» no es una tabla hija del conjunto"
    return found[0]


def _measures(dataset: Table) -> dict[str, Field]:
    """The columns a series can take its values from: its fields, and the numbers the builder computes."""
    fields = dict(flat_columns(dataset.fields))
    if isinstance(dataset, Dataset):
        for name, computed in dataset.derived.items():
            if computed.kind == NUMBER:
                fields.setdefault(name, Field(name, NUMBER, computed.description))
    return fields


def specs() -> list[SeriesSpec]:
    """Every measure of every dataset and derived table declared as a series with ``values``, in catalogue
    order."""
    datasets = [d for theme in THEMES for d in theme.DATASETS]
    tables = {d.table: d for d in datasets}
    themes = {d.table: theme.__name__.rsplit(".", 1)[-1] for theme in THEMES for d in theme.DATASETS}
    out = []
    for theme in THEMES:
        for dataset in [*theme.DATASETS, *getattr(theme, "DERIVED_TABLES", [])]:
            series = dataset.series
            route = _list_route(dataset, tables)
            if series is None or not series.values or route is None:
                continue
            lookups = set(getattr(dataset, "lookups", ()))
            used = {*series.by, *series.labels, *series.attributes, *series.values, series.date}
            assert not used & lookups, f"{dataset.table}: las series no leen columnas guardadas como ids ({lookups})"
            member = _member(dataset, series)
            fields = dict(flat_columns(member.fields)) if member is not None else _measures(dataset)
            assert member is None or not series.audited, f"{dataset.table}: una serie de una tabla hija no se audita"
            # the id rule: the dataset's naming values before the child's
            in_child = [member is not None and c in dict(flat_columns(member.fields)) for c in series.by]
            assert in_child == sorted(in_child), (
                f"{dataset.table}: «by» nombra las columnas del conjunto antes que las de su tabla hija"
            )
            for measure in series.values:
                # a number or NULL in every row (catalogo_series counts a series' days with IS NOT NULL)
                assert fields[measure].kind in (NUMBER, INTEGER), f"{dataset.table}.{measure}: una serie es de números"
                out.append(
                    SeriesSpec(
                        dataset,
                        fields[measure],
                        series.kind(measure),
                        series.frequency,
                        series.cadence,
                        # a history's series are of its base's theme (a bank's plazo fijo rate: tasas)
                        themes[getattr(dataset, "versions_of", None) or ""]
                        if getattr(dataset, "versions_of", None)
                        else theme.__name__.rsplit(".", 1)[-1],
                        route,
                        _by_route(dataset, series.by, datasets),
                        len(series.values) == 1,
                        member,
                    )
                )
    return out


SPECS = specs()
THEMES_WITH_SERIES = tuple(dict.fromkeys(s.theme for s in SPECS))

# The data a deployment exists for: while one of these datasets is late (its newest observation older than
# its cadence allows), /-/salud.json is not «ok» and `build-db --fallar-si-atrasada` (scripts/update.sh) fails.
ESSENTIAL = ("cotizaciones_dolares", "inflacion", "inflacion_interanual", "uva", "riesgo_pais")
# The columns that name or describe series, by the name they are shown with: /v1/series filters by them.
NAMING_FIELDS = tuple(dict.fromkeys(name for s in SPECS for name in s.names.values()))
