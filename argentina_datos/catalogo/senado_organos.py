"""The Senate's blocs and committees, and each sitting senator's committees."""

from __future__ import annotations

from argentina_datos.catalogo.campos import integer, text
from argentina_datos.catalogo.esquema import TEXT, Children, Dataset, Derivation, PathValue, Route, by_path, sourced
from argentina_datos.catalogo.parametros import SENADOR_ID, Param
from argentina_datos.catalogo.senado import SENADO, SENADOR_ARCHIVO
from argentina_datos.catalogo.senado_personal import gasto, personal, personal_detalle

BLOQUES = "https://www.senado.gob.ar/senadores/listados/agrupados-por-bloques"
COMISIONES = "https://www.senado.gob.ar/parlamentario/comisiones/"
ID_NUMERICO = r"[0-9]{1,9}"


def _committee_ids(source) -> list[str]:
    """The committees of /v1/senado/comisiones: upstream publishes a file for each (with its members)."""
    lista = source.get_json("v1/senado/comisiones")
    ids = [c.get("id") for c in (lista if isinstance(lista, list) else []) if isinstance(c, dict)]
    return list(dict.fromkeys(i for i in ids if isinstance(i, str)))


BLOQUE_ID = Param("id", ID_NUMERICO, TEXT, "id del bloque, como en /v1/senado/bloques (6 = Justicialista)", example="6")
COMISION_ID = Param(
    "id",
    ID_NUMERICO,
    TEXT,
    "id de la comisión, como en /v1/senado/comisiones (50 = Asuntos Constitucionales)",
    example="50",
)
COMISION_ARCHIVO = Param("id", ID_NUMERICO, TEXT, "id de la comisión del archivo", http_values=_committee_ids)
LA_COMISION = {"id": PathValue("id")}


def comision_fields(table: str) -> list:
    return [
        text("id", "id de la comisión en el Senado (el {id} de /v1/senado/comisiones/{id})"),
        text("nombre", "nombre de la comisión"),
        text("tipo", "Unicameral Permanente, Bicameral, Especial, ...; null = sin dato", facet=True),
        text("url", "página de la comisión en el Senado"),
        Children(
            "integrantes",
            table + "_integrantes",
            [
                text("nombre", "senador o diputado, «Nombre Apellido»"),
                text("cargo", "cargo en la comisión (Presidente, Vicepresidenta, Vocal, ...)", facet=True),
                text("camara", "cámara del integrante (senado)", facet=True),
                text("senadorId", "id del senador (tabla senadores)"),
            ],
            "integrantes",
        ),
    ]


DATASETS: list[Dataset] = [
    Dataset(
        "senado_bloques",
        "Senado: bloques",
        "Los bloques del Senado, con sus senadores (senado_bloques_senadores), su personal "
        "(senado_bloques_personal; con el sueldo bruto estimado de cada agente en senado_bloques_personal_detalle) "
        "y el gasto mensual estimado en ese personal, por categoría en senado_bloques_gasto_por_categoria. "
        "/v1/senado/bloques/{id} es el registro del bloque en esta lista.",
        [
            text("id", "id del bloque en el Senado (el {id} de /v1/senado/bloques/{id})"),
            text("nombre", "nombre del bloque"),
            text("presidente", "quién preside el bloque, «Nombre Apellido»"),
            integer("integrantes", "senadores del bloque", unit="senadores"),
            Children(
                "senadores",
                "senado_bloques_senadores",
                [text("id", "id del senador (tabla senadores)"), text("nombre", "senador, «Nombre Apellido»")],
                "senadores del bloque",
            ),
            personal("senado_bloques_personal", "personal del bloque"),
            text("fuente", "página del Senado de donde sale"),
            personal_detalle("senado_bloques_personal_detalle", "personal del bloque, con el sueldo bruto estimado"),
            gasto("senado_bloques_gasto_por_categoria", "gasto mensual estimado en el personal del bloque"),
        ],
        **sourced("v1/senado/bloques", SENADO[0], BLOQUES),
        unique=("id",),
        fts=("nombre",),
        routes=[
            Route("/v1/senado/bloques", summary="Bloques del Senado"),
            by_path("/v1/senado/bloques/{id}", BLOQUE_ID, "id", "Un bloque del Senado", shape="one"),
        ],
    ),
    Dataset(
        "senado_comisiones",
        "Senado: comisiones",
        "Las comisiones del Senado como las lista /v1/senado/comisiones. La versión de esa lista que guarda la "
        "fuente trae `integrantes` vacíos: los de cada comisión están en el archivo de la comisión "
        "(senado_comisiones_detalle).",
        comision_fields("senado_comisiones"),
        **sourced("v1/senado/comisiones", SENADO[0], COMISIONES),
        unique=("id",),
        fts=("nombre",),
        routes=[Route("/v1/senado/comisiones", summary="Comisiones del Senado")],
    ),
    Dataset(
        "senado_comisiones_detalle",
        "Senado: comisiones, archivo de cada una",
        "Los archivos por comisión que publica upstream (/v1/senado/comisiones/{id}), con sus integrantes en "
        "senado_comisiones_detalle_integrantes. La ruta responde cualquier comisión de senado_comisiones: con "
        "su archivo si upstream lo publica; si no, con su registro de la lista (de `integrantes` vacíos).",
        comision_fields("senado_comisiones_detalle"),
        **sourced("v1/senado/comisiones/{id}", SENADO[0], COMISIONES),
        partitions=[COMISION_ARCHIVO],
        single_record=True,
        routes=[
            Route(
                "/v1/senado/comisiones/{id}",
                [COMISION_ID],
                where=LA_COMISION,
                shape="one",
                derive=Derivation("senado_comisiones", LA_COMISION),
                summary="Una comisión del Senado",
            )
        ],
    ),
    Dataset(
        "senado_senadores_comisiones",
        "Senado: comisiones de cada senador",
        "Las comisiones que integra cada senador en funciones, una fila por comisión, tal como las publica "
        "/v1/senado/senadores/{id}/comisiones. Un senador sin archivo es 404.",
        [
            text("id", "id de la comisión (tabla senado_comisiones)"),
            text("nombre", "nombre de la comisión"),
            text("cargo", "cargo del senador en la comisión (Presidente, Vocal, ...)", facet=True),
        ],
        **sourced("v1/senado/senadores/{senadorId}/comisiones", SENADO[0], COMISIONES),
        partitions=[SENADOR_ARCHIVO],
        indexes=[("id",)],
        routes=[by_path("/v1/senado/senadores/{id}/comisiones", SENADOR_ID, "senadorId", "Comisiones de un senador")],
    ),
]
