"""The catalogue: one entry per dataset, grouped in one module per theme.

Each entry says where its files are, which table and columns hold it, and which
/v1 routes it answers.  The builder, the API, metadata.yml and the OpenAPI
document are all derived from this list.  Adding a dataset is adding an entry
to its theme's ``DATASETS`` (a new theme: a module here, listed below).
"""

from __future__ import annotations

from argentina_datos.catalogo import (
    anteriores,
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
from argentina_datos.catalogo.esquema import Combination, Dataset, DerivedTable, flat_columns

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
    anteriores,
    historicos,
]

# How the database page names each theme, in THEMES order.
THEME_TITLES = {
    calendario: "Feriados",
    presidencia: "Presidencia",
    cotizaciones: "Cotizaciones del dólar y otras monedas",
    indices: "Inflación, UVA, riesgo país y confianza",
    tasas: "Tasas de depósitos y plazo fijo",
    comisiones: "Remesas y comisiones",
    creditos: "Créditos",
    billeteras: "Billeteras y plataformas",
    bonos: "Bonos CER y letras",
    fci: "Fondos comunes de inversión (FCI)",
    senado: "Senado: senadores y viajes",
    senado_actas: "Senado: votaciones",
    senado_organos: "Senado: bloques y comisiones",
    senado_personal: "Senado: personal, sueldos y gasto",
    diputados: "Cámara de Diputados",
    rem: "REM del BCRA (expectativas de mercado)",
    estado: "Estado del servicio",
    anteriores: "Rutas anteriores que upstream todavía sirve",
    historicos: "Versiones pasadas de lo que upstream pisa",
}

DATASETS: list[Dataset] = [dataset for theme in THEMES for dataset in theme.DATASETS]

BY_TABLE = {d.table: d for d in DATASETS}

# Routes that answer several datasets' lists together (upstream's combined files).
COMBINATIONS: list[Combination] = [c for theme in THEMES for c in getattr(theme, "COMBINATIONS", [])]

# Tables computed from the datasets' tables (a fund's daily series, a price index), in build order.
DERIVED_TABLES: list[DerivedTable] = [t for theme in THEMES for t in getattr(theme, "DERIVED_TABLES", [])]


def references() -> list[tuple[str, str, str, str]]:
    """(table, column, referenced table, referenced column) for every field or link that names a row of
    another table by a value that is not its primary key (a trip's senadorId is a senator's id)."""
    out = []
    for ds in DATASETS:
        named = [(ds.table, name, f.references) for name, f in flat_columns(ds.fields) if f.references]
        named += [(link.table, link.column, link.references) for link in ds.links if link.references]
        for table, column, target in named:
            target_table, target_column = target.removesuffix(")").split("(")
            out.append((table, column, target_table, target_column))
    return out


def tables_by_theme() -> list[tuple[str, list[str]]]:
    """(theme title, the tables of its datasets and derived tables), in THEMES order."""
    return [
        (
            THEME_TITLES[theme],
            [d.table for d in theme.DATASETS] + [t.table for t in getattr(theme, "DERIVED_TABLES", [])],
        )
        for theme in THEMES
    ]


__all__ = [
    "BY_TABLE",
    "COMBINATIONS",
    "DATASETS",
    "DERIVED_TABLES",
    "LICENCIA",
    "PORCENTAJE",
    "references",
    "tables_by_theme",
]
