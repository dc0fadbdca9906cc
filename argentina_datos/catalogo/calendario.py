"""Holidays: national and banking, per year and for the current year."""

from __future__ import annotations

from argentina_datos.catalogo.campos import BCRA, fecha, por_año, text
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.catalogo.parametros import year

# The datasets whose dates are the days without business (weekends aside): the audit's business days and
# the quotes' carried-forward days (cotizaciones.arrastrado) read them.
HOLIDAY_TABLES = ("feriados", "feriados_bancarios")

DATASETS: list[Dataset] = [
    por_año(
        "feriados",
        "Feriados nacionales",
        "Feriados nacionales por año. `listado` es el año del archivo, o `actual` para /v1/feriados "
        "(la versión más nueva del año en curso).",
        route="v1/feriados",
        fields=[
            fecha(description="día del feriado", nullable=False),
            text("tipo", "inamovible, trasladable o puente", facet=True),
            text("nombre", "nombre del feriado"),
        ],
        año=year(2016, 2026, "del feriado"),
        what="Feriados",
        origin=("Ministerio del Interior", "https://www.argentina.gob.ar/interior/feriados-nacionales"),
    ),
    por_año(
        "feriados_bancarios",
        "Feriados bancarios",
        "Días no laborables para la actividad bancaria, por año. `listado` es el año del archivo, "
        "o `actual` para /v1/feriados-bancarios.",
        route="v1/feriados-bancarios",
        fields=[fecha(description="día no laborable bancario", nullable=False), text("nombre", "motivo")],
        año=year(2011, 2026, "del feriado bancario"),
        what="Feriados bancarios",
        origin=BCRA,
    ),
]
