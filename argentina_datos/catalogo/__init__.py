"""The catalogue: one entry per dataset, grouped in one module per theme.

Each entry says where its files are, which table and columns hold it, and which
/v1 routes it answers.  The builder, the API, metadata.yml and the OpenAPI
document are all derived from this list.  Adding a dataset is adding an entry
to its theme's ``DATASETS`` (a new theme: a module here, listed below).
"""

from __future__ import annotations

from argentina_datos.catalogo import (
    billeteras,
    bonos,
    calendario,
    comisiones,
    cotizaciones,
    creditos,
    diputados,
    estado,
    fci,
    historicos,
    indices,
    presidencia,
    rem,
    senado,
    senado_actas,
    senado_organos,
    senado_personal,
    tasas,
)
from argentina_datos.catalogo.campos import LICENCIA, PORCENTAJE
from argentina_datos.catalogo.esquema import Combination, Dataset, DerivedTable

THEMES = [
    calendario,
    presidencia,
    cotizaciones,
    indices,
    tasas,
    comisiones,
    creditos,
    billeteras,
    bonos,
    fci,
    senado,
    senado_actas,
    senado_organos,
    senado_personal,
    diputados,
    rem,
    estado,
    historicos,
]

DATASETS: list[Dataset] = [dataset for theme in THEMES for dataset in theme.DATASETS]

BY_TABLE = {d.table: d for d in DATASETS}

# Routes that answer several datasets' lists together (upstream's combined files).
COMBINATIONS: list[Combination] = [c for theme in THEMES for c in getattr(theme, "COMBINATIONS", [])]

# Tables computed from the datasets' tables (a fund's daily series, a price index), in build order.
DERIVED_TABLES: list[DerivedTable] = [t for theme in THEMES for t in getattr(theme, "DERIVED_TABLES", [])]

__all__ = ["BY_TABLE", "COMBINATIONS", "DATASETS", "DERIVED_TABLES", "LICENCIA", "PORCENTAJE"]
