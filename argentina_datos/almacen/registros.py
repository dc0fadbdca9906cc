"""Records -> rows.

One codec per record shape turns an API record into a row tuple (and the rows
of its child tables), checking every value against the declared kind.  The rows are a
projection for SQL, pandas and Parquet, never read back into records: what upstream published is
kept as it came in the store of its files (publicados.py), and /v1 answers from there.  NUMBER
columns are REAL (a division never truncates). What does not fit the declared shape is not refused: its column is NULL and it is reported as a
Deviation (a row of the calidad table).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from itertools import compress, repeat
from typing import Any, Optional, Sequence

import orjson

from argentina_datos.almacen.calidad import FORBIDDEN_NULL, INEXACT, MISSING, UNDECLARED, WRONG_TYPE
from argentina_datos.catalogo.esquema import (
    JSON,
    NUMBER,
    PY_TYPES,
    Children,
    Field,
    Member,
    Obj,
    flat_columns,
)

NONE = type(None)
# Past 2**53 a REAL (a double) no longer holds every integer: such a value is a deviation, its column NULL.
MAX_EXACT = 2**53


class _Absent:
    """Stands for a key a record does not carry, where None would mean null."""


_ABSENT = _Absent()


@dataclass(frozen=True)
class Deviation:
    """Something a record carries that its declared shape does not foresee.  It does not stop a
    build: the file is kept as it came (publicados.py), the value in its column where it fits, and the deviation
    becomes a row of the ``calidad`` table."""

    path: tuple  # keys from the record down to the value; () is the record itself
    problem: str
    value: Any = None  # as it came (irrelevant for MISSING)

    @property
    def field(self) -> str:
        return ".".join(self.path)

    def describe(self) -> str:
        where = f"«{self.field}»" if self.path else "el registro"
        if self.problem == MISSING:
            return f"falta el campo obligatorio {where}"
        if self.problem == FORBIDDEN_NULL:
            return f"{where} es null"
        if self.problem == INEXACT:
            return f"{where} es un entero que una columna REAL no guarda exacto ({self.value}): /v1 lo devuelve tal como vino"
        shown = orjson.dumps(self.value).decode()[:60]
        if self.problem == UNDECLARED:
            return f"campo no declarado en el catálogo: {where} = {shown}"
        return f"{where} es {_type_name(self.value)} ({shown})"


def _type_name(value: Any) -> str:
    return {
        dict: "objeto",
        list: "lista",
        str: "texto",
        bool: "booleano",
        int: "entero",
        float: "número",
        NONE: "null",
    }.get(type(value), type(value).__name__)


class Codec:
    """Encodes the records of one table (a dataset or a child table) as rows.

    A row is the record's flattened scalar columns (``column_names``).  With ``scalar`` the records are bare
    values (a list of strings), stored in the single field's column.
    """

    def __init__(self, members: Sequence[Member], *, scalar: bool = False):
        self.members = list(members)
        self.scalar = scalar
        self.columns = flat_columns(self.members)  # [(column name, Field)]
        self.column_names = [c for c, _ in self.columns]
        # Positions of the NUMBER columns, where a value must fit a REAL as it came (``_fits_real``).
        self.number_columns = [] if scalar else [i for i, (_, f) in enumerate(self.columns) if f.kind == NUMBER]
        self.width = len(self.column_names)
        self._simple = all(isinstance(m, Field) and m.kind != JSON for m in self.members) and not scalar
        if self._simple:
            fields = [m for m in self.members if isinstance(m, Field)]
            names = [m.name for m in fields]
            self._keys = set(names)
            getter = operator.itemgetter(*names)
            self._get = getter if len(names) > 1 else (lambda r, g=getter: (g(r),))
            self._allowed = [frozenset(PY_TYPES[m.kind] + ((NONE,) if m.nullable else ())) for m in fields]

    # ---- encoding -----------------------------------------------------------
    def encode(self, record: Any) -> tuple[tuple, list[tuple[Children, list]], list[Deviation]]:
        """The row, each child array with its list of child records, and what did not fit."""
        if self.scalar:
            kind = self.members[0]
            assert isinstance(kind, Field)  # a scalar list has one Field
            if type(record) in PY_TYPES[kind.kind]:
                return (record,), [], []
            return (None,), [], [Deviation((), WRONG_TYPE, record)]
        if type(record) is not dict:
            return (None,) * self.width, [], [Deviation((), WRONG_TYPE, record)]
        if self._simple and record.keys() == self._keys:
            plain = self._get(record)
            if all(map(frozenset.__contains__, self._allowed, map(type, plain))) and all(
                _fits_real(plain[i]) for i in self.number_columns
            ):
                return plain, [], []
        values: list = []
        children: list = []
        deviations: list[Deviation] = []
        self._encode_into(record, self.members, (), values, children, deviations)
        return tuple(values), children, deviations

    def encode_columns(self, records: list) -> Optional[list[list]]:
        """The rows of many flat records as columns, in ``column_names`` order.

        Does what ``encode`` does, a column at a time (the loops run in C, which
        is what makes the big datasets fast: benchmarks/bench_codificador.py).  Returns None whenever a record
        needs more than that, nesting or any deviation: the caller then encodes
        record by record, and ``encode`` reports what did not fit.
        """
        if not self._simple or not set(map(type, records)) <= {dict}:
            return None
        n = len(records)
        columns: list[list] = []
        absent = 0
        for m, allowed in zip(self.members, self._allowed):
            if m.optional:
                column = list(map(dict.get, records, repeat(m.name), repeat(_ABSENT)))
            else:
                try:
                    column = list(map(operator.itemgetter(m.name), records))
                except KeyError:
                    return None
            types = set(map(type, column))
            if _Absent in types:
                types.discard(_Absent)
                for i in compress(range(n), map(operator.is_, column, repeat(_ABSENT))):
                    column[i] = None
                    absent += 1
            if not types <= allowed:
                return None
            columns.append(column)
        # Every declared key a record lacks is counted in ``absent``: any key beyond
        # that is one the catalogue does not declare.
        if sum(map(len, records)) != n * len(self.members) - absent:
            return None
        # An integer past 2**53 is a deviation: ``encode`` reports it.
        for i in self.number_columns:
            if not all(map(_fits_real, columns[i])):
                return None
        return columns

    def _encode_into(self, record, members, prefix, values, children, deviations):
        known = 0
        for m in members:
            path = prefix + (m.name,)
            if m.name not in record:
                values.extend([None] * _width(m))
                if not m.optional:
                    deviations.append(Deviation(path, MISSING))
                continue
            known += 1
            v = record[m.name]
            if isinstance(m, Field):
                values.append(_scalar_value(m, v, path, deviations))
            elif isinstance(m, Obj):
                if type(v) is dict:
                    self._encode_into(v, m.fields, path, values, children, deviations)
                else:
                    values.extend([None] * _width(m))
                    deviations.append(Deviation(path, WRONG_TYPE, v))
            elif type(v) is list:
                children.append((m, v))
            else:
                deviations.append(Deviation(path, WRONG_TYPE, v))
        if known != len(record):
            declared = {m.name for m in members}
            deviations.extend(Deviation(prefix + (k,), UNDECLARED, v) for k, v in record.items() if k not in declared)


def _width(m: Member) -> int:
    if isinstance(m, Field):
        return 1
    if isinstance(m, Obj):
        return sum(_width(x) for x in m.fields)
    return 0


def _scalar_value(m: Field, v, path: tuple, deviations: list):
    if v is None:
        if not m.nullable:
            deviations.append(Deviation(path, FORBIDDEN_NULL, None))
        return None
    if m.kind == JSON:
        return orjson.dumps(v).decode()
    if type(v) not in PY_TYPES[m.kind]:
        deviations.append(Deviation(path, WRONG_TYPE, v))
        return None
    if m.kind == NUMBER and not _fits_real(v):
        deviations.append(Deviation(path, INEXACT, v))
        return None
    return v


def _fits_real(v) -> bool:
    """Whether a NUMBER column's value is held exactly by a REAL: anything but an integer past 2**53."""
    return type(v) is not int or -MAX_EXACT <= v <= MAX_EXACT


# ---- objects keyed by id ({"HCDN0055": {"nacionales": 4, ...}}) ----------------------------
def keyed_records(obj: dict, key: str) -> list:
    """The entries of an object keyed by id as records carrying the key in field ``key``.  An entry
    that is not an object, or that has a field of that name itself, becomes the pair [key, value]:
    not a record (reported)."""
    return [{key: k, **v} if type(v) is dict and key not in v else [k, v] for k, v in obj.items()]
