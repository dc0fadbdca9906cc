"""Dated past versions of datasets upstream only publishes as "latest"."""
from __future__ import annotations

from ..esquema import Dataset
from .campos import BCRA, UPSTREAM, history
from .creditos import hipotecarios_fields
from .tasas import CRIPTOPESOS_FIELDS, CUENTAS_USD_FIELDS, plazo_fijo_fields

DATASETS: list[Dataset] = [
    history("plazo_fijo_historico", "Plazo fijo: histórico", "v1/finanzas/tasas/plazoFijo",
            plazo_fijo_fields("plazo_fijo_historico_tasas"), BCRA),
    history("criptopesos_historico", "Criptopesos: histórico", "v1/finanzas/criptopesos",
            CRIPTOPESOS_FIELDS, ("Plataformas cripto", UPSTREAM)),
    history("hipotecarios_uva_historico", "Hipotecarios UVA: histórico", "v1/finanzas/creditos/hipotecariosUva",
            hipotecarios_fields(), ("Bancos (páginas propias)", UPSTREAM)),
    history("cuentas_remuneradas_usd_historico", "Cuentas remuneradas en USD: histórico",
            "v1/finanzas/cuentas-remuneradas-usd", CUENTAS_USD_FIELDS, ("Bancos (páginas propias)", UPSTREAM)),
]
