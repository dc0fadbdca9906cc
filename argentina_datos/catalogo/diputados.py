"""The Chamber of Deputies: periods, committees, deputies, seats, votes and travel."""

from __future__ import annotations

import re

from argentina_datos.catalogo.campos import boolean, fecha, integer, json_value, number, text, trip_counts
from argentina_datos.catalogo.esquema import (
    DATETIME_UNIT,
    Children,
    Count,
    Dataset,
    Derivation,
    Obj,
    PathValue,
    Route,
    by_path,
    sourced,
)
from argentina_datos.catalogo.parametros import Param, year

HCDN = ("Honorable Cámara de Diputados de la Nación", "https://datos.hcdn.gob.ar/")
RECINTO = "https://parlamentaria.hcdn.gob.ar/recintoweb"
VOTACIONES = "https://votaciones.hcdn.gob.ar/"
# The earliest year of roll-call votes upstream publishes (/v1/diputados/actas/1994).
PRIMER_AÑO_ACTAS = 1994
ISO_HORA = DATETIME_UNIT
UNIDAD_VIAJES = "viajes"


# ---- how an HTTP source lists the files -------------------------------------------
def _deputy_ids(source) -> list[str]:
    """Every deputy of /v1/diputados/diputados: upstream publishes a file of trips and one of missions
    for those who have some (a 404 is the answer for the others)."""
    lista = source.get_json("v1/diputados/diputados") or []
    return list(dict.fromkeys(d["id"] for d in lista if isinstance(d, dict) and isinstance(d.get("id"), str)))


def _acta_years(source) -> list[str]:
    return [str(y) for y in range(PRIMER_AÑO_ACTAS, source.today.year + 1)]


ID_PATTERN = r"HCDN[0-9]+"
DIPUTADO_ID = Param("diputadoId", ID_PATTERN, description="id del diputado del archivo", http_values=_deputy_ids)
# One per route: each example must answer 200 with data on its own route.
ID_VIAJES = Param(
    "id", ID_PATTERN, description="id del diputado, como en /v1/diputados/diputados (HCDN0055)", example="HCDN0055"
)
ID_MISIONES = Param(
    "id", ID_PATTERN, description="id del diputado, como en /v1/diputados/diputados (HCDN0035)", example="HCDN0035"
)
# Committees numbered up to here are asked for over HTTP even when no list names them.
COMISIONES_RECORRIDAS = 300


def _committee_ids(source) -> list[str]:
    """Upstream's index of committees (/v1/diputados/comisiones, not in the mirror) when it answers, the
    committees the deputies sit on (meta.comisiones: 46 ids) and the first 300 numbers: the mirror's two
    committee files, HCDN00014 and HCDN00227, are in no list.  A committee without a file is 404."""
    index = source.get_json("v1/diputados/comisiones")
    deputies = source.get_json("v1/diputados/diputados")
    listed = [c.get("id") for c in (index if isinstance(index, list) else []) if isinstance(c, dict)]
    for d in deputies if isinstance(deputies, list) else []:
        meta = d.get("meta") if isinstance(d, dict) else None
        committees = meta.get("comisiones") if isinstance(meta, dict) else None
        listed += [c.get("id") for c in (committees if isinstance(committees, list) else []) if isinstance(c, dict)]
    walked = [f"HCDN{n:05d}" for n in range(1, COMISIONES_RECORRIDAS + 1)]
    return sorted({i for i in listed + walked if isinstance(i, str) and re.fullmatch(ID_PATTERN, i)})


COMISION_ID = Param(
    "id", ID_PATTERN, description="id de la comisión (HCDN00014)", example="HCDN00014", http_values=_committee_ids
)
LISTADO_ACTAS = Param("listado", r"[0-9]{4}", description="año del archivo", http_values=_acta_years)
AÑO_ACTAS = year(PRIMER_AÑO_ACTAS, None, "de las votaciones", example="2020")


# ---- fields ------------------------------------------------------------------------
def periodo(name: str, description: str) -> Obj:
    return Obj(
        name,
        [
            text("inicio", f"inicio ({ISO_HORA}, hora de Argentina)", unit=ISO_HORA),
            text("fin", f"fin ({ISO_HORA}, hora de Argentina)", unit=ISO_HORA),
        ],
        description,
    )


def mision_fields() -> list:
    """A mission abroad (CSV «misiones oficiales» of the Chamber)."""
    return [
        integer("anio", "año de la misión (de fechaInicio, si no de fechaFin)"),
        integer("mes", "mes de inicio (1-12); null sin fecha de inicio"),
        text("mesNombre", "nombre del mes de inicio; null sin fecha de inicio"),
        text("documentoId", "id del recurso CSV de datos.hcdn.gob.ar (igual a recursoId)"),
        text("documentoUrl", "URL del CSV (igual a recursoUrl)"),
        text("recursoId", "id del recurso CSV de datos.hcdn.gob.ar"),
        text("recursoUrl", "URL del CSV"),
        text("recursoNombre", "nombre del recurso CSV", facet=True),
        text("nombre", "diputado, «Apellido, Nombre», tal como lo escribe el CSV"),
        text("diputadoId", "id del diputado (tabla diputados); null si no se pudo identificar"),
        text("institucion", "institución que invita"),
        text(
            "destino", "ciudad y país de destino, tal como vienen (con letras mal codificadas: «Asunciã“n»)", facet=True
        ),
        fecha("fechaInicio", "inicio de la misión; null = sin dato"),
        fecha("fechaFin", "fin de la misión; null = sin dato"),
        text("fechaTexto", "fechas como texto («inicio – fin»)"),
        boolean("viaticos", "si se pagaron viáticos; null = sin dato"),
        number("viaticosUsd", "viáticos en dólares; null = ninguno o sin dato", unit="dólares (USD)"),
        number("viaticosEuro", "viáticos en euros; null = ninguno o sin dato", unit="euros"),
        number("viaticosArs", "viáticos en pesos; null = ninguno o sin dato", unit="pesos"),
        text("motivo", "motivo de la misión"),
        text("bloque", "bloque del diputado", facet=True),
    ]


def viaje_nacional_fields() -> list:
    """A domestic ticket (CSV «viajes nacionales» of the Chamber), one per leg."""
    return [
        text("ambito", "siempre «nacional»", facet=True),
        integer("anio", "año del pasaje"),
        integer("mes", "mes del pasaje (1-12; el último del semestre si el CSV no lo dice)"),
        text("mesNombre", "nombre del mes"),
        text("recursoId", "id del recurso CSV de datos.hcdn.gob.ar"),
        text("recursoUrl", "URL del CSV"),
        text("recursoNombre", "nombre del recurso CSV (semestre)", facet=True),
        text("nombre", "diputado, tal como lo escribe el CSV"),
        text("diputadoId", "id del diputado (tabla diputados); null si no se pudo identificar"),
        text("tipoSolicitud", "medio (Aereo, Terrestre, ...)", facet=True),
        text("origen", "aeropuerto, estación o ciudad de origen"),
        text("origenCodigo", "código IATA de origen; null = sin dato"),
        text("destino", "aeropuerto, estación o ciudad de destino", facet=True),
        text("destinoCodigo", "código IATA de destino; null = sin dato"),
        text("provincia", "provincia del diputado", facet=True),
        text("bloque", "bloque del diputado", facet=True),
    ]


def viaje_internacional_fields() -> list:
    """A trip abroad as upstream lists it among a deputy's trips (its misiones oficiales, in the shape of
    the Senate's international trips).  The mirror's files have none: the fields are upstream's."""
    return [
        text("ambito", "siempre «internacional»", facet=True),
        integer("anio", "año del viaje"),
        integer("mes", "mes de inicio (1-12); null sin fecha de inicio"),
        text("mesNombre", "nombre del mes de inicio; null sin fecha de inicio"),
        text("documentoId", "id del recurso CSV de datos.hcdn.gob.ar"),
        text("documentoUrl", "URL del CSV"),
        text("recursoId", "id del recurso CSV", optional=True),
        text("recursoUrl", "URL del CSV", optional=True),
        text("recursoNombre", "nombre del recurso CSV", optional=True),
        text("nombre", "diputado, tal como lo escribe el CSV"),
        text("senadorId", "siempre null (campo compartido con los viajes del Senado)"),
        text("diputadoId", "id del diputado (tabla diputados); null si no se pudo identificar"),
        text("expediente", "institución que invita"),
        text("destino", "ciudad y país de destino", facet=True),
        fecha("fechaInicio", "inicio del viaje; null = sin dato"),
        fecha("fechaFin", "fin del viaje; null = sin dato"),
        text("fechaTexto", "fechas como texto"),
        boolean("asistenciaAlViajero", "si se contrató asistencia al viajero; null = sin dato"),
        boolean("viaticos", "si se pagaron viáticos; null = sin dato"),
        number("viaticosUsd", "viáticos en dólares; null = ninguno o sin dato", unit="dólares (USD)"),
        number("viaticosEuro", "viáticos en euros; null = ninguno o sin dato", unit="euros"),
        number("viaticosArs", "viáticos en pesos; null = ninguno o sin dato", unit="pesos"),
        text("motivo", "motivo del viaje"),
        text("bloque", "bloque del diputado"),
    ]


def conteo_fields() -> list:
    return [
        text("diputadoId", "id del diputado (tabla diputados): la clave del objeto porDiputado", nullable=False),
        integer("nacionales", "pasajes nacionales", unit=UNIDAD_VIAJES),
        integer("internacionales", "misiones oficiales al exterior", unit=UNIDAD_VIAJES),
        integer("total", "nacionales + internacionales", unit=UNIDAD_VIAJES),
    ]


def por_diputado(description: str) -> str:
    return (
        f"{description} La ruta responde cualquier diputado de la tabla diputados: con su archivo si "
        "upstream lo publica; si no, si diputados_viajes_conteo no le cuenta ninguno, con su id y listas "
        "vacías (como publica upstream para HCDN0011); si le cuenta alguno que la fuente no trae, 404."
    )


CONTEO = "diputados_viajes_conteo"
ES_DIPUTADO = {"id": PathValue("id")}
DEL_DIPUTADO = {"diputadoId": PathValue("id")}

DATASETS: list[Dataset] = [
    Dataset(
        "diputados",
        "Diputados",
        "Diputados de la Nación, un registro por mandato (un mismo `id` se repite en cada mandato), con "
        "provincia, bloque y fechas de jura y cese. `meta.comisiones` (tabla diputados_meta_comisiones) son las "
        "comisiones que integra; `foto` y `meta` faltan en algunos registros.",
        [
            text("id", "id del diputado en la Cámara (HCDN y cuatro cifras); diputadoId en las demás tablas"),
            text("nombre", "nombres"),
            text("apellido", "apellidos"),
            text("genero", "género: M o F", facet=True),
            text("provincia", "distrito por el que fue electo", facet=True),
            periodo("periodoMandato", "mandato"),
            text("juramentoFecha", f"jura ({ISO_HORA}, hora de Argentina); null = sin dato", unit=ISO_HORA),
            text("ceseFecha", f"cese ({ISO_HORA}, hora de Argentina)", unit=ISO_HORA),
            text("bloque", "bloque al que pertenece en periodoBloque", facet=True),
            periodo("periodoBloque", "pertenencia al bloque"),
            text("foto", "URL de la foto", optional=True),
            Obj(
                "meta",
                [
                    Children(
                        "comisiones",
                        "diputados_meta_comisiones",
                        [
                            text("id", "id de la comisión (/v1/diputados/comisiones/{id})"),
                            text("nombre", "nombre de la comisión (su id cuando no se lo conoce)"),
                            text("cargo", "cargo en la comisión (Presidente, Vocal, ...)"),
                        ],
                        "comisiones que integra",
                    )
                ],
                "datos agregados por upstream",
                optional=True,
            ),
        ],
        **sourced("v1/diputados/diputados", HCDN[0], "https://datos.hcdn.gob.ar/dataset/diputados"),
        indexes=[("id",)],
        fts=("apellido", "nombre"),
        routes=[Route("/v1/diputados/diputados", summary="Diputados, un registro por mandato")],
    ),
    Dataset(
        "diputados_periodos",
        "Diputados: períodos parlamentarios",
        "Períodos parlamentarios de la Cámara, del más nuevo al más viejo, con sus tramos (ordinario, "
        "extraordinario, prórroga) en diputados_periodos_tramos. /v1/diputados/periodos/lista es la misma lista "
        "sin el envoltorio.",
        [
            text("periodo", "número de período (el de las actas)"),
            fecha("inicio", "inicio del primer tramo"),
            fecha("fin", "fin del último tramo"),
            fecha("sesiones", "inicio de sesiones (el del tramo ordinario); null = sin dato"),
            Children(
                "tramos",
                "diputados_periodos_tramos",
                [
                    text("id", "id del tramo (HCDN, período y O/E/D)"),
                    text("tipo", "ordinario, extraordinario, prorroga u otro", facet=True),
                    fecha("inicio", "inicio del tramo"),
                    fecha("fin", "fin del tramo"),
                    fecha("sesiones", "inicio de sesiones; null = sin dato"),
                ],
                "tramos del período",
            ),
        ],
        **sourced("v1/diputados/periodos", HCDN[0], "https://datos.hcdn.gob.ar/dataset/periodos_p"),
        envelope_list="periodos",
        unique=("periodo",),
        envelope_fields=[
            text("fuente", "conjunto de datos de la Cámara"),
            text("actualizado", f"cuándo upstream leyó los datos ({ISO_HORA})", unit=ISO_HORA),
        ],
        routes=[
            Route("/v1/diputados/periodos", shape="envelope", summary="Períodos parlamentarios"),
            Route("/v1/diputados/periodos/lista", summary="Períodos parlamentarios, sin el envoltorio"),
        ],
    ),
    Dataset(
        "diputados_comisiones",
        "Diputados: comisiones",
        "Las comisiones de la Cámara de las que upstream publica un archivo (/v1/diputados/comisiones/{id}); "
        "sus integrantes, en diputados_comisiones_integrantes. Una comisión sin archivo es 404.",
        [
            text("id", "id de la comisión (HCDN y cinco cifras)"),
            text("nombre", "nombre de la comisión"),
            text("tipo", "Permanente, Especial o Bicameral", facet=True),
            text("tipoCodigo", "P, E o B"),
            text("grupo", "grupo (CD = Cámara de Diputados)"),
            text("periodoInicio", "período parlamentario de creación"),
            text("periodoFin", "período parlamentario de cierre (999 = vigente)"),
            fecha("fechaInicio", "creación; null = sin dato"),
            fecha("fechaFin", "cierre; null = vigente o sin dato"),
            text("url", "conjunto de datos de la Cámara"),
            Children(
                "integrantes",
                "diputados_comisiones_integrantes",
                [
                    text("nombre", "diputado, «Apellido, Nombre»"),
                    text("cargo", "cargo (Presidente, Vocal, ...)"),
                    text("distrito", "provincia; null = sin dato"),
                    text("bloque", "bloque; null = sin dato"),
                    text("diputadoId", "id del diputado (tabla diputados); null si no se pudo identificar"),
                ],
                "integrantes",
            ),
        ],
        **sourced("v1/diputados/comisiones/{id}", HCDN[0], "https://datos.hcdn.gob.ar/dataset/comisiones"),
        partitions=[COMISION_ID],
        single_record=True,
        routes=[by_path("/v1/diputados/comisiones/{id}", COMISION_ID, "id", "Una comisión", shape="one")],
    ),
    Dataset(
        "diputados_recinto",
        "Diputados: bancas del recinto",
        "Quién ocupa cada banca del recinto, con bloque, interbloque y sus colores. La banca 0 es el estrado "
        "de la presidencia (puede tener más de un registro); los números de las bancas vacantes están en el "
        "campo `vacantes` del envoltorio.",
        [
            integer("banca", "número de banca (0 = estrado de la presidencia)"),
            text("idAutoridad", "id del diputado en el recinto"),
            text("cuil", "CUIL"),
            text("apellido", "apellidos"),
            text("nombre", "nombres"),
            text("distrito", "provincia, en mayúsculas", facet=True),
            text("bloque", "bloque, en mayúsculas; null = sin bloque", facet=True),
            text("bloqueColor", "color del bloque (#RRGGBB)"),
            text("interbloque", "interbloque; null = ninguno", facet=True),
            text("interbloqueColor", "color del interbloque (#RRGGBB); null = ninguno"),
            text("mandato", "años del mandato (2023-2027)", facet=True),
            text("mandatoFin", "fin del mandato (DD/MM/AAAA)"),
            text("estado", "estado (ACTIVO)", facet=True),
            text("diputadoId", "id del diputado (tabla diputados); null si no se pudo identificar"),
        ],
        **sourced("v1/diputados/recinto", HCDN[0], RECINTO),
        envelope_list="asientos",
        envelope_fields=[
            text("fuente", "página del recinto"),
            text("scrapedAt", f"cuándo upstream leyó la página ({ISO_HORA}, UTC)", unit=ISO_HORA),
            json_value("vacantes", "números de las bancas vacantes (lista)"),
        ],
        fts=("apellido", "nombre"),
        routes=[Route("/v1/diputados/recinto", shape="envelope", summary="Bancas del recinto")],
    ),
    Dataset(
        "diputados_actas",
        "Diputados: votaciones nominales",
        "Actas de las votaciones nominales, por año (`listado`), con el voto de cada diputado en "
        "diputados_actas_votos: los votos nombran al diputado «Apellido, Nombre», sin id. Se guardan tal "
        "como vienen: el archivo de 2020 trae cada una de sus 3 actas dos veces (la tabla calidad lo registra).",
        [
            text("id", "id del acta en la Cámara"),
            text("periodo", "período parlamentario (tabla diputados_periodos)"),
            text("reunion", "número de reunión"),
            text("numeroActa", "número de acta en la reunión"),
            text("titulo", "qué se votó"),
            text("resultado", "afirmativo, negativo, ...", facet=True),
            text("fecha", f"fecha y hora de la votación ({ISO_HORA}, UTC)", unit=ISO_HORA),
            text("presidente", "quién presidía, tal como lo escribe el acta"),
            integer("votosAfirmativos", "votos afirmativos", unit="votos"),
            integer("votosNegativos", "votos negativos", unit="votos"),
            integer("abstenciones", "abstenciones", unit="diputados"),
            integer("ausentes", "ausentes", unit="diputados"),
            Children(
                "votos",
                "diputados_actas_votos",
                [
                    text("diputado", "diputado, «Apellido, Nombre» (sin id)"),
                    text("tipoVoto", "afirmativo, negativo, abstencion, ausente o presidente", facet=True),
                    text("imagen", "URL de la foto en votaciones.hcdn.gob.ar"),
                    text("videoDiscurso", "id del video de YouTube de su discurso; null = ninguno"),
                ],
                "el voto de cada diputado",
            ),
            text("sesion", "sesión, como texto"),
            text("votacion", "tipo de votación (Nominal)", facet=True),
            text("mayoria", "mayoría requerida, como texto"),
            text("baseMayoria", "base de la mayoría", facet=True),
            text("tipoMayoria", "tipo de mayoría", facet=True),
            integer("miembros", "miembros de la Cámara", unit="diputados"),
            integer("presentes", "presentes", unit="diputados"),
            integer("sinVotar", "presentes que no votaron", unit="diputados"),
            text("ultModVer", "versión del acta"),
        ],
        **sourced("v1/diputados/actas/{listado}", HCDN[0], VOTACIONES),
        partitions=[LISTADO_ACTAS],
        unique=("id",),
        fts=("titulo",),
        routes=[
            Route(
                "/v1/diputados/actas/{año}",
                [AÑO_ACTAS],
                where={"listado": PathValue(text="{año}")},
                summary="Votaciones nominales de un año",
            )
        ],
    ),
    Dataset(
        "diputados_viajes_por_diputado",
        "Diputados: viajes de cada diputado",
        por_diputado(
            "Un registro por archivo /v1/diputados/diputados/{id}/viajes; los pasajes están en "
            "diputados_viajes_nacionales y los viajes al exterior en diputados_viajes_internacionales "
            "(los archivos más viejos no traen `internacionales`)."
        ),
        [
            text("diputadoId", "id del diputado (tabla diputados)"),
            Children(
                "nacionales",
                "diputados_viajes_nacionales",
                viaje_nacional_fields(),
                "pasajes nacionales, uno por tramo",
            ),
            Children(
                "internacionales",
                "diputados_viajes_internacionales",
                viaje_internacional_fields(),
                "viajes al exterior",
                optional=True,
            ),
        ],
        **sourced(
            "v1/diputados/diputados/{diputadoId}/viajes", HCDN[0], "https://datos.hcdn.gob.ar/dataset/viajes-nacionales"
        ),
        partitions=[DIPUTADO_ID],
        single_record=True,
        routes=[
            Route(
                "/v1/diputados/diputados/{id}/viajes",
                [ID_VIAJES],
                where=DEL_DIPUTADO,
                shape="one",
                derive=Derivation(
                    "diputados",
                    ES_DIPUTADO,
                    empty=True,
                    count=Count(CONTEO, DEL_DIPUTADO, ("nacionales", "internacionales")),
                ),
                summary="Viajes de un diputado",
            )
        ],
    ),
    Dataset(
        "diputados_misiones_por_diputado",
        "Diputados: misiones oficiales de cada diputado",
        por_diputado(
            "Un registro por archivo /v1/diputados/diputados/{id}/misiones; las misiones están en "
            "diputados_misiones (el conteo de referencia es `internacionales`)."
        ),
        [
            text("diputadoId", "id del diputado (tabla diputados)"),
            Children("misiones", "diputados_misiones", mision_fields(), "misiones oficiales al exterior"),
        ],
        **sourced(
            "v1/diputados/diputados/{diputadoId}/misiones",
            HCDN[0],
            "https://datos.hcdn.gob.ar/dataset/misiones-oficiales",
        ),
        partitions=[DIPUTADO_ID],
        single_record=True,
        routes=[
            Route(
                "/v1/diputados/diputados/{id}/misiones",
                [ID_MISIONES],
                where=DEL_DIPUTADO,
                shape="one",
                derive=Derivation(
                    "diputados", ES_DIPUTADO, empty=True, count=Count(CONTEO, DEL_DIPUTADO, ("internacionales",))
                ),
                summary="Misiones oficiales de un diputado",
            )
        ],
    ),
    *trip_counts(
        CONTEO,
        "Diputados",
        "diputado",
        conteo_fields(),
        "v1/diputados/viajes/conteo",
        (HCDN[0], "https://datos.hcdn.gob.ar/dataset/viajes-nacionales"),
        "Cuántos pasajes nacionales y misiones al exterior tiene cada diputado en todos los datos de la "
        "Cámara; un diputado sin ninguno no figura. La API lo publica como objeto porDiputado {id: conteo}, "
        "en este orden.",
    ),
]
