"""Dated versions of datasets upstream only publishes as "latest": the archive upstream is not."""

from __future__ import annotations

from argentina_datos.catalogo.billeteras import DATASETS as BILLETERAS
from argentina_datos.catalogo.bonos import DATASETS as BONOS
from argentina_datos.catalogo.campos import FRACCION, history
from argentina_datos.catalogo.comisiones import DATASETS as COMISIONES
from argentina_datos.catalogo.creditos import DATASETS as CREDITOS, hipotecarios_fields
from argentina_datos.catalogo.esquema import ANNUAL_RATE, DAILY, NUMBER, Dataset, Field, Series
from argentina_datos.catalogo.tasas import CRIPTOPESOS_FIELDS, CUENTAS_USD_FIELDS, DATASETS as TASAS, plazo_fijo_fields


def _rates(*measures: str, by: tuple[str, ...] = ("entidad",), **kw) -> Series:
    """The yearly rates each entity offers, as a series over the days we hold a version of: an entity that no
    longer offers is no late series."""
    return _held(measures, by, dict.fromkeys(measures, ANNUAL_RATE), **kw)


def _held(measures, by: tuple[str, ...], kinds: dict[str, str], **kw) -> Series:
    """Each measure of each value of ``by`` as a series over the days we hold a version of (the catalogue of series
    only: a gap there is a day without a version, not the source's; one that stops is no late series)."""
    return Series(DAILY, by=by, values=measures, kinds=kinds, report_late=False, audited=False, **kw)


def _instruments(base: Dataset, title: str, rates: tuple[str, ...]) -> Series:
    """Every amount and rate of a Treasury instrument (price, rates, volume...; not its days to maturity), one
    series per ticker: the days we hold are those of its route's versions, from the first build that kept them
    (upstream's past of it is not archived)."""
    numbers = [f.name for f in base.fields if isinstance(f, Field) and f.kind == NUMBER]
    return _held(numbers, ("ticker",), dict.fromkeys(rates, ANNUAL_RATE), title=title)


def _base(datasets: list[Dataset], table: str) -> Dataset:
    return next(d for d in datasets if d.table == table)


DATASETS: list[Dataset] = [
    history(
        _base(TASAS, "plazo_fijo"),
        title="Plazo fijo: histórico",
        fields=plazo_fijo_fields("plazo_fijo_historico_tasas"),
        # entidadId: one bank under the names the source gave it over the years (catalogo/tasas.py)
        series=_rates("tnaClientes", "tnaNoClientes", by=("entidadId",), labels=("entidad",), title="Plazo fijo"),
    ),
    history(
        _base(TASAS, "criptopesos"),
        title="Criptopesos: histórico",
        fields=CRIPTOPESOS_FIELDS,
        series=_rates("tna", by=("entidad", "token"), title="Criptopesos"),
    ),
    history(
        _base(CREDITOS, "hipotecarios_uva"),
        title="Hipotecarios UVA: histórico",
        fields=hipotecarios_fields(),
        series=_rates("tna", labels=("nombreComercial",), title="Crédito hipotecario UVA"),
    ),
    history(
        _base(TASAS, "cuentas_remuneradas_usd"),
        title="Cuentas remuneradas en USD: histórico",
        fields=CUENTAS_USD_FIELDS,
        # tasaFraccion: the source mixes fractions and percentages (catalogo/tasas.py)
        series=_rates("tasaFraccion", unit=lambda field, named: FRACCION, title="Cuenta remunerada en dólares"),
    ),
    history(
        _base(TASAS, "plazo_fijo_uva_pago_periodico"),
        title="Plazo fijo UVA con pago periódico: histórico",
        # a bank's rates by term range (its child table «tasas»), on each day we hold
        series=_rates(
            "tna",
            "tea",
            by=("entidad", "plazoMinDias", "plazoMaxDias"),
            member="tasas",
            title="Plazo fijo UVA con pago periódico",
        ),
    ),
    history(
        _base(TASAS, "plazo_fijo_precancelable"),
        title="Plazo fijo UVA precancelable: histórico",
        series=_rates("tna", "tea", "tnaPrecancelacion", "teaPrecancelacion", title="Plazo fijo UVA precancelable"),
    ),
    history(_base(COMISIONES, "remesas"), title="Plataformas de remesas: histórico"),
    history(_base(COMISIONES, "cobros_comisiones"), title="Comisiones de cobro: histórico"),
    history(_base(COMISIONES, "brokers_comisiones"), title="Comisiones de brokers: histórico"),
    history(
        _base(CREDITOS, "prestamos_personales"),
        title="Préstamos personales: histórico",
        series=_rates("tna", "tea", "cftTna", "cftTea", by=("entidad", "producto"), title="Préstamo personal"),
    ),
    history(
        _base(CREDITOS, "prestamos_personales_bcra"),
        title="Préstamos personales (BCRA): histórico",
        series=_rates("teaMax", "cftTeaMax", title="Préstamo personal, tope del BCRA"),
    ),
    history(
        _base(BONOS, "bonos_cer"),
        title="Bonos CER: histórico",
        series=_instruments(_base(BONOS, "bonos_cer"), "Bono CER", ("tirPorcentaje",)),
    ),
    history(
        _base(BONOS, "letras"),
        title="Letras y bonos a tasa fija: histórico",
        series=_instruments(_base(BONOS, "letras"), "Letra o bono a tasa fija", ("tnaPorcentaje", "teaPorcentaje")),
    ),
    history(
        _base(BILLETERAS, "rendimientos"),
        title="Rendimientos de plataformas y billeteras: histórico",
        # each currency's yield (the child table «rendimientos», with its own date: a currency a platform stopped
        # updating keeps its old date, no new observation)
        series=_rates(
            "apy",
            "bonusValue",
            by=("entidad", "moneda"),
            member="rendimientos",
            title="Rendimiento de plataforma o billetera",
        ),
    ),
]
