"""Treasury instruments: CER-linked bonds and bills (letras)."""

from __future__ import annotations

from argentina_datos.catalogo.campos import PORCENTAJE, fecha, integer, number, text
from argentina_datos.catalogo.esquema import Dataset, Route, sourced

DOCTA = ("Docta Capital", "https://app.doctacapital.com.ar/dashboard/bonos/general/soberanos")
POR_CIEN = "pesos por cada 100 de valor nominal"
# What upstream puts in the envelope besides the list: when it read the page, and why it could not.
ENVOLTORIO = [
    text("fechaActualizacion", "cuándo upstream leyó la página (ISO 8601, UTC)"),
    text(
        "errorExtraccion",
        "por qué upstream no pudo leer la página (la lista queda vacía); sólo en ese caso",
        optional=True,
    ),
]

DATASETS: list[Dataset] = [
    Dataset(
        "bonos_cer",
        "Bonos soberanos ajustados por CER",
        "Cotización de los bonos del Tesoro que ajustan por CER (TZX, TX, X...), por fecha de vencimiento, tal "
        "como /v1/finanzas/bonos-cer los lee de la grilla de Docta Capital: precio, TIR real y volumen.",
        [
            text("ticker", "código del bono"),
            number("precioArs", "precio", unit=POR_CIEN),
            number("tirPorcentaje", "TIR real (por sobre el CER)", unit=PORCENTAJE),
            fecha("fechaVencimiento", "vencimiento"),
            number(
                "volumen", "volumen operado; falta cuando la grilla no lo trae", unit="valor nominal", optional=True
            ),
        ],
        **sourced("v1/finanzas/bonos-cer", DOCTA[0], DOCTA[1] + "/cer"),
        envelope_list="bonos",
        envelope_fields=ENVOLTORIO,
        unique=("ticker",),
        sort=("fechaVencimiento",),
        routes=[Route("/v1/finanzas/bonos-cer", shape="envelope", summary="Bonos ajustados por CER")],
    ),
    Dataset(
        "letras",
        "Letras y bonos del Tesoro a tasa fija (LECAP, BONCAP)",
        "Cotización de las letras y bonos del Tesoro a tasa fija, por fecha de vencimiento, tal como "
        "/v1/finanzas/letras los lee de la grilla de Docta Capital. Los campos opcionales faltan cuando la grilla "
        "no los trae. La fuente mezcla escalas en `volumenEfectivoArs`: en algunas filas es volumen × precio / 100 "
        "y en otras mil veces menos.",
        [
            text("ticker", "código del instrumento"),
            number("precioArs", "precio", unit=POR_CIEN),
            number("tnaPorcentaje", "tasa nominal anual", unit=PORCENTAJE),
            number("teaPorcentaje", "tasa efectiva anual", unit=PORCENTAJE),
            number("temPorcentaje", "tasa efectiva mensual", unit=PORCENTAJE),
            fecha("fechaVencimiento", "vencimiento"),
            number("cierreArs", "precio de cierre", unit=POR_CIEN, optional=True),
            number("variacionPorcentaje", "variación diaria del precio", unit=PORCENTAJE, optional=True),
            number("volumen", "volumen operado", unit="valor nominal", optional=True),
            number(
                "volumenEfectivoArs",
                "monto operado, como lo publica la grilla (ver la descripción)",
                unit="pesos",
                optional=True,
            ),
            integer("diasAlVencimiento", "días hasta el vencimiento", unit="días", optional=True),
            number("paridadPorcentaje", "paridad (precio sobre valor técnico)", unit=PORCENTAJE, optional=True),
            text("monedaCupon", "moneda del cupón (ARS)", facet=True, optional=True),
            text("isin", "código ISIN", optional=True),
        ],
        **sourced("v1/finanzas/letras", DOCTA[0], DOCTA[1] + "/fixed-rate"),
        envelope_list="letras",
        envelope_fields=ENVOLTORIO,
        unique=("ticker",),
        sort=("fechaVencimiento",),
        routes=[Route("/v1/finanzas/letras", shape="envelope", summary="Letras y bonos a tasa fija")],
    ),
]
