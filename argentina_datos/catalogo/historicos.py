"""Dated versions of datasets upstream only publishes as "latest": the archive upstream is not."""

from __future__ import annotations

from argentina_datos.catalogo.campos import history
from argentina_datos.catalogo.comisiones import DATASETS as COMISIONES
from argentina_datos.catalogo.creditos import DATASETS as CREDITOS, hipotecarios_fields
from argentina_datos.catalogo.esquema import Dataset
from argentina_datos.catalogo.tasas import CRIPTOPESOS_FIELDS, CUENTAS_USD_FIELDS, DATASETS as TASAS, plazo_fijo_fields


def _base(datasets: list[Dataset], table: str) -> Dataset:
    return next(d for d in datasets if d.table == table)


DATASETS: list[Dataset] = [
    history(
        _base(TASAS, "plazo_fijo"),
        title="Plazo fijo: histórico",
        fields=plazo_fijo_fields("plazo_fijo_historico_tasas"),
    ),
    history(_base(TASAS, "criptopesos"), title="Criptopesos: histórico", fields=CRIPTOPESOS_FIELDS),
    history(_base(CREDITOS, "hipotecarios_uva"), title="Hipotecarios UVA: histórico", fields=hipotecarios_fields()),
    history(
        _base(TASAS, "cuentas_remuneradas_usd"),
        title="Cuentas remuneradas en USD: histórico",
        fields=CUENTAS_USD_FIELDS,
    ),
    history(_base(TASAS, "plazo_fijo_uva_pago_periodico"), title="Plazo fijo UVA con pago periódico: histórico"),
    history(_base(TASAS, "plazo_fijo_precancelable"), title="Plazo fijo UVA precancelable: histórico"),
    history(_base(COMISIONES, "remesas"), title="Plataformas de remesas: histórico"),
    history(_base(COMISIONES, "cobros_comisiones"), title="Comisiones de cobro: histórico"),
    history(_base(COMISIONES, "brokers_comisiones"), title="Comisiones de brokers: histórico"),
    history(_base(CREDITOS, "prestamos_personales"), title="Préstamos personales: histórico"),
    history(_base(CREDITOS, "prestamos_personales_bcra"), title="Préstamos personales (BCRA): histórico"),
]
