"""The iCalendar body of a list of holidays (``formato=ics``): one all-day event per holiday (RFC 5545)."""

from __future__ import annotations

import datetime as dt
import hashlib

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
