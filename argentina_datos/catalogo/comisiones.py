"""Remittance platforms, payment and broker fees."""

from __future__ import annotations

from argentina_datos.catalogo.campos import (
    FRACCION,
    UPSTREAM,
    boolean,
    entidad,
    fecha,
    integer,
    json_value,
    number,
    text,
)
from argentina_datos.catalogo.esquema import Dataset, Route, sourced

DATASETS: list[Dataset] = [
    Dataset(
        "remesas",
        "Plataformas de remesas",
        "Plataformas para recibir pagos del exterior, con costos y características. "
        "`detalles` aclara algunos campos (objeto JSON o null).",
        [
            text("compania", "plataforma"),
            boolean("cuentaPropia", "si da una cuenta a nombre propio"),
            text("moneda", "moneda de la cuenta", facet=True),
            boolean("inversiones", "si permite invertir"),
            boolean("tarjetaUsa", "si da una tarjeta de EE.UU."),
            text("costoRecibirPagos", 'costo de recibir pagos, como texto ("3%", "0")'),
            text("costoMantenimientoTarjeta", 'costo de mantener la tarjeta, número y moneda ("0 USD")'),
            text("costoTarjeta", "costo de usar la tarjeta, como porcentaje en texto"),
            text("retiroArs", "cómo se retiran pesos"),
            json_value("detalles", "aclaraciones por campo (objeto JSON de textos) o null"),
            number("calificacionAndroid", "calificación en Google Play; null = sin dato", unit="estrellas (0 a 5)"),
            number("calificacionIos", "calificación en App Store; null = sin dato", unit="estrellas (0 a 5)"),
        ],
        **sourced("v1/finanzas/remesas", "Plataformas (páginas propias)", UPSTREAM),
        envelope_list="remesas",
        fts=("compania",),
        routes=[Route("/v1/finanzas/remesas", shape="envelope", summary="Plataformas de remesas")],
    ),
    Dataset(
        "cobros_comisiones",
        "Comisiones de cobro",
        "Aranceles (MDR) por cobrar con posnet, QR, link de pago y checkout, por entidad, medio de pago y plazo de acreditación.",
        [
            entidad("identificador de la entidad"),
            text("nombreComercial", "nombre comercial", facet=True),
            text("producto", "producto", facet=True),
            text("canal", "canal de cobro", facet=True),
            text("medioPago", "medio de pago", facet=True),
            number("arancel", "arancel sobre el monto cobrado", unit=FRACCION),
            boolean("arancelEsTope", "el arancel es un tope"),
            boolean("incluyeIva", "el arancel incluye IVA"),
            boolean("ivaAdicional", "se suma IVA al arancel"),
            text("acreditacionTipo", "tipo de acreditación"),
            integer(
                "acreditacionPlazoHabiles", "días hábiles hasta la acreditación; null = sin dato", unit="días hábiles"
            ),
            text("acreditacionLabel", "plazo de acreditación, como texto"),
            text("moneda", "moneda", facet=True),
            text("condiciones", "condiciones; null = ninguna"),
            text("enlace", "página de la entidad"),
            fecha("vigenciaDesde", "inicio de vigencia; null = sin dato"),
            fecha("vigenciaHasta", "fin de vigencia; null = sin dato"),
            json_value("metadata", "datos de la extracción (objeto JSON: fuenteUrl, celdaOriginal, ...)"),
        ],
        **sourced("v1/finanzas/cobros/comisiones", "Entidades de cobro (páginas propias)", UPSTREAM),
        envelope_list="comisiones",
        fts=("entidad", "nombreComercial"),
        routes=[Route("/v1/finanzas/cobros/comisiones", shape="envelope", summary="Comisiones de cobro")],
    ),
    Dataset(
        "brokers_comisiones",
        "Comisiones de brokers",
        "Comisiones minoristas (web/app) de brokers por producto. Si `tasaBase` es mensual, anual o tna, "
        "comparar con `tasaAnualEquivalente`; `tasaEsTope` indica que el valor es un máximo.",
        [
            entidad("broker"),
            text("nombreComercial", "nombre comercial", facet=True),
            text("producto", "producto (acciones, cedears, bonos, ...)", facet=True),
            text("operacion", "operación", facet=True),
            text("moneda", "moneda", facet=True),
            text("canal", "canal", facet=True),
            text("plan", "plan o segmento; null = único"),
            number("tasa", "comisión", unit=FRACCION),
            text("tasaBase", "base de la tasa (por operación, mensual, anual, tna); null = por operación"),
            number("tasaAnualEquivalente", "comisión anualizada; null si no corresponde", unit=FRACCION),
            boolean("tasaEsTope", "la comisión es un tope"),
            boolean("incluyeIva", "la comisión incluye IVA"),
            boolean("ivaAdicional", "se suma IVA"),
            integer("prorrateoDias", "días de prorrateo; null = no aplica", unit="días"),
            number("comisionMinima", "comisión mínima; null = sin mínimo", unit="pesos"),
            number("derechoMercado", "derecho de mercado; null = sin dato", unit=FRACCION),
            text("enlace", "página del broker"),
            json_value("metadata", "datos de la extracción (objeto JSON: fuenteUrl, celdaOriginal, notas, ...)"),
        ],
        **sourced("v1/finanzas/brokers/comisiones", "Brokers (páginas propias)", UPSTREAM),
        envelope_list="comisiones",
        fts=("entidad", "nombreComercial", "producto"),
        routes=[Route("/v1/finanzas/brokers/comisiones", shape="envelope", summary="Comisiones de brokers")],
    ),
]
