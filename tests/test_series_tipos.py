"""Transforms that know what a series is (a rate per period compounds), conversions and the holidays'
iCalendar, on small records written here."""

from __future__ import annotations

import datetime as dt
import math

import icalendar
import pytest

from argentina_datos.respuestas import consulta, conversiones, variaciones
from argentina_datos.web.v1.formatos import to_ics

MONTHS = [
    {"fecha": f"2024-{m:02d}-28", "valor": v}
    for m, v in zip(range(1, 13), [20.6, 13.2, 11, 8.8, 4.2, 4.6, 4, 4.2, 3.5, 2.7, 2.4, 2.7])
]
RATES = frozenset({"valor"})


def compounded(values) -> float:
    return (math.prod(1 + v / 100 for v in values) - 1) * 100


def test_grouping_a_rate_compounds_it_and_a_level_is_averaged():
    year = consulta.group(MONTHS, "anio", None, RATES)
    assert year == [{"fecha": "2024-01-01", "valor": pytest.approx(compounded(r["valor"] for r in MONTHS))}]
    assert round(year[0]["valor"], 2) == 117.68
    # Asked for, the mean of the monthly rates: a real figure, not ignored (issue 43).
    mean = consulta.group(MONTHS, "anio", "promedio", RATES)
    assert mean[0]["valor"] == pytest.approx(sum(r["valor"] for r in MONTHS) / 12)
    level = consulta.group(MONTHS, "anio", None)
    assert level[0]["valor"] == pytest.approx(sum(r["valor"] for r in MONTHS) / 12)
    # The highest monthly rate of the year keeps its meaning; a sum of rates means nothing.
    assert consulta.group(MONTHS, "anio", "maximo", RATES)[0]["valor"] == 20.6
    with pytest.raises(consulta.BadQuery) as e:
        consulta.group(MONTHS, "anio", "suma", RATES)
    assert e.value.param == "funcion"


def test_accumulated_rate_compounds_from_january_and_year_on_year_over_twelve_months():
    records = [{"fecha": "2023-12-28", "valor": 25.5}] + MONTHS
    measures = {"valor"}
    ytd = variaciones.changes(records, "acumulada", consulta.series_of, measures, RATES)
    assert ytd[0]["valor"] == pytest.approx(25.5)
    assert [r["valor"] for r in ytd[1:]] == pytest.approx(
        [compounded(r["valor"] for r in MONTHS[: i + 1]) for i in range(12)]
    )
    yoy = variaciones.changes(records, "interanual", consulta.series_of, measures, RATES)
    assert yoy[-1]["valor"] == pytest.approx(compounded(r["valor"] for r in MONTHS))  # 2024-12: its 12 months
    assert yoy[1]["valor"] is None  # 2024-01: the twelve months before it are not all there
    points = variaciones.changes(records, "absoluta", consulta.series_of, measures, RATES)
    assert points[-1]["valor"] == pytest.approx(2.7 - 2.4)  # percentage points


def test_relative_change_of_a_rate_and_grouping_without_measures_are_400s():
    with pytest.raises(consulta.BadQuery) as e:
        consulta.apply(MONTHS, consulta.parse("variacion=relativa"), rates=RATES)
    assert e.value.param == "variacion"
    holidays = [{"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}]
    with pytest.raises(consulta.BadQuery) as e:
        consulta.apply(holidays, consulta.parse("agrupar=mes"))
    assert e.value.param == "agrupar"


@pytest.mark.parametrize("value", ["dolar", "dolar-", "usd", "ipc2"])
def test_ajustar_takes_ipc_uva_or_a_dollar_house(value):
    for good in ("ipc", "uva", "dolar-blue"):
        assert consulta.parse(f"ajustar={good}").ajustar == good
    with pytest.raises(consulta.BadQuery):
        consulta.parse(f"ajustar={value}")
    with pytest.raises(consulta.BadQuery):
        consulta.parse("ajustar=uva&base=2024-01")  # base is the month of the CPI's pesos


def test_amounts_divided_by_the_value_of_their_day_or_the_last_before():
    per_day = conversiones.PerDay({"2024-03-01": 800.0, "2024-03-04": 1000.0})
    records = [{"fecha": d, "valor": 100.0} for d in ("2024-02-29", "2024-03-01", "2024-03-02", "2024-03-04")]
    assert [r["valor"] for r in per_day.divide(records, {"valor"})] == [None, 0.125, 0.125, 0.1]


def test_no_conversion_across_the_change_of_currency():
    records = [{"fecha": "1991-12-31", "valor": 10.0}, {"fecha": "1992-01-02", "valor": 1.0}]
    with pytest.raises(consulta.BadQuery, match="austral") as e:
        conversiones.check_currency(records, {"valor"}, "uva", consulta.parse("ajustar=uva").span)
    assert e.value.param == "ajustar"
    conversiones.check_currency(records, {"valor"}, "uva", consulta.parse("ajustar=uva&desde=1992-01-01").span)


def test_holidays_as_an_icalendar_that_a_parser_reads():
    holidays = [
        {"fecha": "2025-03-03", "tipo": "inamovible", "nombre": "Carnaval"},
        {
            "fecha": "2025-03-24",
            "tipo": "inamovible",
            "nombre": "Día Nacional de la Memoria por la Verdad y la Justicia, con una coma; y punto y coma",
        },
    ]
    calendar = icalendar.Calendar.from_ical(to_ics(holidays, "Feriados 2025"))
    events = calendar.walk("VEVENT")
    assert [e.decoded("DTSTART") for e in events] == [dt.date(2025, 3, 3), dt.date(2025, 3, 24)]
    assert [e.decoded("DTEND") for e in events] == [dt.date(2025, 3, 4), dt.date(2025, 3, 25)]
    assert [str(e["SUMMARY"]) for e in events] == [h["nombre"] for h in holidays]
    assert len({str(e["UID"]) for e in events}) == 2
    assert all(len(line.encode()) <= 75 for line in to_ics(holidays, "x").decode().split("\r\n"))


def test_the_catalogue_counts_only_calendar_dates(tmp_path):
    import sqlite3

    from argentina_datos.respuestas import catalogo_series

    db = sqlite3.connect(tmp_path / "a.db")
    db.execute("CREATE TABLE uva (fecha TEXT, valor REAL)")
    db.executemany("INSERT INTO uva VALUES (?, ?)", [("2025-02-28", 1.0), ("2025-02-30", 2.0), ("x", 3.0)])
    (uva,) = [e for e in catalogo_series.entries(db, dt.date(2025, 3, 4)) if e.id == "uva"]
    assert (uva.desde, uva.hasta, uva.observaciones, uva.atrasada) == ("2025-02-28", "2025-02-28", 1, False)
    assert catalogo_series.late("2025-02-28", 5, dt.date(2025, 3, 6)) is True
