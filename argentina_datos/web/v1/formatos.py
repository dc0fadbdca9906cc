"""A list answer in another ``formato`` than JSON: CSV (``decimal=coma`` too), an Excel workbook with numbers as
numbers and dates as dates (also Datasette's ``.xlsx``: web/complementos/planilla.py) and, for holidays, an iCalendar
(RFC 5545).  Which answers may take which formato is respuestas/consulta.py's business."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import re
from typing import Any, Iterable

import orjson

from argentina_datos.respuestas.catalogo_series import CALENDAR_PATH
from argentina_datos.respuestas.consulta import XLSX_TYPE as XLSX_TYPE, Query


def body(records: list, query: Query, path: str) -> bytes:
    """``records`` (a list answer's) written as ``query.formato`` asks: csv, xlsx or ics."""
    if query.formato == "csv":
        return to_csv(records, comma=query.decimal == "coma")
    if query.formato == "xlsx":
        return to_xlsx(*table_of(records))
    return to_ics(records, "Publicaciones de series" if path == CALENDAR_PATH else f"Feriados ({path})")


def table_of(data: list) -> tuple[list[str], list[list]]:
    """A list answer as a header and rows of values: the keys of the first record, one row per record (a list of
    plain values: one column, «valor»)."""
    if data and not isinstance(data[0], dict):
        return ["valor"], [[v] for v in data]
    header = list(data[0]) if data else []
    return header, [[r.get(k) for k in header] if isinstance(r, dict) else [r] for r in data]


# ---- CSV ---------------------------------------------------------------------------------------------------------
# A number as JSON (and Datasette's CSV) writes it: its decimal point is the one thing a Spanish-locale spreadsheet
# reads otherwise (141010.341 -> 141010341, «.» being its thousands separator).
NUMBER = re.compile(r"-?[0-9]+\.[0-9]+(?:[eE][-+]?[0-9]+)?")


def comma_decimal(cell: str) -> str:
    """A cell for a Spanish-locale spreadsheet: a number with a decimal comma (1227,5); anything else as it is."""
    return cell.replace(".", ",") if NUMBER.fullmatch(cell) else cell


def to_csv(data: list, comma: bool = False) -> bytes:
    """A header with the keys of the first record, one row per record; nested values as JSON text, null as an empty
    cell, numbers and booleans as in JSON.  ``comma``: «;» between fields and a decimal comma."""
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


# ---- XLSX --------------------------------------------------------------------------------------------------------
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
SHEET = "datos"
REPRODUCIBLE = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)


def to_xlsx(header: list[str], rows: Iterable[Iterable[Any]]) -> bytes:
    """One sheet, ``datos``: the header in bold, then the rows; a text that is a day (AAAA-MM-DD) as a date,
    numbers as numbers, booleans as booleans, nested values as JSON text, null as an empty cell."""
    import xlsxwriter  # only for a spreadsheet: 0.15 s that every start of serve-datos paid

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


# ---- iCalendar ---------------------------------------------------------------------------------------------------
PRODID = "-//argentina-datos//feriados//ES"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def _fold(line: str) -> str:
    """Lines of at most 75 octets, continued with a space (RFC 5545 §3.1), never cutting a character."""
    out: list[str] = []
    current = b""
    for ch in line:
        encoded = ch.encode()
        if len(current) + len(encoded) > (75 if not out else 74):
            out.append(current.decode())
            current = b""
        current += encoded
    out.append(current.decode())
    return "\r\n ".join(out)


def to_ics(records: list, name: str) -> bytes:
    """``records`` (each with ``fecha`` and ``nombre``; ``tipo`` if it has one) as a calendar named ``name``."""
    stamp = "19700101T000000Z"  # fixed: the same data gives the same bytes (and ETag)
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{_escape(name)}",
    ]
    for r in records:
        if not isinstance(r, dict) or not isinstance(r.get("fecha"), str):
            continue
        day = dt.date.fromisoformat(r["fecha"][:10])
        summary = str(r.get("nombre") or r.get("descripcion") or "Feriado")
        uid = hashlib.blake2b(f"{name}|{day}|{summary}".encode(), digest_size=10).hexdigest()
        lines += [
            "BEGIN:VEVENT",
            f"UID:{uid}@argentina-datos",
            f"DTSTAMP:{stamp}",
            f"DTSTART;VALUE=DATE:{day:%Y%m%d}",
            f"DTEND;VALUE=DATE:{day + dt.timedelta(days=1):%Y%m%d}",
            f"SUMMARY:{_escape(summary)}",
        ]
        if r.get("tipo"):
            lines.append(f"CATEGORIES:{_escape(str(r['tipo']))}")
        lines += ["TRANSP:TRANSPARENT", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return ("\r\n".join(_fold(line) for line in lines) + "\r\n").encode()
