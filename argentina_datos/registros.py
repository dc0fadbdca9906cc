"""Records <-> rows.

One codec per record shape turns an API record into a row tuple (and the rows
of its child tables), checking every value against the declared kind, and turns
a row back into exactly the record it came from: absent keys stay absent, nulls
stay null, integers stay integers.
"""
from __future__ import annotations

import operator
from itertools import compress, repeat
from typing import Any, Optional, Sequence

import orjson

from .esquema import (
    BOOLEAN,
    JSON,
    OMITTED,
    PY_TYPES,
    Children,
    Field,
    Member,
    Obj,
    flat_columns,
    has_optional,
)

NONE = type(None)


class _Absent:
    """Stands for a key a record does not carry, where None would mean null."""


_ABSENT = _Absent()


class BadRecord(ValueError):
    """A record that does not fit its declared shape; ``path`` names the field."""

    def __init__(self, message: str, path: str = ""):
        super().__init__(message)
        self.path = path


def _type_name(value: Any) -> str:
    return {dict: "objeto", list: "lista", str: "texto", bool: "booleano", int: "entero",
            float: "número", NONE: "null"}.get(type(value), type(value).__name__)


_KIND_NAMES = {"text": "texto", "integer": "entero", "number": "número", "boolean": "booleano"}


class Codec:
    """Encodes and decodes the records of one table (a dataset or a child table)."""

    def __init__(self, members: Sequence[Member]):
        self.members = list(members)
        self.columns = flat_columns(self.members)  # [(column name, Field)]
        self.column_names = [c for c, _ in self.columns]
        self.track_omitted = has_optional(self.members)
        if self.track_omitted:
            self.column_names.append(OMITTED)
        self._simple = all(isinstance(m, Field) and m.kind != JSON for m in self.members)
        if self._simple:
            names = [m.name for m in self.members]
            self._keys = set(names)
            getter = operator.itemgetter(*names)
            self._get = getter if len(names) > 1 else (lambda r, g=getter: (g(r),))
            self._allowed = [
                frozenset(PY_TYPES[m.kind] + ((NONE,) if m.nullable else ())) for m in self.members
            ]
            self._has_bool = any(m.kind == BOOLEAN for m in self.members)

    # ---- encoding -----------------------------------------------------------
    def encode(self, record: Any) -> tuple[tuple, list[tuple[Children, list]]]:
        """Return the row and, for each child array, its list of child records."""
        if type(record) is not dict:
            raise BadRecord(f"se esperaba un objeto y llegó {_type_name(record)}")
        if self._simple and record.keys() == self._keys:
            values = self._get(record)
            if all(map(frozenset.__contains__, self._allowed, map(type, values))):
                return (values + (None,) if self.track_omitted else values), []
        values: list = []
        omitted: list[str] = []
        children: list = []
        self._encode_into(record, self.members, "", values, omitted, children)
        if self.track_omitted:
            values.append(",".join(omitted) if omitted else None)
        return tuple(values), children

    def encode_columns(self, records: list) -> Optional[list[list]]:
        """The rows of many flat records as columns, in ``column_names`` order.

        Checks what ``encode`` checks, a column at a time (the loops run in C,
        which is what makes the big datasets fast).  Returns None whenever a
        record needs more than that, nesting or any problem: the caller then
        encodes record by record, and ``encode`` names the record and the fault.
        """
        if not self._simple or not set(map(type, records)) <= {dict}:
            return None
        n = len(records)
        columns: list[list] = []
        omitted: Optional[list] = None
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
                omitted = omitted or [None] * n
                for i in compress(range(n), map(operator.is_, column, repeat(_ABSENT))):
                    column[i] = None
                    omitted[i] = m.name if omitted[i] is None else omitted[i] + "," + m.name
                    absent += 1
            if not types <= allowed:
                return None
            columns.append(column)
        # Every declared key a record lacks is counted in ``absent``: any key beyond
        # that is one the catalogue does not declare.
        if sum(map(len, records)) != n * len(self.members) - absent:
            return None
        if self.track_omitted:
            columns.append(omitted or [None] * n)
        return columns

    def _encode_into(self, record, members, prefix, values, omitted, children):
        known = 0
        for m in members:
            path = prefix + m.name
            if m.name not in record:
                if not m.optional:
                    raise BadRecord(f"falta el campo obligatorio «{path}»", path)
                omitted.append(path)
                values.extend([None] * _width(m))
                continue
            known += 1
            v = record[m.name]
            if isinstance(m, Field):
                values.append(_check_scalar(m, v, path))
            elif isinstance(m, Obj):
                if type(v) is not dict:
                    raise BadRecord(f"«{path}» debe ser un objeto y es {_type_name(v)}", path)
                self._encode_into(v, m.fields, path + ".", values, omitted, children)
            else:
                if type(v) is not list:
                    raise BadRecord(f"«{path}» debe ser una lista y es {_type_name(v)}", path)
                children.append((m, v))
        if known != len(record):
            declared = {m.name for m in members}
            extra = [k for k in record if k not in declared]
            raise BadRecord(
                f"campo no declarado en el catálogo: «{prefix + extra[0]}»", prefix + extra[0]
            )

    # ---- decoding -----------------------------------------------------------
    def decode(self, row: Sequence, children: dict | None = None) -> dict:
        """Rebuild the record from a row in ``column_names`` order.

        ``children`` maps a Children member's name path to its decoded list.
        """
        it = iter(row)
        record = self._decode_members(self.members, it, children or {}, ())
        if self.track_omitted:
            omitted = row[len(self.column_names) - 1]
            if omitted:
                for path in omitted.split(","):
                    _delete_path(record, path.split("."))
        return record

    def _decode_members(self, members, it, children, prefix):
        out = {}
        for m in members:
            if isinstance(m, Field):
                v = next(it)
                if v is not None:
                    if m.kind == BOOLEAN:
                        v = bool(v)
                    elif m.kind == JSON:
                        v = orjson.loads(v)
                out[m.name] = v
            elif isinstance(m, Obj):
                out[m.name] = self._decode_members(m.fields, it, children, prefix + (m.name,))
            else:
                out[m.name] = children.get(prefix + (m.name,), [])
        return out

    @property
    def plain(self) -> bool:
        """True when a row is the record's values as they are (no nesting, no conversion)."""
        return self._simple and not self._has_bool and not self.track_omitted


def _width(m: Member) -> int:
    if isinstance(m, Field):
        return 1
    if isinstance(m, Obj):
        return sum(_width(x) for x in m.fields)
    return 0


def _check_scalar(m: Field, v, path):
    if v is None:
        if not m.nullable:
            raise BadRecord(f"«{path}» no puede ser null", path)
        return None
    if m.kind == JSON:
        return orjson.dumps(v).decode()
    if type(v) not in PY_TYPES[m.kind]:
        raise BadRecord(
            f"«{path}» debe ser {_KIND_NAMES[m.kind]} y es {_type_name(v)} ({orjson.dumps(v).decode()[:60]})",
            path,
        )
    return v


def _delete_path(record: dict, parts: list[str]) -> None:
    for p in parts[:-1]:
        record = record[p]
    record.pop(parts[-1], None)
