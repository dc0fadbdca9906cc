"""A /v1 query, in one place: its parameters, how they are read, which routes take them and what they do.

Each query parameter is one entry of ``PARAMETERS``: its values, what it needs, which routes take it and its
description; parsing, the 400s of a route that does not take it, /v1/openapi.json and the table of docs/api.md all
read that entry.  ``answer`` decides a routed path's query in one pass: its parameters checked against what the
route answers, the records chosen in SQL (respuestas/seleccion.py, or the stored versions for ``publicado``), and
what only Python does with them (``ajustar``, ``agrupar``, ``variacion``: ``apply``).  Without parameters nothing
changes, byte for byte.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any, Callable, Optional
from urllib.parse import parse_qsl

import orjson

from argentina_datos.almacen import publicados, versiones
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.esquema import INTEGER, NUMBER, RATE, Field
from argentina_datos.catalogo.parametros import CASA_ALIASES, CASAS
from argentina_datos.respuestas import conversiones, seleccion, variaciones
from argentina_datos.respuestas.respuesta import Answer, ApiError, BadQuery
from argentina_datos.respuestas.rutas import Endpoint
from argentina_datos.respuestas.variaciones import DECIMALS, is_number, rounded

_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# publicado= besides a day: each observation's first published value, or every value it had (respuestas/
# catalogo_series.py, from the versions store)
FIRST, ALL = "primera", "todas"
# publicado=todas gives at most this many rows (~2.7 MB: the size of the largest answers, 20 daily series aligned);
# more is a 400 that says how to narrow it
MAX_VALUES = 25_000


@dataclass(frozen=True)
class Answers:
    """What a route answers, as the catalogue says: it decides which query parameters the route takes."""

    listing: bool = False  # a list of records
    dated: bool = False  # records with a fecha (a list, or one record: /ultimo, a quote of one day)
    measured: bool = False  # ... with numeric measures (amounts, rates)
    pesos: frozenset[str] = frozenset()  # the fields that are amounts of pesos (ajustar converts them)
    rates: frozenset[str] = frozenset()  # the measures that are rates per period (monthly inflation): compounded
    calendar: bool = False  # holidays, also an iCalendar
    versioned: bool = False  # with past versions, answered as they were on a day
    series: bool = False  # the aligned series of /v1/series/datos (publicado=primera, todas)
    revised: bool = False  # a list with stored versions of its own: its records' first values, every value

    @classmethod
    def of(cls, endpoint, versioned: bool = False, revised: bool = False) -> Answers:
        """``endpoint``'s answer (respuestas.rutas.Endpoint); ``versioned``: it has stored versions (``revised``: of
        this very route)."""
        fields = [m for t in endpoint.datasets for m in BY_TABLE[t].fields]
        found = (BY_TABLE[t].series for t in endpoint.datasets)
        listing = endpoint.shape == "list"
        return cls(
            listing=listing,
            dated=endpoint.shape in ("list", "one", "last") and any(m.name == "fecha" for m in fields),
            # as measures_of reads the records: numbers, ids aside (the votes of an acta are measures)
            measured=listing
            and any(
                isinstance(m, Field) and m.kind in (NUMBER, INTEGER) and not _is_identifier(m.name) for m in fields
            ),
            pesos=frozenset(m.name for m in fields if listing and isinstance(m, Field) and m.in_pesos),
            rates=frozenset(m for sr in found if listing and sr is not None for m in sr.values if sr.kind(m) == RATE),
            calendar=endpoint.calendar,
            versioned=versioned,
            revised=revised and listing,
        )

    @classmethod
    def of_records(cls, data: Any) -> Answers:
        """What ``data``, a file no catalogue route describes, is (a list without records may be anything)."""
        if not isinstance(data, list):
            return cls(versioned=True)
        dated = [r for r in data if isinstance(r, dict) and _day(r)]
        return cls(
            listing=True,
            dated=not data or bool(dated),
            measured=not dated or bool(measures_of(dated)),
            versioned=True,
        )

    def refuse(self, query: Query, route: str) -> None:
        """A BadQuery for the first parameter of ``query`` that the route does not take."""
        for name, value in query.given:
            p = BY_NAME[name]
            if not p.takes(self):
                raise BadQuery(name, f"«{name}» no se aplica a {route}: es para {p.where}")
            if not p.offers(self, value):
                raise BadQuery(name, f"«{name}={value}» no se aplica a {route}: {p.unoffered}")


@dataclass(frozen=True)
class QueryParam:
    """A /v1 query parameter."""

    name: str
    description: str  # what it does, in Spanish (Markdown): docs/api.md's table and /v1/openapi.json
    example: str  # a value, for the OpenAPI document
    url: str  # a /v1 URL that uses it, for docs/api.md's table
    where: str  # the routes that take it, in Spanish: the docs' table and the 400 elsewhere
    takes: Callable[[Answers], bool]  # the routes that take it, from the catalogue
    choices: tuple[str, ...] = ()  # its values; or else
    # the form of its value: "fecha" (AAAA-MM-DD, a calendar day), "mes" (AAAA-MM), "periodo" (a day, a month
    # AAAA-MM or a year AAAA standing for one day: callers write desde=2025-01, and a month or a year means all its
    # days) or "prefijo" (a day, also AAAA/MM/DD as in the paths, a month or a year: the start of the dates it takes)
    form: str = ""
    ends: bool = False  # a "periodo" stands for its last day (hasta), not its first
    pattern: Optional[re.Pattern] = None  # what it takes, where ``choices`` is a pattern (dolar-<casa>)
    needs: Optional[tuple[str, Optional[str], str]] = None  # (parameter, its value or any, the 400's message)
    default: Optional[str] = None  # the value it has when absent (with ``needs``, when that one is given)
    transforms: bool = True  # it changes the records (not only their format or version)
    group: str = ""  # the exploded object parameter of the OpenAPI document it goes in (agrupacion, ajuste)
    # Which of its values a route offers (a rate per period is neither added up nor divided), and why not (the 400).
    offers: Callable[[Answers, str], bool] = lambda answers, value: True
    unoffered: str = ""
    any_case: bool = False  # CSV is csv: a value typed in capitals is the same value

    def values_text(self) -> str:
        """Its values in Spanish: «a, b o c», or its form (and its words: «AAAA-MM-DD, primera o todas»)."""
        if self.choices and self.form:
            return ", ".join([self.form_text(), *self.choices[:-1]]) + f" o {self.choices[-1]}"
        if self.choices:
            return ", ".join(self.choices[:-1]) + f" o {self.choices[-1]}" if len(self.choices) > 1 else self.choices[0]
        return self.form_text()

    def form_text(self) -> str:
        return {
            "fecha": "AAAA-MM-DD",
            "mes": "AAAA-MM",
            "periodo": "AAAA-MM-DD, AAAA-MM o AAAA",
            "prefijo": "AAAA-MM-DD, AAAA/MM/DD, AAAA-MM o AAAA",
        }[self.form]

    def day(self, value: str) -> str:
        """A "periodo" as the calendar day it stands for: a month or a year is its first day (its last, for
        ``ends``); a BadQuery naming the parameter if it is none of the three."""
        if _YEAR.fullmatch(value):
            return f"{value}-12-31" if self.ends else f"{value}-01-01"
        if _MONTH.fullmatch(value):
            year, month = int(value[:4]), int(value[5:])
            return f"{value}-{calendar.monthrange(year, month)[1] if self.ends else 1:02d}"
        if not _ISO_DATE.fullmatch(value):
            raise BadQuery(
                self.name,
                f"«{self.name}» debe ser una fecha AAAA-MM-DD, un mes AAAA-MM o un año AAAA, no «{value[:40]}»",
            )
        _check_date(self.name, value)
        return value

    def check(self, value: str, values: dict[str, str]) -> None:
        """A BadQuery naming the parameter and its value if ``value`` is not one it takes."""
        if self.needs is not None:
            other, wanted, message = self.needs
            if other not in values or (wanted is not None and values[other] != wanted):
                raise BadQuery(self.name, message)
        if self.form == "fecha" and value not in self.choices:
            if self.choices and not _ISO_DATE.fullmatch(value):
                raise BadQuery(self.name, f"«{self.name}» debe ser {self.values_text()}; no «{value[:40]}»")
            _check_date(self.name, value)
        elif self.form == "fecha":
            pass  # one of its words
        elif self.form == "periodo":
            self.day(value)
        elif self.form == "mes" and not _MONTH.fullmatch(value):
            raise BadQuery(self.name, f"«{self.name}» debe ser un mes AAAA-MM, no «{value[:40]}»")
        elif self.form == "prefijo":
            period_prefix(self.name, value)
        elif self.pattern is not None and not self.pattern.fullmatch(value):
            raise BadQuery(self.name, f"«{self.name}» debe ser {self.values_text()}; no «{value[:40]}»")
        elif self.pattern is None and self.choices and value not in self.choices:
            raise BadQuery(self.name, f"«{self.name}» debe ser uno de: {', '.join(self.choices)}; no «{value[:40]}»")


_MONTH = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])")
_YEAR = re.compile(r"000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3}")  # 0001-9999, as datetime.date
_DATED = "las listas de registros con fecha"
_WITH_DATE = (
    "las rutas cuyos registros tienen fecha: las listas y las de un registro (`/ultimo`, una cotización de un día)"
)
_MEASURED = "las listas de registros con fecha y medidas numéricas (montos, tasas): no los feriados"


def _dated(a: Answers) -> bool:
    return a.listing and a.dated


def _measured(a: Answers) -> bool:
    return a.listing and a.dated and a.measured


def _in_pesos(a: Answers) -> bool:
    return a.listing and a.dated and bool(a.pesos)


PARAMETERS: tuple[QueryParam, ...] = (
    QueryParam(
        "desde",
        "sólo los registros con `desde <= fecha` (AAAA-MM-DD, inclusive; un mes AAAA-MM o un año AAAA es su primer "
        "día; `desde` posterior a `hasta` es un 400); mismos registros, mismo orden, misma forma",
        "2025-01-01",
        "/v1/cotizaciones/dolares/blue?desde=2025-01-01&hasta=2025-01-31",
        _DATED,
        _dated,
        form="periodo",
    ),
    QueryParam(
        "hasta",
        "sólo los registros con `fecha <= hasta` (AAAA-MM-DD, inclusive; un mes AAAA-MM o un año AAAA es su último "
        "día: `desde=2025-01&hasta=2025-06` son seis meses); con `desde` o solo",
        "2025-12-31",
        "/v1/cotizaciones/dolares/blue?hasta=2025-01-31",
        _DATED,
        _dated,
        form="periodo",
        ends=True,
    ),
    QueryParam(
        "agrupar",
        "un registro por período y por serie (los campos de texto distintos de `fecha`, como `casa` o `moneda`, "
        "identifican la serie), con las mismas claves; `fecha` es el primer día del período (la semana empieza el "
        "lunes). Resume **todos los registros que publica upstream**: las cotizaciones traen todos los días del "
        "calendario y repiten el viernes el sábado y el domingo, así que un promedio mensual pesa tres veces el "
        "viernes (para días hábiles, `dias=habiles` en `/v1/series/datos`, o SQL con `WHERE habil`)",
        "mes",
        "/v1/cotizaciones/dolares?agrupar=mes",
        _MEASURED,
        _measured,
        choices=("semana", "mes", "trimestre", "anio"),
        group="agrupacion",
    ),
    QueryParam(
        "funcion",
        "cómo se resumen los campos numéricos del período (sin contar los null; un período sin valores da null), "
        f"redondeados a {DECIMALS} decimales (sin el ruido de los números binarios, `1429.2049999999997` → "
        "`1429.205`; ningún valor publicado tiene más de 8). Sin `funcion`, una **tasa** por período (la inflación "
        "mensual: `tipo` `tasa` en el catálogo de series) se **compone**: la inflación de un año es "
        "∏(1 + mensual/100) − 1, en porcentaje (2024: 117,68), y lo demás se promedia; `funcion=promedio` es "
        "el promedio simple también de una tasa (la inflación mensual promedio del año: 6,825 en 2024); `suma` "
        "de una tasa es un 400; `ultimo`, `primero`, `minimo` y `maximo` la dejan como es (la mensual más alta "
        "del año) y, como eligen el valor de un día, agregan junto a cada medida `fecha<Medida>` (`fechaValor`, "
        "`fechaVenta`): el día del que viene (en `/v1/series/datos`, la columna `id:fecha`). Va con `agrupar`",
        "promedio",
        "/v1/finanzas/indices/riesgo-pais?agrupar=anio&funcion=maximo",
        _MEASURED,
        _measured,
        choices=("promedio", "ultimo", "primero", "minimo", "maximo", "suma"),
        offers=lambda a, value: not (a.rates and value == "suma"),
        unoffered="la suma de una tasa por período no significa nada; sin «funcion», agrupar la compone",
        needs=("agrupar", None, "«funcion» va con «agrupar» (semana, mes, trimestre o anio)"),
        group="agrupacion",
    ),
    QueryParam(
        "variacion",
        "cada medida (nunca los ids) como su variación, por serie (los campos de texto, como en `agrupar`) y en "
        "orden de fecha: contra el registro anterior (`absoluta`: x − anterior; `relativa`: x / anterior − 1), "
        "contra el último registro a un año o más (`interanual`; el 29 de febrero mira el 28) o contra el último "
        "del año anterior (`acumulada`). Las relativas son fracciones (0.05 = 5 %); null sin referencia, con un "
        "valor null o al dividir por 0. Se calcula sobre la serie entera (después de ajustar y agrupar) y "
        "`desde`/`hasta` recortan el resultado: el primer registro del rango tiene su variación. Mismas claves, "
        "mismo orden. Una **tasa** por período se compone: `acumulada` es la de enero hasta ese mes (noviembre de "
        "2024: 111,96 %, no 2,4 / 25,5 − 1 = −0,906), `interanual` la de los doce meses hasta ese (null si no "
        "están todos), `absoluta` la diferencia en puntos porcentuales, y `relativa` (un cociente de tasas) es un 400",
        "interanual",
        "/v1/cotizaciones/dolares/blue?agrupar=mes&variacion=interanual&desde=2025-01-01",
        _MEASURED,
        _measured,
        choices=("absoluta", "relativa", "interanual", "acumulada"),
        offers=lambda a, value: not (a.rates and value == "relativa"),
        unoffered="el cociente de dos tasas no significa nada: use absoluta (en puntos porcentuales), acumulada o interanual",
    ),
    QueryParam(
        "ajustar",
        "los montos en pesos (cotizaciones, UVA, montos: las columnas cuya unidad son pesos) en otra unidad, antes "
        "de agrupar. `ipc`: en pesos de `base`, x × IPC(base) / IPC(mes de su fecha), con el IPC encadenado desde "
        "la inflación mensual (tabla `ipc`); una fecha posterior al último mes del IPC usa ese mes, una anterior "
        "al primero da null. `uva`: en UVA (x / la UVA de ese día). `dolar-<casa>`: en dólares a la venta de esa "
        "casa ese día (`dolar-blue`, `dolar-oficial`, `dolar-bolsa`...; x / venta; `dolar-mep` es `dolar-bolsa` y `dolar-ccl`, `dolar-contadoconliqui`); un día sin UVA o sin "
        "cotización usa la última anterior. Ningún monto anterior al 1992-01-01 se convierte: ese día el peso "
        "reemplazó al austral (10.000 australes = 1 peso), que había reemplazado al peso argentino (1985, "
        "1.000 = 1), que había reemplazado al peso ley 18.188 (1983, 10.000 = 1); un monto a convertir anterior "
        "en el rango pedido es un 400 que lo dice",
        "ipc",
        "/v1/cotizaciones/dolares/oficial?ajustar=dolar-blue&desde=2024-01-01",
        "las listas de registros con fecha y montos en pesos: no las tasas, puntos, porcentajes ni dólares",
        _in_pesos,
        choices=("ipc", "uva", *(f"dolar-{c}" for c in CASAS if c not in CASA_ALIASES)),
        # Any dolar-<casa> is parsed: an unknown casa is a 400 naming the casas (respuestas/conversiones.py).
        pattern=re.compile(r"ipc|uva|dolar-[a-z]+"),
        group="ajuste",
    ),
    QueryParam(
        "base",
        "con `ajustar=ipc`, el mes (AAAA-MM) en cuyos pesos se expresan los montos; por omisión el último mes del "
        "IPC. Un mes que el IPC no tiene es un 400",
        "2020-01",
        "/v1/finanzas/indices/uva?ajustar=ipc&base=2020-01",
        "las listas de registros con fecha y montos en pesos, con `ajustar=ipc`",
        _in_pesos,
        form="mes",
        needs=("ajustar", "ipc", "«base» va con «ajustar=ipc»: el mes en cuyos pesos se expresan los montos"),
        group="ajuste",
    ),
    QueryParam(
        "fecha",
        "el valor de esa fecha, un día (`AAAA-MM-DD`, también `AAAA/MM/DD`, como en las rutas), un mes (`AAAA-MM`) "
        "o un año (`AAAA`): en una lista, sus registros de esa fecha (mismos registros, mismo orden, misma forma; con "
        "`desde`/`hasta`, ambos recortes), y en `/ultimo` el último registro de la lista con esa fecha "
        "(`/v1/finanzas/indices/riesgo-pais/ultimo?fecha=2024-12`: el del último día de diciembre que tiene). Una ruta "
        "de un registro con fecha (una cotización de un día) responde lo mismo si su fecha está en ella; un listado "
        "`ultimo` (o `penultimo`) de una ruta que publica listados por fecha (los fondos de una categoría, el REM) es "
        "el último listado con registros de esa fecha (o el anterior a él), el archivo tal como se publicó; si la fecha "
        "alcanza el `ultimo` que publica upstream, ese archivo. En `/ultimo`, con `publicado`, sobre la lista como se "
        "publicó ese día. Donde una ruta de un registro o un listado no tiene uno de esa fecha, un 404 que nombra "
        "`fecha` y dice las fechas que hay (una lista sin registros de esa fecha responde `[]`)",
        "2024-12-31",
        "/v1/finanzas/indices/riesgo-pais/ultimo?fecha=2024-12",
        _WITH_DATE,
        lambda a: a.dated,
        form="prefijo",
    ),
    QueryParam(
        "publicado",
        "la respuesta tal como upstream la había publicado al final de ese día (AAAA-MM-DD, UTC): su versión más "
        "nueva guardada con fecha igual o anterior (en una ruta calculada de una lista, como un día de "
        "`/v1/cotizaciones/dolares`, la de esa lista); 404 si no hay ninguna anterior, 400 si es posterior a hoy. Sin `publicado`, lo que "
        "upstream publica hoy. En `/v1/series/datos` y en las listas con versiones guardadas, además: `primera`, el "
        "primer valor publicado de cada observación (en una lista, cada registro tal como se publicó por primera "
        "vez, con un campo `publicado`; en `/v1/series/datos`, una columna «id:publicado») que dice el día (el de "
        "la primera versión guardada de la ruta para lo que ya estaba en ella: se publicó ese día o antes); "
        "`todas`, una fila por observación y por cada valor que tuvo (en una lista, cada registro con cada valor), "
        "con `publicadoDesde` y `publicadoHasta` (el día en que otro lo reemplazó o se quitó; null mientras sigue "
        "vigente), a lo sumo 25.000 filas (más, un 400: acótelo con `desde` y `hasta`, que cortan por la fecha de "
        "la observación): el valor vigente el día D es el de `publicadoDesde <= D < publicadoHasta`. "
        "Un día es el final de ese día, como `publicado=AAAA-MM-DD`: un valor corregido el mismo día en que "
        "apareció no cuenta. `riesgo_pais` del 2003-06-02 (o `/v1/finanzas/indices/riesgo-pais?publicado=todas&"
        "desde=2003-06-02&hasta=2003-06-02`): 5360 del 2024-07-28 al 2025-01-01, y 5359 desde entonces",
        "2024-12-31",
        "/v1/finanzas/indices/riesgo-pais/ultimo?publicado=2024-12-31",
        "las rutas con versiones guardadas (tabla `versiones`) y las que se calculan de una de ellas; `primera` y "
        "`todas`, `/v1/series/datos` y las listas con versiones guardadas",
        lambda a: a.versioned,
        choices=(FIRST, ALL),
        form="fecha",
        transforms=False,
        offers=lambda a, value: a.series or (a.revised and a.dated) or value not in (FIRST, ALL),
        unoffered="«primera» y «todas» son para /v1/series/datos y las listas con versiones guardadas; en las demás "
        "rutas, un día AAAA-MM-DD",
    ),
    QueryParam(
        "formato",
        "`json` (por omisión); `csv`: la lista como CSV (`text/csv; charset=utf-8`): encabezado con las claves del "
        "primer registro (en `/v1/series/datos`, «título (unidad) [id]» de cada serie), una fila por registro, lo "
        "anidado como texto JSON, null como celda vacía; `xlsx`: la misma tabla como planilla de Excel, con los "
        "números como números y las fechas como fechas, que cualquier planilla lee igual en cualquier idioma; `ics`: "
        "los feriados como calendario iCalendar (`text/calendar; charset=utf-8`, RFC 5545), un evento de día entero "
        "por feriado, con su nombre y su tipo, para importar en Google Calendar, Outlook o el calendario del "
        "teléfono; sólo en `/v1/feriados`, `/v1/feriados/{año}`, `/v1/feriados-bancarios` y "
        "`/v1/feriados-bancarios/{año}`. En mayúsculas o minúsculas (`CSV` es `csv`)",
        "json",
        "/v1/finanzas/indices/inflacion?formato=csv",
        "las listas (`ics`: las de feriados)",
        lambda a: a.listing,
        choices=("json", "csv", "xlsx", "ics"),
        offers=lambda a, value: value != "ics" or a.calendar,
        unoffered="ics es para las rutas de feriados (/v1/feriados/{año}...)",
        default="json",
        transforms=False,
        any_case=True,
    ),
    QueryParam(
        "decimal",
        "cómo se escriben los números de un CSV (`formato=csv`): `coma`, el CSV de una planilla en castellano, con `;` "
        "entre campos y `,` antes de los decimales (`1227,5`; las fechas siguen AAAA-MM-DD, que se leen como "
        "fechas); `punto` (por omisión): `,` entre campos y `.` decimal, el de una planilla en inglés. En JSON y en "
        "`xlsx` los números no son texto y no cambian: una misma URL sirve con cualquier `formato`. Ver "
        "docs/planilla.md",
        "coma",
        "/v1/finanzas/indices/inflacion?formato=csv&decimal=coma",
        "las listas",
        lambda a: a.listing,
        choices=("punto", "coma"),
        transforms=False,
        any_case=True,
    ),
)
BY_NAME = {p.name: p for p in PARAMETERS}
TABULAR = ("csv", "xlsx")  # the formats of a table for a spreadsheet
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"  # formato=xlsx's media type


@dataclass(frozen=True)
class Query:
    """The known parameters of a query string (``PARAMETERS``' names), in the table's order."""

    given: tuple[tuple[str, str], ...] = ()

    def __getattr__(self, name: str) -> Optional[str]:
        # query.desde, query.ajustar...: the value given, or the parameter's default (formato: json).
        if name not in BY_NAME:
            raise AttributeError(name)
        return dict(self.given).get(name, BY_NAME[name].default if BY_NAME[name].needs is None else None)

    @property
    def period(self) -> str:
        """``fecha`` as the start of the dates it takes (2024-12-31, 2024-12 or 2024); "" without it."""
        return period_prefix("fecha", self.fecha) if self.fecha is not None else ""

    @property
    def span(self) -> tuple[str, str]:
        """(desde, hasta): the days the records' dates lie between, "" and "\uffff" where not given."""
        return self.desde or "", self.hasta or "\uffff"

    @property
    def tabular(self) -> bool:
        """A table for a spreadsheet (formato=csv or xlsx): a /v1/series/datos answer then heads its columns."""
        return self.formato in TABULAR

    @property
    def empty(self) -> bool:
        return not self.given

    @property
    def filters(self) -> bool:
        return any(BY_NAME[n].transforms for n, _ in self.given)

    def key(self) -> str:
        """Part of the cache key: only the parameters that change the answer, in one order."""
        # An empty value is a value (desde= is a 400), not the plain answer: it keeps its own key.
        return "?" + "&".join(f"{n}={v}" for n, v in self.given) if self.given else ""

    def replaced(self, **values: Optional[str]) -> Query:
        """This query with these parameters set to these values (None: without it)."""
        merged: dict[str, Optional[str]] = {**dict(self.given), **values}
        return Query(tuple((p.name, v) for p in PARAMETERS if (v := merged.get(p.name)) is not None))


def parse(query_string: bytes | str, path_values: Optional[dict[str, str]] = None) -> Query:
    """The known parameters of a query string; unknown ones are ignored (as upstream ignores them:
    clients repeat path parameters there).  A bad value raises BadQuery naming the parameter.  A parameter that
    repeats the path's own value (``path_values``: the route's parameters as its path writes them) is the path's,
    not a filter: a generated SDK sends /v1/finanzas/fci/mercadoDinero/ultimo?fecha=ultimo."""
    if isinstance(query_string, bytes):
        # Raw UTF-8 (?fecha=mañana, as some clients send it) reads as percent-encoded UTF-8 does.
        query_string = query_string.decode("utf-8", "replace")
    values: dict[str, str] = {}
    own = path_values or {}
    for name, value in parse_qsl(query_string, keep_blank_values=True):
        if name in BY_NAME and own.get(name) != value:
            values[name] = value.lower() if BY_NAME[name].any_case else value  # the last one wins, as in most servers
    for p in PARAMETERS:
        if p.name in values:
            p.check(values[p.name], values)
            if p.form == "periodo":
                values[p.name] = p.day(values[p.name])  # one value per day: the same answer, the same cache key
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    if values.get("publicado", "") not in (FIRST, ALL) and values.get("publicado", "") > today:  # not yet known
        raise BadQuery("publicado", f"«publicado» ({values['publicado']}) es posterior a hoy ({today}, UTC)")
    if "desde" in values and "hasta" in values and values["desde"] > values["hasta"]:
        raise BadQuery(
            "desde",
            f"«desde» ({values['desde']}) es posterior a «hasta» ({values['hasta']}): no hay fechas entre ambas",
        )
    given = []
    for p in PARAMETERS:
        got = values.get(p.name)
        if got is None and p.needs is not None and p.needs[0] in values:
            got = p.default  # funcion=promedio, with agrupar
        if got is not None and not (p.needs is None and got == p.default):  # formato=json: the plain answer
            given.append((p.name, got))
    return Query(tuple(given))


_SLASHED = re.compile(r"[0-9]{4}/[0-9]{2}/[0-9]{2}")


def period_prefix(name: str, text: str) -> str:
    """A day (AAAA-MM-DD or AAAA/MM/DD), a month (AAAA-MM) or a year (AAAA) as the text its dates start with; a
    BadQuery naming ``name`` for anything else."""
    if _YEAR.fullmatch(text) or _MONTH.fullmatch(text):
        return text
    if _SLASHED.fullmatch(text):
        text = text.replace("/", "-")
    if not _ISO_DATE.fullmatch(text):
        raise BadQuery(
            name, f"«{name}» debe ser un día AAAA-MM-DD (o AAAA/MM/DD), un mes AAAA-MM o un año AAAA, no «{text[:40]}»"
        )
    _check_date(name, text)
    return text


def _check_date(name: str, text: str) -> None:
    if not _ISO_DATE.fullmatch(text):
        raise BadQuery(name, f"«{name}» debe ser una fecha AAAA-MM-DD, no «{text[:40]}»")
    try:
        dt.date.fromisoformat(text)
    except ValueError:
        raise BadQuery(name, f"«{name}» = {text} no es una fecha del calendario") from None


# ---- deciding a query on a route ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Known:
    """What the database says that every query needs, read once per database (respuestas/responder.py)."""

    versioned: frozenset[str]  # the routes with stored versions
    templates: frozenset[str]  # the route templates publicado applies to: with versions, or computed from a list with
    cpi: dict[str, float]  # AAAA-MM -> the CPI's level (ajustar=ipc)
    unbundled: bool  # built without the bundle of versions (its _construccion fact): a refusal says so


@dataclass(frozen=True)
class Asked:
    """A path with a query, as the Responder routed it: its catalogue route (None: a file no route describes yet)."""

    endpoint: Optional[Endpoint]
    path: str  # as upstream names its files
    known: Known
    values: dict = field(default_factory=dict)  # the path's values
    # the answer to another path: the listing that fecha names on an ultimo (penultimo), routed as any path is
    routed: Optional[Callable[[str, Query], Answer]] = None


_NO_VERSION = "no hay versiones guardadas de {} anteriores al {}"


def answer(conn: sqlite3.Connection, asked: Asked, query: Query) -> Answer:
    """``asked``'s answer to ``query``, decided in one pass: each parameter checked against what the route answers,
    then the records chosen in SQL by fecha, desde, hasta and publicado (respuestas/seleccion.py, almacen/
    versiones.py), and what only Python does (ajustar, agrupar, variacion) on the records so chosen."""
    if asked.endpoint is not None:
        return _routed(conn, asked, asked.endpoint, query)
    path = asked.path  # a file no catalogue route describes: as it came, or as the query cuts its records
    if query.publicado is not None and path not in asked.known.versioned:
        raise BadQuery("publicado", f"«publicado» no se aplica a {path}: no tiene versiones guardadas")
    on = query.publicado
    if on in (FIRST, ALL):
        raise BadQuery(
            "publicado",
            f"«publicado={on}» es para /v1/series/datos y las listas con versiones guardadas; en las demás rutas, "
            "un día AAAA-MM-DD",
        )
    body = versiones.published_on(conn, path, on) if on is not None else publicados.body(conn, path)
    if body is None:  # no version by that day (the Responder hands over a file upstream published, or versioned)
        raise ApiError(404, _NO_VERSION.format(path, on), "publicado")
    return _treated(body, query, path)


def _routed(conn: sqlite3.Connection, asked: Asked, endpoint: Endpoint, query: Query) -> Answer:
    """A catalogue route's answer to ``query``."""
    path = asked.path
    revised = path in asked.known.versioned
    answers = Answers.of(endpoint, revised or endpoint.path in asked.known.templates, revised)
    answers.refuse(query, path)
    if query.publicado in (FIRST, ALL):  # offered (refuse) only on a list with versions
        return Answer(200, _revisions(conn, path, query))
    if query.fecha is not None and endpoint.latest_listing is not None:
        listing = endpoint.latest_listing(conn, asked.values, path, query.period)
        if listing is not None:  # the listing of the last (penultimate) date within the period, as published
            assert asked.routed is not None  # given with every catalogue route
            return asked.routed(listing, query.replaced(fecha=None))
    on = query.publicado  # a day: primera and todas were answered, or refused, above
    if on is not None and revised:  # its own file, as published that day
        if (body := versiones.published_on(conn, path, on)) is None:
            raise ApiError(404, _NO_VERSION.format(path, on), "publicado")
    elif on is not None and not endpoint.computed:
        # /v1/cotizaciones/dolares/turista, when only other casas have versions
        raise ApiError(404, f"no hay versiones guardadas de {path}", "publicado")
    elif (query.ajustar or query.agrupar or query.variacion) and endpoint.shape == "list":
        body = endpoint.answer(conn, asked.values, path, on)  # a change needs the records before the range: all
    else:
        dates = seleccion.Dates(query.desde or "", query.hasta or "", query.period)
        return Answer(200, raw=endpoint.answer(conn, asked.values, path, on, dates))
    convert = None
    if query.ajustar:  # the route's amounts of pesos in pesos of base, in UVA or in dollars
        convert = conversiones.converter(conn, query.ajustar, query.base, query.span, asked.known.cpi)
    return _treated(body, query, path, answers, convert)


def _treated(
    body: bytes,
    query: Query,
    path: str,
    answers: Optional[Answers] = None,
    convert: Optional[Callable[[list, set[str]], list]] = None,
) -> Answer:
    """A file's bytes as they came (a stored file, a version as published) or, with a query that cuts or groups, its
    records so treated: as ``answers`` (the catalogue route's) says, or else as its records are; ``convert``: what
    ``ajustar`` does to the amounts of pesos (conversiones.converter)."""
    if query.formato == "ics" and not query.empty:
        raise BadQuery("formato", "«formato=ics» es para las rutas de feriados, sin «fecha»")
    if not query.filters and not query.tabular:
        return Answer(200, raw=body)
    data = orjson.loads(body)
    if query.tabular and not isinstance(data, list):  # a past version may differ from today's shape
        raise BadQuery("formato", f"«formato={query.formato}» es para rutas que devuelven una lista")
    if answers is None or not isinstance(data, list):  # a past version treated as today's shape only if a list too
        answers, convert = Answers.of_records(data), None
    pesos = set(answers.pesos)
    adjust = (lambda records: convert(records, pesos)) if convert is not None else None
    return Answer(200, apply(data, query, adjust, answers.rates, path, answers))


def _revisions(conn: sqlite3.Connection, path: str, query: Query) -> list[dict]:
    """publicado=primera: the records of the list at ``path`` as each was first published, with the day
    (``publicado``); todas: each record with every value it had and the days it was in force (``publicadoDesde``,
    ``publicadoHasta``), of the records dated within desde, hasta and fecha, as /v1/series/datos answers a series."""
    for name in ("agrupar", "variacion", "ajustar"):
        if getattr(query, name) is not None:
            raise BadQuery(
                name, f"«{name}» no va con «publicado={query.publicado}», que da los registros como se publicaron"
            )
    periods = versiones.value_periods(conn, path, None, {}, *query.span)
    chosen = [p for p in periods if p[0].startswith(query.period) and (query.publicado == ALL or p[4])]
    if len(chosen) > MAX_VALUES:
        raise BadQuery(
            "publicado",
            f"«publicado={query.publicado}» da más de {MAX_VALUES:,} registros con estas fechas: "
            "acótelo con desde y hasta".replace(",", "."),
        )
    if query.publicado == FIRST:
        return [{**orjson.loads(record), "publicado": since} for _, record, since, _, _ in chosen]
    return [
        {**orjson.loads(record), "publicadoDesde": since, "publicadoHasta": until}
        for _, record, since, until, _ in chosen
    ]


# ---- applying a query to an answer ------------------------------------------------
def apply(
    data: Any,
    query: Query,
    adjust: Optional[Callable[[list], list]] = None,
    rates: frozenset[str] = frozenset(),
    route: str = "esta ruta",
    answers: Optional[Answers] = None,
) -> Any:
    """The answer cut to [desde, hasta], grouped by period and turned into changes, as ``query`` asks.
    ``adjust`` (with ``ajustar``) turns the records' amounts of pesos into another unit; ``rates``: the
    measures that are rates per period (monthly inflation), which a period compounds; ``route`` names the
    answer in errors; ``answers``: what the catalogue says the route answers, which decides the parameters it
    takes (without it, what ``data`` is: a file no catalogue route describes)."""
    (answers or Answers.of_records(data)).refuse(query, route)
    if not query.filters:
        return data
    (desde, hasta), period = query.span, query.period
    if query.ajustar and adjust is not None:
        data = adjust(data)
    if not query.variacion:  # as before these parameters: the range first, then the periods
        records = [r for r in data if isinstance(r, dict) and _in_range(_day(r), desde, hasta, period)]
        if query.agrupar:
            records = group(records, query.agrupar, query.funcion, rates)
        return records
    # A change needs the record it is measured against, which may lie before the range: the whole
    # series is grouped and turned into changes, and only then cut to the range.
    records = [r for r in data if isinstance(r, dict) and _day(r)]
    if query.agrupar:
        records = group(records, query.agrupar, query.funcion, rates)
    measures = measures_of(records)
    if records and not measures:
        raise BadQuery("variacion", "«variacion»: los registros de esta ruta no tienen medidas numéricas")
    if query.variacion == variaciones.RELATIVE and measures & rates:
        raise BadQuery(
            "variacion",
            f"«variacion=relativa» de una tasa ({', '.join(sorted(measures & rates))}) sería un cociente de tasas: "
            "use absoluta (en puntos porcentuales), acumulada o interanual",
        )
    records = variaciones.changes(records, query.variacion, series_of, measures, rates & measures)
    return [r for r in records if _in_range(_day(r), desde, hasta, period)]


def _in_range(day: Optional[str], desde: str, hasta: str, period: str) -> bool:
    return day is not None and desde <= day <= hasta and day.startswith(period)


def _day(record: dict) -> Optional[str]:
    value = record.get("fecha")
    return value[:10] if isinstance(value, str) and _ISO_DATE.match(value) else None


def period_start(day: str, period: str) -> str:
    d = dt.date.fromisoformat(day)
    if period == "semana":
        d -= dt.timedelta(days=d.weekday())  # weeks start on Monday
    elif period == "mes":
        d = d.replace(day=1)
    elif period == "trimestre":
        d = d.replace(month=(d.month - 1) // 3 * 3 + 1, day=1)
    else:
        d = d.replace(month=1, day=1)
    return d.isoformat()


def _is_identifier(key: str) -> bool:
    """An id is a number that names a record (actaId): it tells series apart, it is never averaged."""
    return key == "id" or key.endswith(("Id", "_id"))


def measures_of(records: list[dict]) -> set[str]:
    """The fields that are measures: numbers in every record that has them, never ids (actaId)."""
    numeric = {k for r in records for k, v in r.items() if k != "fecha" and is_number(v) and not _is_identifier(k)}
    return numeric - {k for r in records for k, v in r.items() if k in numeric and v is not None and not is_number(v)}


def day_key(measure: str) -> str:
    """The field beside a measure grouped by a function that picks one value (maximo...): the day it comes from,
    ``fechaValor`` beside ``valor``."""
    return "fecha" + measure[:1].upper() + measure[1:]


def series_of(record: dict, measures: set[str]) -> tuple:
    """Which series a record belongs to: its fields that are not measures (casa, moneda, ids), fecha and the days
    of the measures' picked values aside."""
    days = {day_key(m) for m in measures}
    return tuple((k, orjson.dumps(v)) for k, v in record.items() if k != "fecha" and k not in measures | days)


def group(records: list[dict], period: str, function: Optional[str], rates: frozenset[str] = frozenset()) -> list[dict]:
    """One record per period and series.  A series is told by the record's fields that are not
    numbers (casa, moneda, ...) and by its ids (actaId), fecha aside; the other numeric fields are
    aggregated over the period's records, ignoring nulls (a period where a field is always null
    gives null).  Without ``function`` a rate per period (``rates``, in percent) is compounded (the year of
    monthly inflations is ∏(1 + x/100) − 1) and the rest averaged; adding rates means nothing (400)."""
    numeric = measures_of(records)
    if function == "suma" and numeric & rates:
        raise BadQuery(
            "funcion",
            f"«funcion=suma» de una tasa ({', '.join(sorted(numeric & rates))}) no significa nada: sin «funcion», "
            "agrupar la compone",
        )
    groups: dict[tuple, list[dict]] = {}
    for r in sorted(records, key=lambda r: _day(r) or ""):  # stable: same-day records keep the list's order
        series = series_of(r, numeric)
        groups.setdefault((period_start(_day(r) or "", period), series), []).append(r)
    aggregate = AGGREGATES[function or "promedio"]
    out = []
    for (start, _), members in groups.items():
        first = members[0]
        record = {}
        for key in dict.fromkeys(k for m in members for k in m):
            if key == "fecha":
                record[key] = start
            elif key in numeric:
                found = [m for m in members if is_number(m.get(key))]
                values = [m[key] for m in found]
                how = variaciones.compounded if key in rates and function is None else aggregate
                record[key] = rounded(how(values)) if values else None
                if function in PICKS:  # the value is one day's: which one
                    record[day_key(key)] = _day(found[PICKS[function](values)]) if found else None
            else:
                record[key] = first.get(key)
        out.append(record)
    out.sort(key=lambda r: r["fecha"])  # stable: series keep their order of first appearance
    return out


def _mean(values: list) -> float:
    return sum(values) / len(values)


# The functions that pick one of the period's values: where it is among them (the first of equal ones).
PICKS: dict[str, Callable[[list], int]] = {
    "primero": lambda v: 0,
    "ultimo": lambda v: len(v) - 1,
    "minimo": lambda v: v.index(min(v)),
    "maximo": lambda v: v.index(max(v)),
}
AGGREGATES: dict[str, Callable[[list], Any]] = {
    "promedio": _mean,
    "primero": lambda v: v[0],
    "ultimo": lambda v: v[-1],
    "minimo": min,
    "maximo": max,
    "suma": sum,
}
