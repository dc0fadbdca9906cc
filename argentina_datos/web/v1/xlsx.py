"""A table as an Excel workbook (``formato=xlsx``, and Datasette's ``.xlsx``): numbers as numbers and dates as
dates, which a spreadsheet reads the same in any language, unlike a CSV's decimal mark."""

from __future__ import annotations

import datetime as dt
import io
import re
from typing import Any, Iterable

import orjson
import xlsxwriter

from argentina_datos.respuestas.consulta import XLSX_TYPE as XLSX_TYPE

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
SHEET = "datos"
REPRODUCIBLE = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)


def to_xlsx(header: list[str], rows: Iterable[Iterable[Any]]) -> bytes:
    """One sheet, ``datos``: the header in bold, then the rows; a text that is a day (AAAA-MM-DD) as a date,
    numbers as numbers, booleans as booleans, nested values as JSON text, null as an empty cell."""
    out = io.BytesIO()
    # constant_memory writes each row as it comes; strings_to_numbers stays off: a text stays a text
    with xlsxwriter.Workbook(out, {"constant_memory": True, "in_memory": True}) as book:
        # The same rows, the same bytes (one ETag for one answer): no creation time of the moment
        book.set_properties({"created": REPRODUCIBLE})
        sheet = book.add_worksheet(SHEET)
        bold, day = book.add_format({"bold": True}), book.add_format({"num_format": "yyyy-mm-dd"})
        sheet.write_row(0, 0, header, bold)
        sheet.freeze_panes(1, 0)
        for r, row in enumerate(rows, start=1):
            for c, value in enumerate(row):
                _write(sheet, r, c, value, day)
    return out.getvalue()


def _write(sheet, row: int, col: int, value: Any, day) -> None:
    if value is None:
        return
    if isinstance(value, bool):
        sheet.write_boolean(row, col, value)
    elif isinstance(value, (int, float)):
        sheet.write_number(row, col, value)
    elif isinstance(value, str):
        if _DAY.fullmatch(value):
            try:
                sheet.write_datetime(row, col, dt.datetime.fromisoformat(value), day)
                return
            except ValueError:  # 2025-02-30, which the source has published: kept as the text it is
                pass
        sheet.write_string(row, col, value)
    elif isinstance(value, bytes):
        sheet.write_string(row, col, f"<{len(value)} bytes>")
    else:
        sheet.write_string(row, col, orjson.dumps(value).decode())
