"""What the Senate pays: its pay scale, each sitting senator's staff, the senators' allowances and
upstream's estimate of the monthly spending in blocs, offices and allowances."""

from __future__ import annotations

from argentina_datos.catalogo.campos import boolean, integer, json_value, number, text
from argentina_datos.catalogo.esquema import Children, Dataset, Link, Obj, Route, by_path, sourced
from argentina_datos.catalogo.parametros import SENADOR_ID
from argentina_datos.catalogo.senado import SENADO, SENADOR_ARCHIVO

ESCALA = "https://www.senado.gob.ar/prensa/adjunto/descargarArchivo/tipo/EscalaSalarial"
DIETAS = "https://www.senado.gob.ar/dietas"
PESOS_MES = "pesos por mes"
MODULOS = "módulos"
AGENTES = "agentes"
BRUTO_BASE = "total en pesos (dedicación funcional + sueldo básico) más el adicional RC"
CON_ADICIONAL = "con el adicional por función (10 % del total en pesos, categorías A-1 a A-3)"


# ---- fields shared by blocs, senators' offices and the spending estimate ------------------
def personal(table: str, description: str) -> Children:
    return Children(
        "personal",
        table,
        [
            text("nombre", "agente, en mayúsculas"),
            text(
                "categoria",
                "categoría de la escala salarial (A-1 a A-14; tabla senado_escala_salarial_categorias)",
                facet=True,
            ),
        ],
        description,
    )


def personal_detalle(table: str, description: str) -> Children:
    return Children(
        "personalDetalle",
        table,
        [
            text("nombre", "agente, en mayúsculas"),
            text("categoria", "categoría de la escala salarial (A-1 a A-14)", facet=True),
            number(
                "brutoBase",
                f"sueldo bruto mensual estimado: {BRUTO_BASE}; null = categoría desconocida",
                unit=PESOS_MES,
            ),
            number("brutoConAdicionalFuncion", f"el mismo, {CON_ADICIONAL}", unit=PESOS_MES),
        ],
        description,
    )


def gasto(table: str, description: str) -> Obj:
    return Obj(
        "gasto",
        [
            integer("agentes", "agentes contados", unit=AGENTES),
            number("brutoMensualEstimado", "suma de los sueldos brutos estimados de los agentes", unit=PESOS_MES),
            number("brutoMensualConAdicionalFuncion", f"la misma suma, {CON_ADICIONAL}", unit=PESOS_MES),
            integer("sinCategoriaMatch", "agentes cuya categoría no está en la escala (no sumados)", unit=AGENTES),
            Children(
                "porCategoria",
                table,
                [
                    text("categoria", "categoría de la escala salarial", facet=True),
                    integer("cantidad", "agentes de la categoría", unit=AGENTES),
                    number(
                        "montoUnitario", f"sueldo bruto mensual estimado de la categoría: {BRUTO_BASE}", unit=PESOS_MES
                    ),
                    number("montoUnitarioConAdicionalFuncion", f"el mismo, {CON_ADICIONAL}", unit=PESOS_MES),
                    number("subtotal", "cantidad × montoUnitario", unit=PESOS_MES),
                    number(
                        "subtotalConAdicionalFuncion", "cantidad × montoUnitarioConAdicionalFuncion", unit=PESOS_MES
                    ),
                ],
                "gasto por categoría",
            ),
            text("metodo", "cómo estima upstream el gasto"),
        ],
        description,
    )


DATASETS: list[Dataset] = [
    Dataset(
        "senado_escala_salarial",
        "Senado: escala salarial",
        "La escala salarial del personal del Senado vigente (un solo registro, el que publica upstream hoy): el "
        "valor del módulo, cada categoría en senado_escala_salarial_categorias (en módulos y en pesos), los "
        "adicionales en senado_escala_salarial_conceptos y la dieta de un senador.",
        [
            text("fuente", "documento del Senado de donde sale"),
            text("vigencia", "mes desde el que rige la escala (AAAA-MM)"),
            number("valorModulo", "valor de un módulo", unit="pesos por módulo"),
            text("scrapedAt", "cuándo upstream leyó el documento (fecha y hora ISO 8601, UTC)"),
            Children(
                "categorias",
                "senado_escala_salarial_categorias",
                [
                    integer("categoria", "número de categoría (1 a 14)"),
                    text("codigo", "código de la categoría (A-1 a A-14)"),
                    number("dedicacionFuncionalModulos", "dedicación funcional", unit=MODULOS),
                    number("sueldoBasicoModulos", "sueldo básico", unit=MODULOS),
                    number("totalModulos", "dedicación funcional + sueldo básico", unit=MODULOS),
                    number("dedicacionFuncionalPesos", "dedicación funcional", unit=PESOS_MES),
                    number("sueldoBasicoPesos", "sueldo básico", unit=PESOS_MES),
                    number("totalEnPesos", "dedicación funcional + sueldo básico", unit=PESOS_MES),
                    number("rc", "adicional RC 2 y 6/22", unit=PESOS_MES),
                    number("brutoBase", f"sueldo bruto estimado: {BRUTO_BASE}", unit=PESOS_MES),
                    number("brutoConAdicionalFuncion", f"el mismo, {CON_ADICIONAL}", unit=PESOS_MES),
                    number("capacitacionModulos", "adicional por capacitación", unit=MODULOS),
                    number("capacitacionPesos", "adicional por capacitación", unit=PESOS_MES),
                ],
                "categorías de la escala",
            ),
            Children(
                "conceptos",
                "senado_escala_salarial_conceptos",
                [
                    text("codigo", "código del concepto (rc, antiguedad, presentismo, adicional_funcion)"),
                    text("nombre", "nombre del concepto"),
                    number("modulos", "valor; null = no es un monto fijo", unit=MODULOS),
                    number("pesos", "valor; null = no es un monto fijo", unit=PESOS_MES),
                    text("nota", "cómo entra en los sueldos estimados"),
                ],
                "adicionales de la escala",
            ),
            Obj(
                "dietaSenador",
                [
                    text("fuente", "página del Senado de donde sale"),
                    integer("dietaModulos", "dieta", unit=MODULOS),
                    integer("gastosRepresentacionModulos", "gastos de representación", unit=MODULOS),
                    integer("desarraigoModulos", "desarraigo", unit=MODULOS),
                    integer("totalModulos", "dieta + representación + desarraigo", unit=MODULOS),
                    number("brutoEstimado", "dieta bruta estimada: totalModulos × valorModulo", unit=PESOS_MES),
                    text("nota", "aclaración de upstream"),
                ],
                "dieta de un senador",
            ),
            json_value("notas", "aclaraciones de upstream (lista de textos)"),
        ],
        **sourced("v1/senado/escala-salarial", SENADO[0], ESCALA),
        single_record=True,
        routes=[Route("/v1/senado/escala-salarial", shape="one", summary="Escala salarial del Senado")],
    ),
    Dataset(
        "senado_gasto",
        "Senado: gasto mensual estimado",
        "La estimación de upstream del gasto mensual bruto del Senado en el personal de los bloques "
        "(senado_gasto_bloques, por categoría en senado_gasto_bloques_por_categoria), en el de los despachos y "
        "en las dietas (por senador en senado_gasto_senadores), con la escala salarial vigente. Un solo "
        "registro: el que publica upstream hoy.",
        [
            text("fuenteEscala", "documento de la escala salarial"),
            text("fuenteBloques", "página de los bloques"),
            text("fuenteDietas", "página de las dietas"),
            text("scrapedAt", "cuándo upstream hizo la estimación (fecha y hora ISO 8601, UTC)"),
            number("valorModulo", "valor de un módulo de la escala", unit="pesos por módulo"),
            text("vigenciaEscala", "mes desde el que rige la escala usada (AAAA-MM)"),
            number("dietaSenadorBrutoEstimado", "dieta bruta estimada de un senador", unit=PESOS_MES),
            json_value("notas", "aclaraciones de upstream sobre la estimación (lista de textos)"),
            Obj(
                "totales",
                [
                    number("bloquesPersonalBruto", "personal de los bloques", unit=PESOS_MES),
                    number("despachosPersonalBruto", "personal de los despachos de los senadores", unit=PESOS_MES),
                    number("dietasSenadoresBruto", "dietas de los senadores", unit=PESOS_MES),
                    number("grandTotalEstimado", "suma de los tres", unit=PESOS_MES),
                ],
                "totales estimados",
            ),
            Children(
                "bloques",
                "senado_gasto_bloques",
                [
                    text("id", "id del bloque (tabla senado_bloques)"),
                    text("nombre", "nombre del bloque"),
                    integer("integrantes", "senadores del bloque", unit="senadores"),
                    gasto("senado_gasto_bloques_por_categoria", "gasto mensual estimado en el personal del bloque"),
                ],
                "gasto en el personal de cada bloque",
            ),
            Children(
                "senadores",
                "senado_gasto_senadores",
                [
                    text("senadorId", "id del senador (tabla senadores)"),
                    text("nombre", "senador, «Apellido, Nombre»"),
                    text("bloque", "bloque del senador", facet=True),
                    number("dietaBrutoEstimado", "dieta bruta estimada", unit=PESOS_MES),
                    boolean("renunciaAlAumento", "si renunció al aumento de la dieta (puede cobrar menos)"),
                    integer("personalAgentes", "agentes de su despacho", unit=AGENTES),
                    number("personalBrutoEstimado", "sueldos brutos estimados de su despacho", unit=PESOS_MES),
                    number("personalBrutoConAdicionalFuncion", f"los mismos, {CON_ADICIONAL}", unit=PESOS_MES),
                    number(
                        "totalEstimado", "dieta + sueldos de su despacho (con el adicional por función)", unit=PESOS_MES
                    ),
                ],
                "gasto en cada senador: su dieta y su despacho",
            ),
        ],
        **sourced("v1/senado/gasto", SENADO[0], DIETAS),
        single_record=True,
        routes=[Route("/v1/senado/gasto", shape="one", summary="Gasto mensual estimado del Senado")],
    ),
    Dataset(
        "senado_personal",
        "Senado: personal de cada senador",
        "El personal del despacho de cada senador en funciones, tal como lo publica "
        "/v1/senado/senadores/{id}/personal: agentes y categorías (senado_personal_personal), el sueldo bruto "
        "estimado de cada uno (senado_personal_personal_detalle) y el gasto mensual estimado, por categoría en "
        "senado_personal_gasto_por_categoria. Un senador sin archivo es 404.",
        [
            text("senadorId", "id del senador (tabla senadores)"),
            personal("senado_personal_personal", "personal del despacho"),
            text("fuente", "página del senador en el Senado"),
            personal_detalle("senado_personal_personal_detalle", "personal del despacho, con el sueldo bruto estimado"),
            gasto("senado_personal_gasto_por_categoria", "gasto mensual estimado en el personal del despacho"),
        ],
        **sourced("v1/senado/senadores/{senadorId}/personal", SENADO[0], "https://www.senado.gob.ar/senadores/"),
        partitions=[SENADOR_ARCHIVO],
        single_record=True,
        routes=[
            by_path(
                "/v1/senado/senadores/{id}/personal",
                SENADOR_ID,
                "senadorId",
                "Personal del despacho de un senador",
                shape="one",
            )
        ],
    ),
    Dataset(
        "senado_dietas_mecanismos",
        "Senado: mecanismos de las dietas",
        "Qué hizo cada senador en funciones con el aumento de su dieta, según el documento del Senado: "
        "renunciar a él, donarlo o destinarlo a aportes partidarios.",
        [
            text("nombre", "senador, «APELLIDO, NOMBRE», en mayúsculas"),
            text("provincia", "provincia, en mayúsculas", facet=True),
            boolean("renunciaAlAumento", "si renunció al aumento", facet=True),
            boolean("donacion", "si dona el aumento", facet=True),
            boolean("aportesPartidarios", "si lo destina a aportes partidarios", facet=True),
        ],
        **sourced("v1/senado/senadores/dietas-mecanismos", SENADO[0], DIETAS),
        envelope_list="senadores",
        envelope_fields=[
            text("fuente", "documento del Senado (PDF)"),
            text("scrapedAt", "cuándo upstream leyó el documento (fecha y hora ISO 8601, UTC)"),
        ],
        links=[
            Link(
                "senado_dietas_mecanismos",
                "senadorId",
                "id del senador (tabla senadores) que nombra el registro: el único de la lista de senadores con "
                "ese apellido y nombres compatibles y, entre homónimos, el que está en funciones; null si no se "
                "pudo identificar",
                references="senadores(id)",
                reads=("senadores",),
            )
        ],
        routes=[
            Route(
                "/v1/senado/senadores/dietas-mecanismos",
                shape="envelope",
                summary="Mecanismos de las dietas de los senadores",
            )
        ],
    ),
]
