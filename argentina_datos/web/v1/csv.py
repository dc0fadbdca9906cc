"""The CSV body of a list answer (``formato=csv``, ``decimal=coma``): which answers may be CSV is respuestas/ business."""

from __future__ import annotations

import csv
import io
import re

import orjson

# A number as JSON (and Datasette's CSV) writes it: its decimal point is the one thing a Spanish-locale spreadsheet
# reads otherwise (141010.341 -> 141010341, «.» being its thousands separator).
NUMBER = re.compile(r"-?[0-9]+\.[0-9]+(?:[eE][-+]?[0-9]+)?")


def comma_decimal(cell: str) -> str:
    """A cell for a Spanish-locale spreadsheet: a number with a decimal comma (1227,5); anything else as it is."""
    return cell.replace(".", ",") if NUMBER.fullmatch(cell) else cell


def table_of(data: list) -> tuple[list[str], list[list]]:
    """A list answer as a header and rows of values: the keys of the first record, one row per record (a list of
    plain values: one column, «valor»)."""
    if data and not isinstance(data[0], dict):
        return ["valor"], [[v] for v in data]
    header = list(data[0]) if data else []
    return header, [[r.get(k) for k in header] if isinstance(r, dict) else [r] for r in data]


def to_csv(data: list, comma: bool = False) -> bytes:
    """A header with the keys of the first record, one row per record; nested values as JSON text,
    null as an empty cell, numbers and booleans as in JSON.  ``comma``: «;» between fields and a decimal comma."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n", delimiter=";" if comma else ",")
    header, rows = table_of(data)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(v, comma) for v in row])
    return out.getvalue().encode()


def _cell(value, comma: bool) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    text = orjson.dumps(value).decode()
    return comma_decimal(text) if comma and isinstance(value, float) else text
