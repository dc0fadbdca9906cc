"""The CSV body of a list answer (``formato=csv``): which answers may be CSV is respuestas/ business."""

from __future__ import annotations

import csv
import io

import orjson


def to_csv(data: list) -> bytes:
    """A header with the keys of the first record, one row per record; nested values as JSON text,
    null as an empty cell, numbers and booleans as in JSON."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    if data and not isinstance(data[0], dict):
        writer.writerow(["valor"])
        writer.writerows([_cell(v)] for v in data)
        return out.getvalue().encode()
    header = list(data[0]) if data else []
    writer.writerow(header)
    for r in data:
        writer.writerow([_cell(r.get(k)) if isinstance(r, dict) else _cell(r) for k in header])
    return out.getvalue().encode()


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return orjson.dumps(value).decode()
