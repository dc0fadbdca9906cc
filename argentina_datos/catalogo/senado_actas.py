"""The Senate's roll-call votes: one file per year, the index of all of them, and one per vote,
which is the same record as in its year's file (its route is answered from that file's rows)."""

from __future__ import annotations

from argentina_datos.catalogo.campos import integer, json_value, text
from argentina_datos.catalogo.esquema import TEXT, Children, Dataset, Link, PathValue, Route, Source
from argentina_datos.catalogo.parametros import Param, year

ORIGEN = ("Senado de la Nación", "https://www.senado.gob.ar/votaciones/actas")
# The earliest year upstream publishes a file of (/v1/senado/actas/1983, empty until 2007).
PRIMER_AÑO = 1983
# `listado` of the index /v1/senado/actas, beside the years of the yearly files.
INDICE = "todas"
VOTOS = "votos"
SENADORES = "senadores"


def _years_of_actas(source) -> list[str]:
    return [str(y) for y in range(PRIMER_AÑO, source.today.year + 1)]


LISTADO = Param("listado", r"[0-9]{4}", TEXT, "año del archivo", http_values=_years_of_actas)
AÑO = year(PRIMER_AÑO, None, "del archivo de actas", example="2025")
# Digits in the path (a string to OpenAPI, like every id), an integer to compare with actaId.
ACTA_ID = Param(
    "id",
    r"[0-9]{1,9}",
    TEXT,
    "id del acta (actaId), de las que lista /v1/senado/actas/{año}",
    convert=int,
    example="2479",
)
DEL_AÑO = {"listado": PathValue(text="{año}")}


DATASETS: list[Dataset] = [
    Dataset(
        "senado_actas",
        "Senado: votaciones nominales",
        "Actas de las votaciones nominales del Senado, con el voto de cada senador en senado_actas_votos. "
        "`listado` dice de qué archivo viene cada fila: el año de /v1/senado/actas/{año} o «todas», el índice "
        "/v1/senado/actas; un acta figura en el índice y en el archivo de su año, y el de 2025 trae también "
        "actas de la segunda mitad de 2024 (que siguen en el de 2024). Los años sin votaciones publicadas son "
        "listas vacías. Las actas sin votación registrada traen textos vacíos y ceros.",
        [
            integer("actaId", "id del acta en el Senado (el {id} de /v1/senado/actas/{año}/{id})"),
            text("titulo", "qué se votó"),
            text("proyecto", "expediente, orden del día o moción votada; vacío = sin dato"),
            text("descripcion", "qué parte se votó (en general, en particular, ...); vacío = sin dato", facet=True),
            text(
                "quorumTipo",
                "quórum (MAS 1/2 MC = más de la mitad de los miembros del cuerpo); vacío = sin dato",
                facet=True,
            ),
            text("fecha", "fecha y hora de la votación (ISO 8601, UTC); vacío = sin dato"),
            text("acta", "número de acta de la sesión; vacío = sin dato"),
            text(
                "mayoria",
                "mayoría requerida (MAS 1/2 LEGISLADORES PRESENTES, DOS TERCIOS VOTOS EMITIDOS, ...); vacío = sin dato",
                facet=True,
            ),
            integer("miembros", "miembros del cuerpo; 0 = sin dato", unit=SENADORES),
            integer("afirmativos", "votos afirmativos", unit=VOTOS),
            integer("negativos", "votos negativos", unit=VOTOS),
            integer("abstenciones", "abstenciones", unit=SENADORES),
            integer("presentes", "senadores presentes", unit=SENADORES),
            integer("ausentes", "senadores ausentes", unit=SENADORES),
            integer("amn", "votos afirmativos necesarios para aprobar, según la mayoría requerida", unit=VOTOS),
            text(
                "resultado",
                "afirmativa, negativa, EMPATE o cancelada lev.vot. (votación levantada); vacío = sin dato",
                facet=True,
            ),
            Children(
                "votos",
                "senado_actas_votos",
                [
                    text("nombre", "senador, «Apellido, Nombre», tal como lo escribe el acta (a veces abreviado)"),
                    text("voto", "si, no, abstencion, ausente, no emite o lev.vot. (votación levantada)", facet=True),
                    text("banca", "número de banca, «Presidente» o vacío (ausente)"),
                ],
                "el voto de cada senador",
            ),
            json_value("observaciones", "observaciones del acta (lista de textos; vacía = ninguna)"),
        ],
        [Source("v1/senado/actas/{listado}"), Source("v1/senado/actas", fixed={"listado": INDICE})],
        origin=ORIGEN[0],
        origin_url=ORIGEN[1],
        partitions=[LISTADO],
        indexes=[("actaId",)],
        fts=("titulo",),
        links=[
            Link(
                "senado_actas_votos",
                "senadorId",
                "id del senador (tabla senadores) que nombra el voto: el único de la lista de senadores con ese "
                "apellido y nombres compatibles (iniciales, nombres de más o de menos, apellido de casada) y, "
                "entre homónimos, el de mandato más cercano a la fecha del acta; null si no se pudo identificar",
                references="senadores(id)",
                reads=("senadores",),
            )
        ],
        routes=[
            Route("/v1/senado/actas", where={"listado": INDICE}, summary="Votaciones nominales: el índice"),
            Route("/v1/senado/actas/{año}", [AÑO], where=DEL_AÑO, summary="Votaciones nominales de un año"),
            Route(
                "/v1/senado/actas/{año}/{id}",
                [AÑO, ACTA_ID],
                where={**DEL_AÑO, "actaId": PathValue("id")},
                shape="one",
                summary="Una votación nominal (de las del archivo de su año)",
            ),
        ],
    ),
]
