"""The quality checks, declared once: the value each writes in ``calidad.control``, when it runs, what it
means and its threshold.  The ``calidad`` table's column description and the table of «Cómo leer la tabla
calidad» (docs/investigadores.md, written by ``python -m argentina_datos.documentacion.controles``) come from
here; the code that runs a check names it by its constant in ``almacen/calidad.py``."""

from __future__ import annotations

from dataclasses import dataclass

LOAD, AUDIT, HISTORY = "al cargar", "auditoría", "versiones"


@dataclass(frozen=True)
class Control:
    name: str  # the value of calidad.control
    stage: str  # LOAD (each record of each file), AUDIT (the built tables), HISTORY (the stored versions)
    meaning: str
    threshold: str = "una fila por registro"


CONTROLS: list[Control] = []


def declare(name: str, stage: str, meaning: str, threshold: str = "una fila por registro") -> str:
    CONTROLS.append(Control(name, stage, meaning, threshold))
    return name


def names(stage: str) -> tuple[str, ...]:
    return tuple(c.name for c in CONTROLS if c.stage == stage)


UNDECLARED = declare("campo no declarado", LOAD, "un campo del registro que el catálogo no declara")
WRONG_TYPE = declare(
    "tipo inesperado", LOAD, "un valor de otro tipo que el declarado (el valor se guarda tal cual, la columna en null)"
)
MISSING = declare("falta un campo obligatorio", LOAD, "el registro no trae un campo que el catálogo no marca opcional")
FORBIDDEN_NULL = declare("null donde no se espera", LOAD, "un null en un campo que el catálogo no declara anulable")
INEXACT = declare(
    "entero que REAL no guarda exacto", LOAD, "un entero de más de 2^53, que una columna REAL no guarda exacto"
)
WHOLE_FLOAT = declare(
    "número entero con decimales",
    LOAD,
    "un número sin parte fraccionaria escrito con decimales (`4.0`), que upstream no escribe (su JSON dice `4`): se "
    "guarda y /v1 lo devuelve así",
)
IMPOSSIBLE_DATE = declare("fecha imposible", LOAD, "una fecha que no existe en el calendario (`2025-02-30`)")
REPEATED_KEY = declare("clave repetida", LOAD, "dos registros con la misma clave que el catálogo declara única")
PARTITION_MISMATCH = declare(
    "no coincide con su archivo",
    LOAD,
    "un registro cuyo campo no es el valor de la ruta de su archivo (su año, su casa)",
)
UNREADABLE = declare(
    "archivo ilegible",
    LOAD,
    "un archivo que la fuente no dio hoy (`--keep-going`); `detalle` da el error y si su ruta conserva los registros "
    "de la construcción anterior",
    "una fila por archivo",
)
BUY_ABOVE_SELL = declare(
    "compra mayor que venta",
    AUDIT,
    "una cotización con precio de compra mayor que el de venta",
    "una fila por tramo de días seguidos",
)
GAP = declare(
    "faltan días",
    AUDIT,
    "días hábiles sin valor entre dos que lo tienen (o meses, en las mensuales)",
    "hábil = lunes a viernes que no está en `feriados` ni en `feriados_bancarios`, sólo en los años que esas tablas "
    "cubren (2011 en adelante); una fila por hueco",
)
STOPPED = declare(
    "serie detenida",
    AUDIT,
    "la serie no tiene valores desde hace más de lo habitual, a la fecha de la construcción",
    "más de 3 veces su espaciado habitual (la mediana de días entre valores) y al menos 7 días; series de 20 valores "
    "o más",
)
JUMP = declare(
    "salto",
    AUDIT,
    "un valor que cambió respecto del anterior mucho más que de costumbre",
    "más de 25 % y más de 20 veces el cambio mediano de la serie; series de 20 valores o más, siempre positivas (no "
    "la inflación, que pasa por cero)",
)
UNIT_SWITCH = declare(
    "cambio de unidad",
    AUDIT,
    "un valor entre 30 y 300 veces el anterior (o al revés): la misma magnitud en otra escala, como una fracción "
    "escrita como porcentaje (`depositos_30_dias`: 0.37 → 39.18)",
    "factor entre 30 y 300",
)
CONFLICT = declare(
    "dos valores para una fecha",
    AUDIT,
    "registros de la misma serie y fecha con valores distintos (donde el catálogo no declara una clave; si la "
    "declara, es «clave repetida»)",
    "cualquier diferencia",
)
ENCODING = declare(
    "codificación rota",
    AUDIT,
    "texto UTF-8 leído como Latin-1 en algún paso de upstream (`Ã©` por `é`, `Ã‘` por `Ñ`, `â€`) o el carácter de "
    "reemplazo `�`; el detalle propone la lectura correcta cuando se puede y, en el nombre de un banco "
    "(`entidad`), dice su `entidadId` (el de la grafía corregida) y con qué otros nombres lo comparte",
    "una fila por columna y texto distinto, con cuántas filas lo tienen",
)
OUT_OF_RANGE = declare(
    "fuera de rango",
    AUDIT,
    "un valor fuera de lo posible que declara el catálogo (`Dataset.bounds`): una TEA de préstamo de menos de 5 % en "
    "`prestamos_personales_bcra`, casi seguro un error de unidad (0.0216 por 216 %); `registro` es la fila "
    "(`rowid`) y la consulta de préstamos «más baratos» del BCRA la excluye",
    "una fila por fila y columna",
)
STALE = declare(
    "valor viejo en un listado",
    AUDIT,
    "en los listados fechados de FCI, registros cuya `fecha` es de más de un año antes que la del listado",
    "una fila por fecha vieja, con cuántos registros la traen",
)
DISAGREEMENT = declare(
    "rutas en desacuerdo",
    AUDIT,
    "dos rutas de upstream publican el mismo registro (misma serie y fecha) con valores distintos: la lista de una "
    "casa y la de todas (`cotizaciones_dolares_casa` y `cotizaciones_dolares`), la de una moneda y la de todas "
    "(`cotizaciones_moneda` y `cotizaciones`, unidas por `moneda`), un archivo por fecha y la lista con la que su "
    "ruta responde las fechas sin archivo (y la de todas). `tabla` y `ruta` son las del registro que difiere, "
    "`valor` los dos (`[[compra, venta] de esta tabla, [compra, venta] de la otra]`) y `detalle` nombra la otra "
    "tabla y su ruta. Las rutas `…/ultimo` de riesgo país y confianza en el gobierno no se comparan: se responden "
    "con el último registro de la serie misma, y los listados `ultimo` de FCI y del REM son otros listados, "
    "distintos a propósito",
    "cualquier diferencia; una fila por registro y par de tablas (un registro que la otra lista no tiene no es un "
    "desacuerdo)",
)
REVISED = declare(
    "valor revisado",
    HISTORY,
    "un dato que upstream cambió después de publicarlo (la tabla `revisiones`); no las actualizaciones del mismo día",
    "una fila por revisión",
)
AUDIT_CHECKS = names(AUDIT)


def described() -> str:
    """The checks' names, by stage, for the description of the ``control`` column."""
    return "; ".join(f"{', '.join(names(stage))} ({stage})" for stage in (LOAD, AUDIT, HISTORY)) + "."
