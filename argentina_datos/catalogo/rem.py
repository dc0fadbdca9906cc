"""The central bank's market expectations survey (REM)."""
from __future__ import annotations

from ..esquema import Dataset, Route, Source
from ..parametros import LISTADO_MES, MES, year
from .campos import BCRA, fecha, integer, number, text

DATASETS: list[Dataset] = [
    Dataset(
        "rems", "Relevamiento de Expectativas de Mercado (REM)",
        "Expectativas de los analistas relevadas por el BCRA, por informe mensual. `listado` es el informe "
        "AAAA-MM del archivo, o `ultimo`. Algunos informes usan \"\" donde otros usan null; sólo algunos traen `fuente`.",
        [text("informe", "informe AAAA-MM"), fecha(description="fecha del informe"),
         text("muestra", "muestra (todos, top 10)", facet=True),
         text("indicador", "variable pronosticada (IPC, tipo de cambio, PIB, tasa, ...)", facet=True),
         text("periodo", "período pronosticado"), text("periodoTipo", "mensual, trimestral, anual, ...", facet=True),
         fecha("periodoDesde", "inicio del período"), fecha("periodoHasta", "fin del período"),
         text("referencia", "referencia del indicador"), fecha("referenciaFecha", "fecha de referencia"),
         text("unidad", "unidad del indicador", facet=True),
         *[number(n, d, unit="la de `unidad` (\"var. % ...\" = porcentaje: 21.8 = 21,8 %; \"$/USD\" = pesos por dólar)")
           for n, d in [
             ("mediana", "mediana"), ("promedio", "promedio"), ("desvio", "desvío estándar"),
             ("maximo", "máximo"), ("minimo", "mínimo"), ("percentil90", "percentil 90"),
             ("percentil75", "percentil 75"), ("percentil25", "percentil 25"), ("percentil10", "percentil 10")]],
         integer("participantes", "cantidad de participantes"),
         text("publicacionUrl", "URL de la publicación"), text("xlsxUrl", "URL de la planilla"),
         text("fuente", "fuente", optional=True)],
        [Source("v1/rems/{listado}")], origin=BCRA[0],
        origin_url="https://www.bcra.gob.ar/PublicacionesEstadisticas/Relevamiento_Expectativas_de_Mercado.asp",
        partitions=[LISTADO_MES], indexes=[("indicador",)],
        routes=[
            Route("/v1/rems/ultimo", where={"listado": "ultimo"}, summary="Último REM"),
            Route("/v1/rems/{año}/{mes}", [year(2016, None, "del informe"), MES],
                  where={"listado": lambda p: f"{p['año']}-{p['mes']}"}, summary="REM de un mes"),
        ],
    ),
    Dataset(
        "rems_informes", "REM: índice de informes",
        "Rutas de los informes REM que upstream publica en /v1/rems.",
        [text("ruta", "ruta del informe, relativa a /v1")], [Source("v1/rems")], origin=BCRA[0],
        origin_url=BCRA[1], scalar_records=True,
        routes=[Route("/v1/rems", summary="Índice de informes REM")],
    ),
]
