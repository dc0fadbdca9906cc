"""The quality checks, declared once: the value each writes in ``calidad.control``, when it runs, what it
means and its threshold.  The ``calidad`` table's column description and the table of «Cómo leer la tabla
calidad» (docs/investigadores.md, written by ``python -m argentina_datos.documentacion.tabla_controles``) come from
here; the code that runs a check names it by its constant in ``almacen/calidad.py``."""

from __future__ import annotations

from dataclasses import dataclass

LOAD, AUDIT, HISTORY = "al cargar", "auditoría", "versiones"
# What a finding rests on: the record or the series alone, the other series of its table, another series that
# measures the same thing, or a figure someone else published.
OWN, RELATED, PUBLISHED = "la serie misma", "series relacionadas", "cifras publicadas"


@dataclass(frozen=True)
class Control:
    name: str  # the value of calidad.control
    stage: str  # LOAD (each record of each file), AUDIT (the built tables), HISTORY (the stored versions)
    meaning: str
    threshold: str = "una fila por registro"
    evidence: str = OWN
    # Its findings cast doubt on the values of their series from fecha to hasta: /v1/series/datos?marcar=calidad
    # marks them and the explorer draws them apart (a gap has no values, a jump is a real move until shown wrong).
    marks: bool = False


CONTROLS: list[Control] = []


def declare(
    name: str,
    stage: str,
    meaning: str,
    threshold: str = "una fila por registro",
    evidence: str = OWN,
    marks: bool = False,
) -> str:
    CONTROLS.append(Control(name, stage, meaning, threshold, evidence, marks))
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
    "una fila por tramo de días seguidos de la serie (`fecha` el primero, `hasta` el último: marca todos)",
    marks=True,
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
    "la serie no tiene valores desde hace más de lo habitual, a la fecha de la construcción (`$ARGENTINA_DATOS_HOY` si "
    "está puesta)",
    "más de 3 veces su espaciado habitual (la mediana de días entre valores) y al menos 7 días; series de 20 valores "
    "o más",
)
LATE = declare(
    "serie atrasada",
    AUDIT,
    "una serie del catálogo de series (tabla `series`, /v1/series) cuya última observación tiene más días que su "
    "cadencia declarada, a la fecha de la construcción; `campo` es la medida, `serie` la casa o moneda, `valor` los "
    "días de atraso. Las atrasadas hoy: la consulta `series_atrasadas`, también como feed Atom",
    "la `cadencia` de la serie: 5 días las diarias, 50 la inflación (el INDEC publica un mes a mediados del "
    "siguiente), 62 las demás mensuales",
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
    marks=True,
)
CONFLICT = declare(
    "dos valores para una fecha",
    AUDIT,
    "registros de la misma serie y fecha con valores distintos (donde el catálogo no declara una clave; si la "
    "declara, es «clave repetida»)",
    "cualquier diferencia",
    marks=True,
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
    RELATED,
)
FROZEN = declare(
    "valor congelado",
    AUDIT,
    "una cotización que cambia casi todos los días hábiles repite el mismo valor durante semanas mientras las demás "
    "casas (o monedas) de su tabla se mueven: upstream dejó de actualizarla (el mayorista, 365.45 / 366.45 del "
    "2023-12-13 al 2024-01-10, cruzando la devaluación). `fecha` y `hasta` son el primer y el último día hábil que "
    "repiten el valor; si otra serie de la tabla también se queda quieta (un tipo de cambio fijado) no es hallazgo, "
    "salvo que la serie que las otras siguen (`Series.reference`: el oficial) se mueva: un congelamiento que "
    "comparten dos series (el mayorista y el contado con liquidación en 2017-11 y 2018-03), una fila por serie que "
    "nombra a las otras quietas",
    "series que cambian en al menos 3 de cada 4 días hábiles de su historia; 10 días hábiles o más sin cambio, "
    "mientras cada otra serie de la tabla con datos se mueve más de 1 % entre el día anterior y el último (en el "
    "espejo: 4 tramos del mayorista en 2023–2024, de 18 a 49 días, y uno del real en 2025; un tipo fijado que deja "
    "quieta otra serie, como el oficial de 2011–2014 o el mayorista a 350 a fines de 2023 con el solidario, no es "
    "hallazgo); con otra serie quieta a la vez, sí lo es si el oficial se movió más de 1 % (habiendo cambiado en 3 "
    "de cada 4 de sus 60 días hábiles anteriores: no sus cotizaciones en pesos enteros de 2011–2019) o si quedaron "
    "quietas todas las series de la tabla que suelen moverse (el mayorista y el contado con liquidación en 2014-06, "
    "2017-11 y 2018-03; cripto con el blue en 2025-10/11); una fila por tramo",
    RELATED,
    marks=True,
)
SPREAD = declare(
    "diferencia compra-venta imposible",
    AUDIT,
    "la venta supera a la compra mucho más de lo que esa casa (o moneda) muestra en su historia: el mayorista de "
    "2024, con la venta unos 40 pesos sobre la compra (la diferencia del minorista) cuando la suya es de 1 a 3 pesos",
    "venta / compra − 1 mayor que 10 veces la mediana de la serie y que 3 %: el mayorista (mediana 0.2 %) de "
    "2024 está en 4.5–5 %; el oficial (3.9 %), el blue (1.4 %), tarjeta y solidario (73 %: impuestos) nunca pasan "
    "de su límite, y con 2 % saldría también la semana de la unificación de 2015 (2.0 %); una fila por tramo "
    "de valores seguidos más allá del límite, que marca sólo esos días; el detalle dice la diferencia de esos días, "
    "la habitual de la serie y el límite",
    marks=True,
)
CLOSED_MARKET = declare(
    "cotización con el mercado cerrado",
    AUDIT,
    "una cotización de una casa cuyo mercado no opera los fines de semana ni los feriados (`Series.closed_market`: "
    "oficial, mayorista, bolsa y contado con liquidación; no cripto ni las minoristas que sí operan) que ese día "
    "difiere de la del día hábil anterior: la bolsa del sábado 2024-08-17, 1292.4 / 1299.1 contra 1279 / 1281.6 del "
    "viernes. `habil` = 0 ya la deja afuera de los promedios; esto dice que el valor mismo es dudoso",
    "fin de semana, o feriado de las tablas `feriados` y `feriados_bancarios`; cualquier diferencia con el día "
    "hábil anterior; una fila por tramo de días seguidos sin mercado",
    marks=True,
)
EXCURSION = declare(
    "ida y vuelta",
    AUDIT,
    "un valor que se aparta de la serie mucho más de lo que ella se mueve en un día y a los pocos días vuelve a "
    "donde estaba: el mayorista a 384 / 385 del 2023-12-07 al 10, entre 363.7 el 6 y 365.95 el 11, cuando se movía "
    "décimas por día. Un salto que se queda (la devaluación del 2023-12-13, la unificación de 2015, la salida de "
    "la convertibilidad en 2002) no es ida y vuelta; los días de ida y de vuelta no son además «salto»",
    "ida: un cambio de más de 10 veces la mediana de los cambios diarios (los distintos de cero) de los 60 valores "
    "anteriores, y de más de 2 %; vuelta: a menos de un cuarto de esa distancia del valor de antes, en 7 valores y "
    "14 días como mucho, quedándose mientras tanto así de cerca del valor al que fue; niveles diarios (cotizaciones, "
    "índices; no las tasas, con sus bajas de un día a fin de mes), no un cambio de unidad; una fila por ida y vuelta",
    marks=True,
)
RELATED_SERIES = declare(
    "series en desacuerdo",
    AUDIT,
    "dos series que miden lo mismo dicen otra cosa: la inflación interanual contra la mensual de sus 12 meses "
    "compuesta (`Series.compounds` en el catálogo); `valor` es [interanual publicada, compuesta]. La lista de una "
    "casa contra la de todas ya es «rutas en desacuerdo»",
    "más que el redondeo: cada cifra del INDEC tiene un decimal (±0.05), así que la compuesta puede errar "
    "±0.05 × (1 + interanual) por cada mes más 0.05, y al menos 0.3 puntos; con ese límite la serie entera "
    "(1944–2026, también el cambio de canasta de 2026) coincide, con ±0.3 fijo 121 meses de alta inflación "
    "saldrían; una fila por tramo de meses seguidos",
    RELATED,
    marks=True,
)
PUBLISHED_FIGURE = declare(
    "cifra publicada distinta",
    AUDIT,
    "un valor de la base distinto del que publicó otra fuente para esa serie y fecha (la tabla `cifras_publicadas`, "
    "leída de `referencias/cifras.tsv` junto al espejo o de `--referencias`): nombra los dos valores y la fuente; "
    "`valor` es [el de la base, el publicado]",
    "más que el redondeo de la cifra publicada (medio dígito de su último decimal: 571 es 570.5 a 571.5); una "
    "fila por cifra",
    PUBLISHED,
    marks=True,
)
REVISED = declare(
    "valor revisado",
    HISTORY,
    "un dato que upstream cambió después de publicarlo (la tabla `revisiones`); no las actualizaciones del mismo día",
    "una fila por revisión",
)
DELAYED = declare(
    "publicación demorada",
    HISTORY,
    "una publicación que trajo observaciones nuevas de una ruta con versiones mucho más tarde que de costumbre: upstream "
    "no la actualizó por días (la UVA del 2025-01-22 al 2025-02-07). `fecha` y `hasta` son la primera y la última "
    "observación demorada, `valor` los días entre la primera y su publicación, `detalle` el día de la publicación, el de "
    "la anterior con datos nuevos y el rezago habitual (el ritmo de cada serie: /v1/series, `publicacion`)",
    "un rezago (días de la primera observación nueva a su publicación) mayor que la mediana de la ruta más una "
    "semana, o más medio intervalo entre publicaciones si es mayor (15 días en las mensuales: el INDEC publica entre 10 "
    "y 15 días después del mes); no cuentan la primera versión guardada ni las fechas viejas que upstream agrega "
    "después (un pasado que se completa); una fila por publicación",
)
AUDIT_CHECKS = names(AUDIT)


def described() -> str:
    """The checks' names, by stage, for the description of the ``control`` column."""
    return "; ".join(f"{', '.join(names(stage))} ({stage})" for stage in (LOAD, AUDIT, HISTORY)) + "."
