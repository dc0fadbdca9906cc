"""The Senate: senators and official travel."""
from __future__ import annotations

from ..esquema import Dataset, Obj, Route, Source
from ..parametros import MES, year
from .campos import boolean, fecha, integer, json, number, text

def senado_viaje_fields(internacional: bool):
    common = [
        text("ambito", "nacional o internacional", facet=True),
        integer("anio", "año del documento"),
        integer("mes", "mes del documento (1-12)"),
        text("mesNombre", "nombre del mes"),
        text("documentoId", "id del documento del Senado"),
        text("documentoUrl", "URL del documento del Senado"),
        text("nombre", "senador, tal como lo escribe el documento (varía entre meses)"),
        text("senadorId", "id del senador (tabla senadores); null si no se pudo identificar"),
    ]
    if not internacional:
        return common + [
            text("origen", "ciudad de origen"),
            text("origenCodigo", "código IATA de origen"),
            text("destino", "ciudad de destino", facet=True),
            text("destinoCodigo", "código IATA de destino"),
        ]
    return common + [
        text("expediente", "número de expediente"),
        text("destino", "país o ciudad de destino", facet=True),
        fecha("fechaInicio", "inicio del viaje"),
        fecha("fechaFin", "fin del viaje"),
        text("fechaTexto", "fechas tal como las escribe el documento"),
        boolean("asistenciaAlViajero", "si se contrató asistencia al viajero"),
        boolean("viaticos", "si se pagaron viáticos"),
        number("viaticosUsd", "viáticos en dólares; 0 o null = ninguno", unit="dólares (USD)"),
        number("viaticosEuro", "viáticos en euros; 0 o null = ninguno", unit="euros"),
        number("viaticosArs", "viáticos en pesos; 0 o null = ninguno", unit="pesos"),
        text("motivo", "motivo del viaje (algunos registros de 2015 traen texto mal extraído)"),
        text("bloque", "bloque político"),
    ]

VIAJES = "v1/senado/viajes"

SENADO = ("Senado de la Nación", "https://www.senado.gob.ar/administrativo/viajes")


DATASETS: list[Dataset] = [
    Dataset(
        "senadores", "Senadores", "Senadores de la Nación desde 1854, con períodos legal y real.",
        [text("id", "id del senador (senadorId en los viajes)"), text("nombre", "apellido, nombre"),
         text("provincia", "provincia", facet=True), text("partido", "partido o bloque", facet=True),
         Obj("periodoLegal", [fecha("inicio", "inicio del mandato"), fecha("fin", "fin del mandato")],
             "mandato según la ley"),
         Obj("periodoReal", [fecha("inicio", "asunción efectiva"), fecha("fin", "cese efectivo; null = en funciones")],
             "mandato efectivo"),
         text("reemplazo", "a quién reemplazó o motivo"), text("observaciones", "observaciones"),
         text("foto", "URL de la foto"), text("email", "correo"), text("telefono", "teléfono"),
         json("redes", "correo y redes sociales (lista JSON) o null")],
        [Source("v1/senado/senadores")], origin=SENADO[0], origin_url="https://www.senado.gob.ar/senadores/",
        unique=("id",), fts=("nombre",),
        routes=[Route("/v1/senado/senadores", summary="Senadores")],
    ),
    Dataset(
        "senado_documentos", "Senado: documentos de viajes",
        "Catálogo de los documentos (PDF) del Senado con los viajes oficiales.",
        [text("id", "id del documento"), text("ambito", "nacional o internacional", facet=True),
         integer("anio", "año"), integer("mes", "mes; null en documentos anuales"),
         text("mesNombre", "nombre del mes; null en documentos anuales"), text("url", "URL del documento")],
        [Source(VIAJES)], origin=SENADO[0], origin_url=SENADO[1], envelope_list="documentos",
    ),
    Dataset(
        "senado_viajes_nacionales", "Senado: viajes nacionales",
        "Pasajes de cabotaje de los senadores, uno por tramo.",
        senado_viaje_fields(False), [Source(VIAJES)], origin=SENADO[0], origin_url=SENADO[1],
        envelope_list="nacionales", indexes=[("senadorId",), ("anio", "mes")], fts=("nombre", "destino", "origen"),
        routes=[
            Route("/v1/senado/viajes/nacionales", summary="Viajes nacionales"),
            Route("/v1/senado/viajes/nacionales/{año}/{mes}", [year(2012, 2026, "del viaje"), MES],
                  where={"anio": lambda p: p["año"], "mes": lambda p: int(p["mes"])},
                  summary="Viajes nacionales de un mes"),
        ],
    ),
    Dataset(
        "senado_viajes_internacionales", "Senado: viajes internacionales",
        "Viajes al exterior de los senadores, con viáticos.",
        senado_viaje_fields(True), [Source(VIAJES)], origin=SENADO[0], origin_url=SENADO[1],
        envelope_list="internacionales", indexes=[("senadorId",), ("anio",)], fts=("nombre", "destino", "motivo"),
        routes=[
            Route("/v1/senado/viajes/internacionales", summary="Viajes internacionales"),
            Route("/v1/senado/viajes/internacionales/{año}", [year(2012, 2026, "del viaje")],
                  where={"anio": lambda p: p["año"]}, summary="Viajes internacionales de un año"),
        ],
    ),
]
