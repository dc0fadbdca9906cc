"""The state of the upstream service (/v1/estado)."""

from __future__ import annotations

from argentina_datos.catalogo.campos import UPSTREAM, text
from argentina_datos.catalogo.esquema import Dataset, Route, sourced

DATASETS: list[Dataset] = [
    Dataset(
        "estado",
        "Estado del servicio",
        "Lo que upstream dice de su propio estado en /v1/estado, tal como lo publicaba al copiarse la fuente "
        "(un registro).",
        [text("estado", "estado del servicio («Correcto»)")],
        **sourced("v1/estado", "ArgentinaDatos", UPSTREAM),
        single_record=True,
        routes=[Route("/v1/estado", shape="one", summary="Estado del servicio")],
    ),
]
