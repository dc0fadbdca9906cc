"""The vocabulary the catalogue is written in.

A dataset is one SQLite table fed by every source file whose route matches one
pattern.  Its fields are the API's own fields, in the API's order; the builder,
the /v1 routes, the metadata and the OpenAPI document all derive from them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field as dc_field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence, Union

if TYPE_CHECKING:
    from argentina_datos.catalogo.parametros import Param

from argentina_datos.catalogo.parametros import group_name, template_regex
from argentina_datos.catalogo.tipos import BOOLEAN, INTEGER, JSON, NUMBER, TEXT

SQL_TYPES = {TEXT: "TEXT", INTEGER: "INTEGER", NUMBER: "REAL", BOOLEAN: "INTEGER", JSON: "TEXT"}
PY_TYPES = {
    TEXT: (str,),
    INTEGER: (int,),
    NUMBER: (int, float),
    BOOLEAN: (bool,),
}
# The unit of text fields holding a calendar date; the builder reports values that are not one.
DATE_UNIT = "fecha AAAA-MM-DD"
DATETIME_UNIT = "fecha y hora ISO 8601"  # 2009-12-10T00:00:00-03:00, 2020-11-11T19:39:00.000Z
OPENAPI_TYPES = {TEXT: "string", INTEGER: "integer", NUMBER: "number", BOOLEAN: "boolean"}

ORDER = "orden"
# Internal key of tables with child tables (an API field may itself be called "id").
ROW_ID = "fila"


@dataclass(frozen=True)
class Field:
    """A scalar field: one column named after the API field."""

    name: str
    kind: str
    description: str = ""
    unit: Optional[str] = None
    nullable: bool = True
    optional: bool = False  # the key itself may be absent from a record
    facet: bool = False
    # «tabla(columna)» this field's value names (a trip's senadorId, a senator's id): the pages link each
    # row to the rows it names and back (catalogo.references).
    references: Optional[str] = None

    @property
    def is_date(self) -> bool:
        return self.kind == TEXT and self.unit == DATE_UNIT

    @property
    def is_datetime(self) -> bool:
        return self.kind == TEXT and self.unit == DATETIME_UNIT

    @property
    def in_pesos(self) -> bool:
        """An amount of pesos (its unit says so: pesos, pesos por dólar, pesos por UVA...): what
        ``ajustar=ipc`` expresses in pesos of another month."""
        return self.kind == NUMBER and (self.unit or "").startswith("pesos")


@dataclass(frozen=True)
class Obj:
    """A fixed-shape nested object, flattened into columns ``<name>_<field>``."""

    name: str
    fields: Sequence["Member"]
    description: str = ""
    optional: bool = False


@dataclass(frozen=True)
class Children:
    """A nested array of objects, stored in a child table joined by ``<parent>_id``."""

    name: str
    table: str
    fields: Sequence["Member"]
    description: str = ""
    optional: bool = False


Member = Union[Field, Obj, Children]


@dataclass(frozen=True)
class PathValue:
    """A value of a route's ``where`` taken from its path: the parameter ``name`` as parsed (turned by
    ``convert`` into the column's type, e.g. ``int`` for a month written "09"), or ``text`` made of the
    parameters, as in ``"{año}-{mes}"``."""

    name: str = ""
    convert: Optional[Callable[[Any], Any]] = None
    text: str = ""

    def of(self, values: Mapping[str, Any]) -> Any:
        if self.text:
            return self.text.format(**values)
        value = values[self.name]
        return self.convert(value) if self.convert else value


@dataclass(frozen=True)
class Count:
    """A published count of the records a derived answer would hold (a deputy's trips in
    /v1/diputados/viajes/conteo): the rows of ``table`` matching ``where``.  A value above zero in
    one of their ``columns`` means the source has records the database does not."""

    table: str
    where: dict
    columns: Sequence[str]


@dataclass(frozen=True)
class Derivation:
    """Where a per-date or per-id route finds its answer when upstream published no file at
    that path: the rows of another dataset (its list) that match ``where`` (a column -> a
    literal or a ``PathValue``), in that list's order.  The files the source does publish hold the
    same records as those rows: the audit compares them («rutas en desacuerdo»).

    With ``empty`` the list only vouches for the value (a deputy of /v1/diputados/diputados): the
    answer is the route's own record with the path's values and its lists empty (his trips), unless
    ``count`` says the source has such records, which the database then lacks (404).

    With ``member`` the list nests what the route answers: the answer is that list field of the one
    matching record (an entity's yields inside /v1/finanzas/rendimientos)."""

    table: str
    where: dict
    empty: bool = False
    count: Optional[Count] = None
    member: Optional[str] = None


@dataclass(frozen=True)
class Route:
    """A /v1 route: its file where upstream publishes one, else the published records of the rows of the
    dataset's table (or of ``derive``'s) that match ``where`` (respuestas/seleccion.py).

    ``where`` maps a column to a literal or to a ``PathValue`` of the parsed path
    parameters.  ``shape``: ``list`` (all matching records), ``one`` (the first
    matching record), ``last`` (the last one in list order), ``envelope`` (only
    its file: the envelope's fields around the list).
    """

    path: str
    params: Sequence["Param"] = ()
    where: dict = dc_field(default_factory=dict)
    shape: str = "list"
    summary: str = ""
    derive: Optional[Derivation] = None  # the answer for paths upstream has no file of


@dataclass(frozen=True)
class Source:
    """Files of a dataset: a route pattern such as ``v1/feriados/{listado}``.

    ``fixed`` gives partition values for routes with no placeholder (``v1/feriados``
    is stored with ``listado = 'actual'``).  ``history`` marks dated past versions
    read from the history tree instead of the mirror.
    """

    route: str
    fixed: dict = dc_field(default_factory=dict)
    history: bool = False

    @functools.cached_property
    def placeholders(self) -> list[str]:
        return re.findall(r"{(\w+)}", self.route)

    def values(self, route: str, partitions: Sequence["Param"]) -> Optional[dict]:
        """The partition values of ``route`` (v1/..., no leading slash), each converted as its parameter says
        (2024/03/15 -> 2024-03-15); None if this pattern does not take it.  The one parser of a file's path."""
        if not self.placeholders:
            return dict(self.fixed) if route == self.route else None
        regex, converters = _parser(self.route, partitions)
        m = regex.fullmatch(route)
        if m is None:
            return None
        return {**self.fixed, **{name: convert(m.group(group)) for name, group, convert in converters}}


_PATTERNS: dict[tuple[str, tuple[str, ...]], tuple[re.Pattern, list]] = {}


def pattern_regex(route: str, partitions: Sequence["Param"]) -> re.Pattern:
    """A file pattern's regex: asked for every file of a dataset (12,500 times a build), compiled once."""
    return _parser(route, partitions)[0]


def _parser(route: str, partitions: Sequence["Param"]) -> tuple[re.Pattern, list]:
    """A file pattern's regex and, for each placeholder, its name, its group and its parameter's conversion; made
    once, kept by the parameters' names (hashing the parameters themselves took most of the time of a dataset's
    2,441 routes; making this per route, half of the FCI's ultimo with fecha)."""
    key = (route, tuple(p.name for p in partitions))
    found = _PATTERNS.get(key)
    if found is None:
        params = {p.name: p for p in partitions}
        names = re.findall(r"{(\w+)}", route)
        converters = [(n, group_name(n), params[n].convert) for n in names]
        found = _PATTERNS[key] = (template_regex(route, params)[0], converters)
    return found


@dataclass(frozen=True)
class Link:
    """A column the records do not carry, filled once every table is built, from other tables: a
    Senate vote names its senator, found in the senadores table by the builder
    (construccion/calculos.py, RESOLVERS[(table, column)]).  The column is the researchers' (joins,
    Datasette's links to ``references``, «tabla(columna)»): /v1 answers what the source published and
    never shows it."""

    table: str  # the dataset's table or one of its child tables
    column: str
    description: str
    references: str = ""
    kind: str = TEXT
    # the other tables it is computed from: an incremental build fills it again when they change
    reads: Sequence[str] = ()


@dataclass(frozen=True)
class Computed:
    """A column the builder computes from each record (not published upstream, never in /v1)."""

    description: str  # for metadata.yml, as a Field's
    compute: Callable[[dict], Any]  # record -> value; a record it cannot read gets NULL
    kind: str = TEXT


# How often a series has a value (Series.frequency).
DAILY, MONTHLY = "diaria", "mensual"

# What a measure is (Series.kinds), which decides how it is grouped and changed (respuestas/consulta.py):
# a level (a price, an index, an amount: a period's mean), a rate per period (monthly inflation: a period
# compounds it), a yearly rate (TNA, TEA, a year-on-year change: averaged, never compounded per record), a count.
LEVEL, RATE, ANNUAL_RATE, COUNT = "nivel", "tasa", "tasa_anual", "conteo"
KINDS = (LEVEL, RATE, ANNUAL_RATE, COUNT)
# Days after its last observation a series is still on time (Series.late_after), by frequency: a daily quote
# skips weekends and a holiday or two; a monthly value appears weeks after the month it measures.
LATE_AFTER = {DAILY: 5, MONTHLY: 62}


@dataclass(frozen=True)
class Series:
    """The dataset is a time series, or one per value of ``by`` (a casa, a moneda): the build's data-quality
    audit (construccion/auditoria.py) looks in it for missing days, a stop, jumps, unit switches and one date
    with two different values."""

    frequency: str  # DAILY: a value every business day; MONTHLY: one a month
    by: Sequence[str] = ()  # the columns telling one series from another
    values: Sequence[str] = ()  # the measures (none: only the dates are checked)
    date: str = "fecha"
    kinds: Mapping[str, str] = dc_field(default_factory=dict)  # measure -> LEVEL, RATE...; LEVEL if not named
    # Days after its last observation before the series is late (the catalogue of series: «atrasada»);
    # None: LATE_AFTER of its frequency.
    late_after: Optional[int] = None
    # A year-on-year rate: the table of the monthly rate whose last 12 months it compounds (inflacion for
    # inflacion_interanual); the audit compares the two («series en desacuerdo»).
    compounds: str = ""
    # For the catalogue of series (catalogo/series.py), where the defaults do not say it:
    # the columns whose value on a series' last day names it in its title (a bank's name for its entidadId);
    # by default the ``by`` columns
    labels: Sequence[str] = ()
    # the columns that describe a series without naming it (a fund's category and currency): their value on its
    # last day, a filter of /v1/series (?moneda=USD) and a facet of the explorer
    attributes: Sequence[str] = ()
    # the unit of one series, from its measure's field and its attributes (a fund's currency, a REM
    # indicator's unit); by default the field's
    unit: Optional[Callable[["Field", Mapping[str, Any]], Optional[str]]] = None
    title: str = ""  # the start of its series' titles; by default the dataset's title
    route: str = ""  # the /v1 route its series come from, for a table without a list route (a derived table)
    # A series that stops is a «serie atrasada» finding; not where an entity that stops is no delay (a fund that
    # closed, a bank that no longer offers, a REM period already past).
    report_late: bool = True
    # Words a search finds a series by, besides its own: a naming value containing the key brings its words (the
    # REM's «Precios minoristas (IPC ...)» is the expected inflation).
    keywords: Mapping[str, str] = dc_field(default_factory=dict)
    # Checked by the audit (gaps, a stop, jumps...); not a series declared only for the catalogue of series, such
    # as the days we happen to hold a version of a snapshot (a gap there is ours, not the source's).
    audited: bool = True
    # The measures are those of a child table, the member of this name (a bank's UVA rates by term range, a wallet's
    # yields by currency): a series per value of ``by``, which names columns of the dataset and of that member
    # (entidad, plazoMinDias...); ``date`` is the member's own if it has one, else the dataset's.  Only for the
    # catalogue of series (not audited).
    member: str = ""
    # The series (values of its one ``by`` column) quoted on a market that does not trade on weekends and holidays
    # (the official, wholesale, MEP and CCL dollars): a quote of one on such a day that differs from the previous
    # business day's is a «cotización con el mercado cerrado» finding.
    closed_market: Sequence[str] = ()
    # The series the others follow (the official dollar): one that repeats its value for weeks while this one moves
    # is a «valor congelado», even when another series is still with it (a freeze two series share).
    reference: str = ""

    def kind(self, measure: str) -> str:
        return self.kinds.get(measure, LEVEL)

    @property
    def cadence(self) -> int:
        return self.late_after if self.late_after is not None else LATE_AFTER.get(self.frequency, 62)


def by_path(path: str, param: Param, column: str, summary: str, shape: str = "list") -> Route:
    """A route whose one path parameter selects the rows whose ``column`` is its value."""
    return Route(path, [param], where={column: PathValue(param.name)}, shape=shape, summary=summary)


def sourced(route: str, origin: str, url: str) -> dict:
    """A dataset's one file pattern and who publishes it, as Dataset's keywords (``**sourced(...)``)."""
    return {"sources": [Source(route)], "origin": origin, "origin_url": url}


@dataclass(frozen=True)
class Bound:
    """The values a measure can plausibly take: the audit (construccion/auditoria.py) flags each row with a
    value below ``low`` or above ``high`` («fuera de rango»), saying ``why``."""

    low: Optional[float] = None
    high: Optional[float] = None
    why: str = ""


@dataclass(frozen=True)
class Dataset:
    """One dataset as upstream publishes it: its files (`sources`), the table and columns that hold
    its records (`fields`, in the files' key order), and the /v1 routes it answers (`routes`).

    The builder, the /v1 router, metadata.yml and the OpenAPI document all read this one entry.
    """

    table: str
    title: str
    description: str
    fields: Sequence[Member]
    sources: Sequence[Source]
    origin: str = ""  # the original publisher (BCRA, INDEC, ...)
    origin_url: str = ""
    partitions: Sequence["Param"] = ()  # columns taken from the source path
    envelope_list: Optional[str] = None  # the key of the list inside an envelope object
    # The envelope's "list" is an object keyed by id ({"HCDN0055": {...}}): each entry is stored as a
    # record whose field ``keyed_by`` holds its key, and given back as that object, in stored order.
    keyed_by: Optional[str] = None
    envelope_fields: Sequence[Member] = ()  # the envelope's own fields, for the OpenAPI document
    unique: Sequence[str] = ()  # natural key, as a unique index
    indexes: Sequence[Sequence[str]] = ()
    fts: Sequence[str] = ()
    lookups: Sequence[str] = ()  # columns stored as ids into a table of distinct values
    scalar_records: bool = False  # the list holds bare values, stored in field 0
    single_record: bool = False  # each file is one record (an object), not a list
    # A history: the dated versions of a dataset upstream publishes only as "latest" (its table).
    # Every build adds the version it sees and carries forward every version of the previous build.
    versions_of: Optional[str] = None
    # Another list of the same records: upstream publishes them in the list of that table too (one house's
    # quotes are also in the all-houses list).  The audit compares the two, record by record, as it compares
    # a route's ``derive`` table with the files it stands in for («rutas en desacuerdo»); a record is told by
    # that table's Series (its ``by`` columns and date) and its ``values`` are compared.
    same_records_as: Optional[str] = None
    derived: dict[str, Computed] = dc_field(default_factory=dict)  # extra column -> how it is computed
    links: Sequence[Link] = ()  # columns filled from other tables once all are built
    sort: Sequence[str] = ()  # default sort in the Datasette UI
    series: Optional[Series] = None  # a time series, for the data-quality audit
    bounds: Mapping[str, Bound] = dc_field(default_factory=dict)  # column -> its plausible values, audited
    routes: Sequence[Route] = ()

    # ---- derived shape --------------------------------------------------
    @property
    def partition_names(self) -> list[str]:
        return [p.name for p in self.partitions]

    @property
    def field_names(self) -> list[str]:
        return [m.name for m in self.fields]

    def path_values(self, route: str) -> Optional[dict]:
        """The partition values of one of its published files (/v1/..., as ``fuentes`` names it)."""
        for source in self.sources:
            found = None if source.history else source.values(route.lstrip("/"), self.partitions)
            if found is not None:
                return found
        return None

    @property
    def ordered(self) -> bool:
        """Partitioned tables keep list order in an explicit column."""
        return bool(self.partitions)

    @property
    def child_tables(self) -> list[tuple[tuple[str, ...], Children]]:
        return list(children_with_paths(self.fields))

    @property
    def has_children(self) -> bool:
        return bool(self.child_tables)


def children_with_paths(members, prefix=()):
    for m in members:
        if isinstance(m, Children):
            yield prefix + (m.name,), m
        elif isinstance(m, Obj):
            yield from children_with_paths(m.fields, prefix + (m.name,))


def flat_fields(members: Sequence[Member], prefix: str = "", parent: str = "") -> list[tuple[str, Field, str]]:
    """The scalar columns of a record, objects flattened as ``parent_child``: (column, field, the
    description of the object it is in, "" at the top).  The one walk the storage layout
    (``flat_columns``) and the documents share."""
    out = []
    for m in members:
        if isinstance(m, Field):
            out.append((prefix + m.name, m, parent))
        elif isinstance(m, Obj):
            out.extend(flat_fields(m.fields, prefix + m.name + "_", m.description or m.name))
    return out


def flat_columns(members: Sequence[Member]) -> list[tuple[str, Field]]:
    return [(column, f) for column, f, _ in flat_fields(members)]


@dataclass(frozen=True)
class DerivedTable:
    """A table computed from built tables, for researchers: not published upstream, never in /v1.

    The builder creates it from `fields` (types and order) and `key`, then fills it as
    construccion/calculos.py says (FILLS[table]).  It is skipped when a table it `reads` is missing
    (a partial build).
    """

    table: str
    title: str
    description: str
    fields: Sequence[Field]
    key: Sequence[str]  # primary key (the table is WITHOUT ROWID)
    reads: Sequence[str]  # the tables it is computed from
    indexes: Sequence[Sequence[str]] = ()
    references: Sequence[tuple[str, str]] = ()  # (column, table): an id into a lookup table
    origin: str = ""
    origin_url: str = ""
    sort: Sequence[str] = ()
    series: Optional[Series] = None  # its series, for the catalogue of series (catalogo/series.py)

    @property
    def view_name(self) -> str:
        """Its view with names for ids (construccion/derivadas.view_sql), when it has ``references``."""
        return self.table + "_vista"


@dataclass(frozen=True)
class Combination:
    """A /v1 route that answers the lists of several datasets side by side, as upstream publishes
    some combined files (the Senate's trips): {envelope..., head..., list of each table...}."""

    path: str
    summary: str
    tables: Sequence[str]  # each contributes its records, under its dataset's envelope_list, in this order
    params: Sequence["Param"] = ()
    where: Mapping[str, str] = dc_field(default_factory=dict)  # column -> the parameter filtering every list
    head: Mapping[str, str] = dc_field(default_factory=dict)  # answer key -> the parameter it repeats
    envelope: Optional[str] = None  # the route whose stored envelope opens the answer
    envelope_fields: Sequence[Field] = ()  # that envelope's fields, for the OpenAPI document
    # (table, column): a value with no records in any list is still answered when this table knows it.
    known_in: Optional[tuple[str, str]] = None
