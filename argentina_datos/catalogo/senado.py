"""The Senate: senators, official travel and its counts, the presidency.  Votes are in
senado_actas; blocs and committees in senado_organos; pay, staff and spending in senado_personal."""

from __future__ import annotations

from argentina_datos.catalogo.campos import boolean, fecha, integer, json_value, number, text, trip_counts
from argentina_datos.catalogo.esquema import TEXT, Combination, Dataset, Obj, PathValue, Route, sourced
from argentina_datos.catalogo.parametros import MES, SENADOR_ID, Param, year


def senado_viaje_fields(internacional: bool):
    common = [
        text("ambito", "nacional o internacional", facet=True),
        integer("anio", "año del documento"),
        integer("mes", "mes del documento (1-12)"),
        text("mesNombre", "nombre del mes"),
        text("documentoId", "id del documento del Senado"),
        text("documentoUrl", "URL del documento del Senado"),
        text("nombre", "senador, tal como lo escribe el documento (varía entre meses)"),
        text(
            "senadorId",
            "id del senador (tabla senadores); null si no se pudo identificar",
            references="senadores(id)",
        ),
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
UNIDAD_VIAJES = "viajes"


def _senators_in_office(source) -> list[str]:
    """The sitting senators, those of a bloc in /v1/senado/bloques: upstream publishes their staff and
    committees (/v1/senado/senadores/{id}/personal, /comisiones), a 404 for anyone else."""
    bloques = source.get_json("v1/senado/bloques")
    ids = []
    for bloque in bloques if isinstance(bloques, list) else []:
        senadores = bloque.get("senadores") if isinstance(bloque, dict) else None
        ids += [s.get("id") for s in senadores if isinstance(s, dict)] if isinstance(senadores, list) else []
    return list(dict.fromkeys(i for i in ids if isinstance(i, str)))


# The senator of a per-senator file (its path), for the datasets that read those files.
SENADOR_ARCHIVO = Param("senadorId", r"[0-9]{1,9}", TEXT, "id del senador del archivo", http_values=_senators_in_office)


def conteo_fields() -> list:
    return [
        text("senadorId", "id del senador (tabla senadores): la clave del objeto porSenador", nullable=False),
        integer("nacionales", "pasajes nacionales", unit=UNIDAD_VIAJES),
        integer("internacionales", "viajes al exterior", unit=UNIDAD_VIAJES),
        integer("total", "nacionales + internacionales", unit=UNIDAD_VIAJES),
    ]


DATASETS: list[Dataset] = [
    Dataset(
        "senadores",
        "Senadores",
        "Senadores de la Nación desde 1854, con períodos legal y real.",
        [
            text("id", "id del senador (senadorId en los viajes)"),
            text("nombre", "apellido, nombre"),
            text("provincia", "provincia", facet=True),
            text("partido", "partido o bloque", facet=True),
            Obj(
                "periodoLegal",
                [fecha("inicio", "inicio del mandato"), fecha("fin", "fin del mandato")],
                "mandato según la ley",
            ),
            Obj(
                "periodoReal",
                [fecha("inicio", "asunción efectiva"), fecha("fin", "cese efectivo; null = en funciones")],
                "mandato efectivo",
            ),
            text("reemplazo", "a quién reemplazó o motivo"),
            text("observaciones", "observaciones"),
            text("foto", "URL de la foto"),
            text("email", "correo"),
            text("telefono", "teléfono"),
            json_value("redes", "correo y redes sociales (lista JSON) o null"),
        ],
        **sourced("v1/senado/senadores", SENADO[0], "https://www.senado.gob.ar/senadores/"),
        unique=("id",),
        fts=("nombre",),
        routes=[Route("/v1/senado/senadores", summary="Senadores")],
    ),
    Dataset(
        "senado_documentos",
        "Senado: documentos de viajes",
        "Catálogo de los documentos (PDF) del Senado con los viajes oficiales.",
        [
            text("id", "id del documento"),
            text("ambito", "nacional o internacional", facet=True),
            integer("anio", "año"),
            integer("mes", "mes; null en documentos anuales"),
            text("mesNombre", "nombre del mes; null en documentos anuales"),
            text("url", "URL del documento"),
        ],
        **sourced(VIAJES, *SENADO),
        envelope_list="documentos",
    ),
    Dataset(
        "senado_viajes_nacionales",
        "Senado: viajes nacionales",
        "Pasajes de cabotaje de los senadores, uno por tramo.",
        senado_viaje_fields(False),
        **sourced(VIAJES, *SENADO),
        envelope_list="nacionales",
        indexes=[("senadorId",), ("anio", "mes")],
        fts=("nombre", "destino", "origen"),
        routes=[
            Route("/v1/senado/viajes/nacionales", summary="Viajes nacionales"),
            # In upstream's OpenAPI, without a file in its tree: the year's cut of the list, like its months.
            Route(
                "/v1/senado/viajes/nacionales/{año}",
                [year(2012, 2026, "del viaje")],
                where={"anio": PathValue("año")},
                summary="Viajes nacionales de un año",
            ),
            Route(
                "/v1/senado/viajes/nacionales/{año}/{mes}",
                [year(2012, 2026, "del viaje"), MES],
                where={"anio": PathValue("año"), "mes": PathValue("mes", int)},
                summary="Viajes nacionales de un mes",
            ),
        ],
    ),
    Dataset(
        "senado_viajes_internacionales",
        "Senado: viajes internacionales",
        "Viajes al exterior de los senadores, con viáticos.",
        senado_viaje_fields(True),
        **sourced(VIAJES, *SENADO),
        envelope_list="internacionales",
        indexes=[("senadorId",), ("anio",)],
        fts=("nombre", "destino", "motivo"),
        routes=[
            Route("/v1/senado/viajes/internacionales", summary="Viajes internacionales"),
            Route(
                "/v1/senado/viajes/internacionales/{año}",
                [year(2012, 2026, "del viaje")],
                where={"anio": PathValue("año")},
                summary="Viajes internacionales de un año",
            ),
        ],
    ),
    *trip_counts(
        "senado_viajes_conteo",
        "Senado",
        "senador",
        conteo_fields(),
        "v1/senado/viajes/conteo",
        SENADO,
        "Cuántos pasajes nacionales y viajes al exterior tiene cada senador en todos los datos de viajes del "
        "Senado; un senador sin ninguno no figura. La API lo publica como objeto porSenador {id: conteo}, con "
        "los ids en orden numérico creciente, en este orden.",
    ),
    Dataset(
        "senado_presidencia",
        "Senado: presidencia",
        "Quién preside el Senado (el vicepresidente de la Nación), su mandato y su contacto. Un solo registro: "
        "el que publica upstream hoy.",
        [
            text("nombre", "nombre y apellido"),
            text("cargo", "cargo"),
            fecha("periodoInicio", "inicio del mandato"),
            fecha("periodoFin", "fin del mandato"),
            text("foto", "URL de la foto"),
            text("email", "correo"),
            text("telefono", "teléfono"),
            text("direccion", "dirección postal"),
            text("curriculum", "currículum; null = sin dato"),
            text("fuente", "página del Senado de donde sale"),
        ],
        **sourced("v1/senado/presidencia", SENADO[0], "https://www.senado.gob.ar/presidencia"),
        single_record=True,
        routes=[Route("/v1/senado/presidencia", shape="one", summary="Presidencia del Senado")],
    ),
]

_VIAJES = ("senado_documentos", "senado_viajes_nacionales", "senado_viajes_internacionales")

# Upstream's trips files hold three lists (the documents, the domestic and the international trips),
# each a dataset of its own above.
COMBINATIONS = [
    Combination(
        "/v1/senado/viajes",
        "Viajes oficiales del Senado: documentos, nacionales e internacionales",
        _VIAJES,
        envelope="/v1/senado/viajes",
        envelope_fields=[
            text("fuente", "página del Senado de donde salen los datos", nullable=False),
            text("actualizado", "cuándo se actualizó el índice (ISO 8601)", nullable=False),
        ],
    ),
    Combination(
        "/v1/senado/senadores/{id}/viajes",
        "Viajes de un senador",
        _VIAJES[1:],
        params=[SENADOR_ID],
        where={"senadorId": "id"},
        head={"senadorId": "id"},
        known_in=("senadores", "id"),
    ),
]
