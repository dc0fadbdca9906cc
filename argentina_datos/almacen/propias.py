"""The build's own tables, declared once: each is a dataclass of its rows, whose fields carry their
column's description, with the table's name, key and description.  The builder creates and fills
them with sqlite-utils (``OwnTable.create``, ``OwnTable.write``); documentacion/metadatos.py writes
their metadata from here (``OwnTable.metadata``); the readers name them by these declarations.
"""

from __future__ import annotations

import dataclasses
import operator
import typing
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Optional, Sequence

from argentina_datos.almacen import controles

if TYPE_CHECKING:  # the server reads these declarations without sqlite-utils, which imports pandas (1.5 s a start)
    import sqlite_utils

SOURCE = "argentina-datos"


def column(description: str, default: Any = dataclasses.MISSING) -> Any:
    """A row field and its column's description."""
    return field(default=default, metadata={"description": description})


@dataclass(frozen=True)
class OwnTable:
    name: str
    row: type  # the dataclass of its rows
    title: str
    description: str
    pk: Optional[str] = None
    id_description: str = ""  # with pk "id" not among the row's fields: an INTEGER PRIMARY KEY numbering rows
    unique: Sequence[str] = ()
    label_column: Optional[str] = None
    facets: Sequence[str] = ()
    source: str = SOURCE
    source_url: Optional[str] = None
    hidden: bool = False  # only /v1 reads it: Datasette does not list it

    def fields(self) -> list[dataclasses.Field]:
        return list(dataclasses.fields(self.row))

    def columns(self) -> dict[str, type]:
        hints = typing.get_type_hints(self.row)
        out: dict[str, type] = {"id": int} if self.pk == "id" and "id" not in hints else {}
        for f in self.fields():
            hint = hints[f.name]
            out[f.name] = next((a for a in typing.get_args(hint) if a is not type(None)), hint)
        return out

    def not_null(self) -> set[str]:
        hints = typing.get_type_hints(self.row)
        return {f.name for f in self.fields() if type(None) not in typing.get_args(hints[f.name])}

    def create(self, db: sqlite_utils.Database) -> None:
        table = db.table(self.name)
        table.create(self.columns(), pk=self.pk, not_null=self.not_null())
        if self.unique:
            table.create_index(list(self.unique), unique=True)

    def write(self, db: sqlite_utils.Database, rows: Iterable) -> None:
        # The rows' values in field order through executemany: sqlite-utils' insert_all wants dicts, and
        # dataclasses.asdict deep-copies each row (0.5 s of a build for the 12,500 rows of fuentes).
        names = [f.name for f in self.fields()]
        values = operator.attrgetter(*names) if len(names) > 1 else (lambda r, g=operator.attrgetter(names[0]): (g(r),))
        columns = ", ".join(f'"{n}"' for n in names)
        sql = f'INSERT INTO "{self.name}" ({columns}) VALUES ({", ".join("?" * len(names))})'
        with db.atomic():
            db.conn.executemany(sql, map(values, rows))

    def metadata(self) -> dict:
        """This table's entry in metadata.yml."""
        columns = {"id": self.id_description} if self.id_description else {}
        columns.update({f.name: f.metadata["description"] for f in self.fields()})
        out: dict[str, Any] = {"title": self.title, "description": self.description, "source": self.source}
        if self.source_url:
            out["source_url"] = self.source_url
        if self.label_column:
            out["label_column"] = self.label_column
        if self.facets:
            out["facets"] = list(self.facets)
        if self.hidden:
            out["hidden"] = True
        out["columns"] = columns
        return out


# ---- the tables --------------------------------------------------------------------------------
UPSTREAM = ("ArgentinaDatos", "https://api.argentinadatos.com")


@dataclass(frozen=True)
class SourceFile:
    """A file the build read."""

    ruta: str = column("Ruta /v1 que sirve este archivo (sin parámetros reemplazados, tal como la publica la fuente).")
    tabla: str = column("Tabla de esta base donde quedaron sus registros.")
    archivo: str = column("Ubicación del archivo leído (ruta local o URL).")
    registros: int = column("Cantidad de registros del archivo.")
    bytes: int = column("Tamaño del archivo, en bytes.")
    sha256: str = column("Huella SHA-256 del contenido del archivo (hexadecimal).")
    actualizado: Optional[str] = column(
        "Fecha de actualización que declara el propio archivo (fechaActualizacion o actualizado de su envoltorio); "
        "null = el archivo no la declara."
    )
    envoltorio: Optional[str] = column(
        "Campos del objeto que envuelve la lista de registros (sin la lista), como texto JSON; null si el archivo es "
        "una lista sin envoltorio. Si la lista no es la última clave del archivo, queda en su lugar con valor null, "
        "para que /v1 devuelva las claves en el orden de upstream."
    )
    etag: Optional[str] = column(
        "ETag con que la fuente HTTP sirvió el archivo; la próxima actualización lo manda en If-None-Match y, si no "
        "cambió (304), no lo vuelve a descargar. null desde un directorio.",
        None,
    )
    modificado: Optional[str] = column(
        "Last-Modified con que la fuente HTTP sirvió el archivo (If-Modified-Since); null desde un directorio.", None
    )


FUENTES = OwnTable(
    "fuentes",
    SourceFile,
    "Archivos leídos",
    "Un registro por archivo de la fuente leído al construir la base: de qué ruta /v1 viene, a qué tabla fue, "
    "cuántos registros trajo y su huella. Sirve para saber de cuándo es cada dato.",
    pk="id",
    id_description="Número del archivo en el orden en que se leyó.",
    unique=("tabla", "ruta"),  # by table first: /v1 selects the files of a list (respuestas/seleccion.py)
    label_column="ruta",
    facets=("tabla",),
    source=UPSTREAM[0],
    source_url=UPSTREAM[1],
)


@dataclass(frozen=True)
class PublishedFile:
    """A file as upstream published it."""

    ruta: str = column("Ruta /v1 del archivo.")
    tabla: str = column(
        "Tabla de esta base donde quedaron sus registros; «documentos» para un archivo que el catálogo todavía no "
        "describe como tabla, «cortes» para uno que ninguna tabla lee y cuya ruta /v1 el catálogo calcula de una lista."
    )
    gzip: bytes = column("El archivo tal como lo publicó la fuente, byte por byte, comprimido con gzip (nivel 6).")


PUBLICADOS = OwnTable(
    "publicados",
    PublishedFile,
    "Archivos tal como los publicó la fuente",
    "Cada archivo que la fuente dio al construir la base, byte por byte (espacios incluidos), comprimido con gzip: "
    "la API /v1 responde la ruta de cada uno con estos bytes, y a quien acepta gzip, con estos mismos bytes "
    "comprimidos. Las tablas de datos son una proyección de estos archivos para consultar con SQL; las versiones "
    "anteriores están en versiones y versiones_registros.",
    pk="ruta",
    label_column="ruta",
    facets=("tabla",),
    source=UPSTREAM[0],
    source_url=UPSTREAM[1],
    hidden=True,
)


@dataclass(frozen=True)
class VersionChange:
    tabla: str = column("Ruta /v1 del archivo, la de sus versiones en la tabla versiones.")
    fecha: str = column("Fecha de la versión (AAAA-MM-DD).")
    anterior: Optional[str] = column("Fecha de la versión anterior; null para la primera.")
    agregados: int = column("Registros que no estaban en la versión anterior.")
    quitados: int = column("Registros de la versión anterior que ya no están.")
    cambiados: int = column("Registros que siguen (misma clave) con algún valor distinto.")
    clave: Optional[str] = column(
        "Qué identifica un registro entre versiones: su fecha y sus campos de nombre (casa, moneda, entidad, token, "
        "...), como en versiones_registros."
    )


CAMBIOS = OwnTable(
    "cambios",
    VersionChange,
    "Cambios entre versiones",
    "Para cada archivo con versiones (tabla versiones): qué cambió de una versión guardada a la siguiente. Las de "
    "lo que upstream sólo publica como «último» (tasas de plazo fijo, remesas, comisiones, préstamos, ...) están "
    "también, una por fecha, en las tablas *_historico. /v1/<ruta>?publicado=AAAA-MM-DD responde la vigente ese día.",
    pk="id",
    id_description="Número de la fila.",
    facets=("tabla",),
)


@dataclass(frozen=True)
class Version:
    """One version of a route's file that upstream published (a commit of its repository, a day of the
    history tree, what a build read), told apart from the one before by its content."""

    ruta: str = column("Ruta /v1 del archivo.")
    publicado: str = column(
        "Cuándo lo publicó upstream, en UTC (AAAA-MM-DDTHH:MM:SSZ): la hora del commit en el paquete de versiones; "
        "las 23:59:59 del día en el árbol de versiones diarias y para lo que leyó una construcción."
    )
    origen: str = column(
        "De dónde se sabe: paquete de versiones (git), archivo de versiones (un archivo por día), fuente actual "
        "(lo que leyó una construcción). La misma versión en dos orígenes es una sola, la primera."
    )
    commit_upstream: Optional[str] = column(
        "Commit de upstream (en el paquete de versiones); null en los otros orígenes."
    )
    huella: str = column("SHA-256 del contenido (el JSON sin espacios, con sus claves en su orden).")
    registros: int = column("Registros de la versión (1 si el archivo no es una lista).")
    agregados: int = column("Registros que no estaban en la versión anterior.")
    quitados: int = column("Registros de la versión anterior que ya no están.")
    cambiados: int = column("Registros que siguen (misma clave) con algún valor distinto.")
    forma: str = column(
        "lista (el archivo es una lista de registros), sobre (un objeto con una lista: `lista` la nombra) o "
        "documento (otra cosa: un solo registro)."
    )
    lista: Optional[str] = column("En un sobre, la clave de la lista de registros.")
    envoltorio: Optional[str] = column(
        "En un sobre, el objeto sin los registros (la lista en su lugar, null), como texto JSON."
    )
    orden: Optional[str] = column(
        "Orden de los registros (sus `elemento`, JSON) cuando no es el de la versión anterior con los nuevos al final; "
        "null casi siempre."
    )
    escritura: Optional[str] = column(
        "Cómo estaba escrito el archivo: «sangría» (dos espacios, como upstream escribe hoy) o «compacta» (sin "
        "espacios, como algunas versiones viejas), y «, con salto final» si terminaba en un salto de línea; "
        "null (versiones guardadas antes de esta columna) es «sangría». ?publicado= lo responde escrito así."
    )


VERSIONES = OwnTable(
    "versiones",
    Version,
    "Versiones publicadas",
    "Cada versión que upstream publicó de un archivo, hasta donde se sabe: los commits del paquete de versiones "
    "(upstream-versions), los días del árbol de versiones (upstream-history) y lo que leyó cada construcción. Los "
    "registros de cada versión están en versiones_registros, guardados una vez por valor distinto; "
    "/v1/<ruta>?publicado=AAAA-MM-DD responde la última versión publicada hasta el final de ese día (UTC).",
    pk="id",
    id_description="Número de la versión (en cada ruta, crece con `publicado`).",
    label_column="ruta",
    facets=("ruta", "origen"),
    source=UPSTREAM[0],
    source_url=UPSTREAM[1],
)


@dataclass(frozen=True)
class RecordVersion:
    ruta: str = column("Ruta /v1 del archivo.")
    elemento: int = column(
        "El registro a lo largo de las versiones (sus campos de identidad, `clave`, no cambian); los números crecen "
        "en el orden en que aparecieron."
    )
    clave: str = column("Campos que identifican al registro (fecha, casa, moneda, entidad...), como texto.")
    registro: str = column("El registro tal como lo publicó upstream, como texto JSON.")
    desde: int = column("Versión (id en versiones) en que apareció este valor del registro.")
    hasta: Optional[int] = column("Versión que lo reemplazó o quitó; null = sigue en la última.")


REGISTROS_VERSIONES = OwnTable(
    "versiones_registros",
    RecordVersion,
    "Registros de las versiones",
    "Cada valor distinto que tuvo cada registro de un archivo versionado, con la versión en que apareció y la que "
    "lo reemplazó (el modelo de git-history: un elemento y sus versiones). Los registros de la versión v de una "
    "ruta son los de `desde <= v AND (hasta IS NULL OR hasta > v)`.",
    pk="id",
    id_description="Número del valor del registro.",
    label_column="clave",
    facets=("ruta",),
    source=UPSTREAM[0],
    source_url=UPSTREAM[1],
)


@dataclass(frozen=True)
class Revision:
    ruta: str = column("Ruta /v1 del archivo.")
    serie: Optional[str] = column("Qué serie, por sus campos de texto (casa=blue, moneda=USD); null si hay una sola.")
    fecha: str = column("Fecha del registro revisado (su campo fecha).")
    campo: str = column("Campo que cambió.")
    antes: Optional[str] = column("Valor anterior, como texto JSON; null = el campo no estaba.")
    despues: Optional[str] = column("Valor nuevo, como texto JSON; null = el campo ya no está.")
    publicado: str = column("Día (AAAA-MM-DD, UTC) en que apareció el valor anterior.")
    revisado: str = column("Día (AAAA-MM-DD, UTC) de la versión que lo cambió.")


REVISIONES = OwnTable(
    "revisiones",
    Revision,
    "Revisiones de upstream",
    "Un registro por campo que upstream cambió en un dato que ya había publicado otro día: un valor de una fecha "
    "pasada corregido después. Las actualizaciones del mismo día del dato (la cotización del día que se corrige "
    "durante el día, `fecha` = `revisado`) no son revisiones y no están. Sale de versiones_registros.",
    pk="id",
    id_description="Número de la revisión.",
    label_column="campo",
    facets=("ruta", "campo"),
    source=UPSTREAM[0],
    source_url=UPSTREAM[1],
)


@dataclass(frozen=True)
class FailedFile:
    ruta: str = column("Ruta del archivo en /v1.")
    error: str = column("Por qué no se pudo leer, con el archivo o la URL.")
    desde: str = column("Primer día (AAAA-MM-DD) en que una construcción no pudo leerlo; sigue igual mientras falle.")


FALLIDOS = OwnTable(
    "_fallidos",
    FailedFile,
    "Archivos que no se pudieron leer",
    "Archivos que esta construcción no pudo leer (un error HTTP, una página HTML en lugar de JSON, un archivo "
    "cortado) con `--keep-going`. Su ruta responde lo que tenía la construcción anterior (ver `calidad`, control "
    "«archivo ilegible»), y la construcción siguiente los vuelve a pedir, sea cual sea su fecha, hasta leerlos.",
    pk="ruta",
)


@dataclass(frozen=True)
class AbsentRoute:
    ruta: str = column("Ruta pedida, sin la barra inicial.")
    consultado: str = column("Día (AAAA-MM-DD) en que se pidió y no estaba.")


AUSENTES = OwnTable(
    "_ausentes",
    AbsentRoute,
    "Rutas consultadas sin archivo",
    "Rutas que una construcción por HTTP pidió y la fuente no tenía (un diputado sin archivo de viajes, un día sin "
    "listado). La actualización siguiente no las vuelve a pedir hasta que tengan 7 días, así una actualización sin "
    "cambios hace casi sólo pedidos condicionales.",
    pk="ruta",
)


@dataclass(frozen=True, kw_only=True)
class Finding:
    """Something the build found odd in the source's data, and kept as it came."""

    tabla: str = column("Tabla de esta base donde está el dato.")
    control: str = column(
        "Qué se encontró (docs/investigadores.md, «Cómo leer la tabla calidad», explica cada uno): "
        + controles.described()
    )
    ruta: Optional[str] = column(
        "Ruta /v1 del archivo donde está el registro (en «rutas en desacuerdo», el de esta tabla; el otro lo nombra "
        "detalle); null cuando el hallazgo abarca varios archivos.",
        None,
    )
    registro: Optional[int] = column(
        "Posición del registro en ese archivo (1 = primero); null cuando abarca varios.", None
    )
    campo: Optional[str] = column("Campo del registro (los anidados con punto, las listas con [posición]).", None)
    valor: Optional[str] = column("El valor tal como llegó, como texto JSON (cortado a 200 caracteres).", None)
    detalle: str = column("El hallazgo explicado en una frase.")
    fecha: Optional[str] = column(
        "Día (AAAA-MM-DD) del hallazgo de la auditoría: el primer día que falta, el último valor de una serie "
        "detenida, el día del salto, el primero de un tramo (hasta es el último); null en los hallazgos de un registro.",
        None,
    )
    serie: Optional[str] = column(
        "Qué serie de la tabla (casa=blue, moneda=USD) cuando la tabla guarda varias; null si guarda una sola.", None
    )
    hasta: Optional[str] = column(
        "Último día (AAAA-MM-DD) del tramo que abarca el hallazgo, cuando abarca varios: fecha es el primero (un valor "
        "congelado, una diferencia compra-venta imposible); null si es de un día.",
        None,
    )


CALIDAD = OwnTable(
    "calidad",
    Finding,
    "Calidad de los datos",
    "Lo que la construcción encontró raro en los datos de la fuente y guardó igual, tal como llegó (la API /v1 lo "
    "devuelve intacto): al cargar cada archivo, en una auditoría de las tablas construidas y en las versiones que "
    "upstream publicó (la columna control dice cuál). Una fila por hallazgo; la consulta calidad_resumen los cuenta, "
    "tramos_dudosos lista por serie los que ponen en duda sus valores, la tabla controles dice el significado, el "
    "umbral y la evidencia de cada control y docs/investigadores.md («Cómo leer la tabla calidad») lo explica.",
    pk="id",
    id_description="Número del hallazgo.",
    label_column="detalle",
    facets=("tabla", "control"),
)


@dataclass(frozen=True)
class ControlRow:
    """One quality check as almacen/controles.py declares it."""

    control: str = column("El nombre del control: el valor de calidad.control.")
    momento: str = column("Cuándo corre: al cargar cada archivo, en la auditoría de las tablas o con las versiones.")
    significado: str = column("Qué encuentra.")
    umbral: str = column("Desde cuándo es hallazgo, y por qué ese umbral.")
    evidencia: str = column("En qué se apoya: la serie misma, series relacionadas o cifras publicadas por otros.")
    marca: bool = column(
        "1 si sus hallazgos ponen en duda los valores de su serie de fecha a hasta: los que /v1/series/datos marca "
        "con marcar=calidad y el explorador de series dibuja aparte."
    )


CONTROLES = OwnTable(
    "controles",
    ControlRow,
    "Controles de calidad",
    "Cada control de la tabla calidad, con su significado, su umbral y la evidencia en que se apoya, tal como los "
    "declara el código (almacen/controles.py); docs/investigadores.md («Cómo leer la tabla calidad») es la misma "
    "tabla. Se une con calidad por control.",
    pk="control",
    label_column="control",
)


def control_rows() -> list[ControlRow]:
    return [ControlRow(c.name, c.stage, c.meaning, c.threshold, c.evidence, c.marks) for c in controles.CONTROLS]


@dataclass(frozen=True)
class PublishedFigure:
    """A value of a series as someone else published it (referencias/cifras.tsv): a yardstick for ours."""

    serie: str = column("Tabla de esta base con la serie (inflacion, inflacion_interanual, riesgo_pais).")
    fecha: str = column("Día de la observación (AAAA-MM-DD), como en esa tabla.")
    valor: float = column("El valor publicado.")
    texto: str = column("El valor como está escrito en el archivo: sus decimales dicen su redondeo.")
    unidad: Optional[str] = column("Unidad del valor (porcentaje, puntos básicos).")
    fuente: str = column("Quién lo publicó y dónde se lo leyó.")
    nota: Optional[str] = column("Qué es exactamente la cifra.")


CIFRAS = OwnTable(
    "cifras_publicadas",
    PublishedFigure,
    "Cifras publicadas por otros",
    "Valores oficiales o muy difundidos de series que la base tiene, cada uno con su fuente (comunicados del INDEC, "
    "el EMBI de JP Morgan según la prensa): no son datos de upstream sino una vara para medirlos. La construcción "
    "compara cada uno con el valor de la base para esa serie y fecha; si difieren más que el redondeo, la tabla "
    "calidad lo dice («cifra publicada distinta»). Se leen de referencias/cifras.tsv junto al espejo "
    "(build-db --referencias); vacía si no hay archivo.",
    label_column="fuente",
    facets=("serie", "fuente"),
)


@dataclass(frozen=True)
class BuildFact:
    clave: str = column(
        "Qué dato es: huella, fuente, construido (fecha y hora UTC, AAAA-MM-DDTHH:MM:SSZ), version o, en una base "
        "construida sin el paquete de versiones publicadas, sin_paquete_de_versiones."
    )
    valor: Optional[str] = column("Su valor, como texto.")


UNBUNDLED = "sin_paquete_de_versiones"  # the _construccion fact of a build that read no bundle of versions


CONSTRUCCION = OwnTable(
    "_construccion",
    BuildFact,
    "Construcción de la base",
    "Datos de la construcción de este archivo: de qué fuente, cuándo y con qué versión. La huella permite saltear "
    "una reconstrucción cuando ni la fuente ni el código cambiaron.",
    pk="clave",
    label_column="clave",
)


@dataclass(frozen=True)
class SeriesEntry:
    """One series of the catalogue of series (catalogo/series.py): a dataset's measure for one value of its
    naming fields."""

    id: str = column(
        "Identificador estable de la serie: tabla, valores que la nombran y medida (inflacion, "
        "cotizaciones_dolares.blue.venta); es el que se pide en /v1/series/datos?ids=."
    )
    titulo: str = column("Título legible de la serie.")
    descripcion: str = column("Qué mide: la descripción de la medida y de su tabla.")
    tema: str = column("Tema del catálogo: cotizaciones, indices, tasas... (filtro tema= de /v1/series).")
    unidad: Optional[str] = column("Unidad de sus valores (pesos por dólar, porcentaje...).")
    frecuencia: str = column("Cada cuánto tiene un valor: diaria o mensual.")
    tipo: str = column(
        "Qué clase de número es: nivel (un precio, un índice, un monto: agrupar promedia), tasa (una variación por "
        "período, como la inflación mensual: agrupar la compone), tasa_anual (TNA, TEA, variación interanual) o "
        "conteo."
    )
    desde: Optional[str] = column("Fecha de su primera observación (AAAA-MM-DD).")
    hasta: Optional[str] = column("Fecha de su última observación (AAAA-MM-DD).")
    observaciones: int = column("Cantidad de fechas con valor.")
    fuente: str = column("Quién publica el dato originalmente (BCRA, INDEC...).")
    ruta: str = column("Ruta /v1 que publica la serie (con filtro: las filas de esa ruta con esos valores).")
    tabla: str = column("Tabla de esta base donde están sus valores.")
    columna: str = column("Columna de esa tabla con sus valores.")
    filtro: str = column(
        'Las columnas de su tabla que la nombran, como objeto JSON ({"casa": "blue"}); {} si es la única.'
    )
    entidad: Optional[str] = column(
        "Quién o qué es, por su nombre: la casa, el fondo, el banco, el indicador del REM (null si es la única de su "
        "tabla)."
    )
    atributos: str = column(
        'Los campos que la nombran y la describen, por sus nombres, como objeto JSON ({"fondo": "...", '
        '"categoria": "Mercado de Dinero", "moneda": "USD"}): su valor el último día; /v1/series filtra por ellos '
        "(?moneda=USD)."
    )
    ultimaActualizacion: Optional[str] = column(
        "Última vez que upstream publicó su ruta (la versión más reciente guardada, fecha y hora UTC); null si "
        "la ruta no tiene versiones guardadas."
    )
    cadencia: Optional[int] = column(
        "Días que pueden pasar desde su última observación sin que esté atrasada (declarados en el catálogo según "
        "su frecuencia y el rezago habitual de quien la publica); null si nunca se da por atrasada: la de un fondo, "
        "un banco o un período del REM, que dejan de tener datos cuando el fondo cierra, el banco deja de ofrecer "
        "o el período pasa."
    )
    atrasada: bool = column(
        "1 si su última observación tiene más días que su cadencia el día de la construcción (/v1/series lo "
        "calcula contra el día del pedido)."
    )


SERIES = OwnTable(
    "series",
    SeriesEntry,
    "Catálogo de series",
    "Cada serie numérica de la base: una medida de una tabla para un valor de sus campos que la nombran (una casa, "
    "una moneda), con su unidad, frecuencia, tipo, período cubierto y si está atrasada. Es lo que lista /v1/series "
    "y lo que combina /v1/series/datos; sale del catálogo (catalogo/series.py), así una tabla nueva con serie "
    "declarada aparece sola. Con búsqueda de texto (sin tildes ni mayúsculas) en id, título, entidad, atributos, "
    "unidad, tema y descripción. Para buscarlas, graficarlas juntas y descargarlas: el explorador de series, "
    "/-/series.",
    pk="id",
    label_column="titulo",
    facets=("tema", "frecuencia", "tipo", "tabla", "atrasada"),
)


# In the order the database page lists them.
TABLES = (
    SERIES,
    FUENTES,
    PUBLICADOS,
    CAMBIOS,
    VERSIONES,
    REGISTROS_VERSIONES,
    REVISIONES,
    FALLIDOS,
    AUSENTES,
    CALIDAD,
    CONTROLES,
    CIFRAS,
    CONSTRUCCION,
)
