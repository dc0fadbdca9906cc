"""Presidents of the Nation and presidential events."""

from __future__ import annotations

from argentina_datos.catalogo.campos import UPSTREAM, fecha, text
from argentina_datos.catalogo.esquema import Dataset, Route, sourced

DATASETS: list[Dataset] = [
    Dataset(
        "eventos_presidenciales",
        "Eventos presidenciales",
        "Elecciones, asunciones y otros hitos presidenciales desde 1983.",
        [
            fecha(description="fecha del evento"),
            text("tipo", "tipo de evento", facet=True),
            text("evento", "descripción"),
        ],
        **sourced("v1/eventos/presidenciales", "ArgentinaDatos", UPSTREAM),
        routes=[Route("/v1/eventos/presidenciales", summary="Eventos presidenciales")],
    ),
    Dataset(
        "presidentes",
        "Presidentes",
        "Presidentes de la Nación desde 1826.",
        [
            text("nombre", "nombre"),
            fecha("inicio", "inicio del mandato"),
            fecha("fin", "fin del mandato; null = en curso"),
            text("partido", "partido; null = sin dato", facet=True),
            text("periodoPresidencial", 'período constitucional ("1826-1831")'),
            text("vicepresidente", "vicepresidente"),
            text("imagen", "URL del retrato"),
            text("partidoImagen", "URL del logo del partido", optional=True),
        ],
        **sourced("v1/presidentes", "ArgentinaDatos", UPSTREAM),
        fts=("nombre",),
        routes=[Route("/v1/presidentes", summary="Presidentes")],
    ),
]
