"""/v1 beyond static files: desde/hasta, agrupar/funcion and formato=csv, checked against the full
answer filtered in Python, pandas' resample of it, and the csv module reading the CSV back."""

import csv
import io
from pathlib import Path

import orjson
import pandas as pd
import pytest
from paths import UPSTREAM

from argentina_datos.respuestas import consulta
from argentina_datos.web.v1.formatos import to_csv

JSON_TYPE = "application/json; charset=utf-8"


# ---- the query string, without the mirror -----------------------------------------------
@pytest.mark.parametrize(
    "query, param",
    [
        ("desde=2024-13-01", "desde"),
        ("desde=2024-02-30", "desde"),
        ("hasta=ayer", "hasta"),
        ("desde=2024-13", "desde"),
        ("hasta=24", "hasta"),
        ("desde=2024-1", "desde"),
        ("agrupar=siglo", "agrupar"),
        ("agrupar=mes&funcion=mediana", "funcion"),
        ("funcion=maximo", "funcion"),
        ("formato=xml", "formato"),
        ("formato=", "formato"),
    ],
)
def test_bad_values_name_their_parameter(query, param):
    with pytest.raises(consulta.BadQuery) as e:
        consulta.parse(query)
    assert e.value.param == param


def test_a_range_without_records_is_an_empty_answer_and_a_reversed_one_is_an_error():
    q = consulta.parse("desde=2024-05-01&hasta=2024-05-31")
    assert consulta.apply([{"fecha": "2024-04-15", "valor": 1}], q) == []
    with pytest.raises(consulta.BadQuery, match="«desde» \\(2024-05-01\\) es posterior a «hasta» \\(2024-04-01\\)"):
        consulta.parse("desde=2024-05-01&hasta=2024-04-01")


@pytest.mark.parametrize(
    "query, desde, hasta",
    [
        ("desde=2025-01&hasta=2025-06", "2025-01-01", "2025-06-30"),
        ("desde=2024&hasta=2024", "2024-01-01", "2024-12-31"),
        ("desde=2024-02&hasta=2024-02", "2024-02-01", "2024-02-29"),  # a leap year's February
        ("desde=2023-02-10&hasta=2023-02", "2023-02-10", "2023-02-28"),
        ("desde=2025-03-31&hasta=2025", "2025-03-31", "2025-12-31"),
    ],
)
def test_a_month_or_a_year_is_its_first_day_in_desde_and_its_last_in_hasta(query, desde, hasta):
    q = consulta.parse(query)
    assert (q.desde, q.hasta) == (desde, hasta)
    # the same days, the same answer: one cache key whichever way they were written
    assert q.key() == consulta.parse(f"desde={desde}&hasta={hasta}").key()


def test_a_month_keeps_the_records_of_all_its_days():
    records = [{"fecha": f"2025-{m:02d}-{d:02d}", "valor": m} for m in range(1, 13) for d in (1, 28)]
    kept = consulta.apply(records, consulta.parse("desde=2025-01&hasta=2025-06"))
    assert [r["fecha"] for r in kept] == [r["fecha"] for r in records[:12]]
    with pytest.raises(consulta.BadQuery, match="«desde» \\(2025-07-01\\) es posterior a «hasta» \\(2025-06-30\\)"):
        consulta.parse("desde=2025-07&hasta=2025-06")


def test_unknown_parameters_are_ignored_and_share_the_plain_answer():
    q = consulta.parse(b"casa=blue&a%C3%B1o=2025&_=123")
    assert q.empty and q.key() == ""
    assert consulta.parse("agrupar=mes&desde=2024-01-01&x=1").key() == "?desde=2024-01-01&agrupar=mes"
    assert consulta.parse("formato=json").key() == ""
    with pytest.raises(consulta.BadQuery, match="fecha"):  # an empty value is a value: a 400, not the plain answer
        consulta.parse("fecha=")


def test_aggregates_are_rounded_without_the_noise_of_binary_floats():
    mean = consulta.group(
        [{"fecha": "2024-01-01", "v": 1429.2}, {"fecha": "2024-01-02", "v": 1429.21}], "mes", "promedio"
    )
    assert mean == [{"fecha": "2024-01-01", "v": 1429.205}]
    total = consulta.group([{"fecha": "2024-01-01", "v": 81.8}, {"fecha": "2024-01-09", "v": 0.1}], "mes", "suma")
    assert total == [{"fecha": "2024-01-01", "v": 81.9}]
    # an integer stays one, and a value at the published precision is left as it is
    assert (
        consulta.group([{"fecha": "2024-01-01", "v": 3}, {"fecha": "2024-01-02", "v": 5}], "mes", "suma")[0]["v"] == 8
    )
    assert consulta.rounded(0.12345678) == 0.12345678


def test_period_starts():
    assert consulta.period_start("2024-02-29", "semana") == "2024-02-26"  # a Thursday -> Monday
    assert consulta.period_start("2024-02-26", "semana") == "2024-02-26"
    assert consulta.period_start("2024-02-29", "mes") == "2024-02-01"
    assert consulta.period_start("2024-11-05", "trimestre") == "2024-10-01"
    assert consulta.period_start("2024-11-05", "anio") == "2024-01-01"


SMALL = [
    {"casa": "a", "compra": 1, "venta": 2.0, "fecha": "2024-01-30"},
    {"casa": "b", "compra": 10, "venta": None, "fecha": "2024-01-31"},
    {"casa": "a", "compra": 3, "venta": 4.0, "fecha": "2024-02-01"},
    {"casa": "a", "compra": 5, "venta": None, "fecha": "2024-01-02"},
]


def test_group_keeps_the_keys_and_aggregates_numbers_per_series():
    out = consulta.group(SMALL, "mes", "promedio")
    assert out == [
        {"casa": "a", "compra": 3.0, "venta": 2.0, "fecha": "2024-01-01"},
        {"casa": "b", "compra": 10.0, "venta": None, "fecha": "2024-01-01"},
        {"casa": "a", "compra": 3.0, "venta": 4.0, "fecha": "2024-02-01"},
    ]
    assert [r["compra"] for r in consulta.group(SMALL, "mes", "ultimo")] == [1, 10, 3]  # by date, not list order
    assert [r["compra"] for r in consulta.group(SMALL, "anio", "suma")] == [9, 10]


def test_a_picked_value_carries_the_day_it_comes_from():
    out = consulta.group(SMALL, "mes", "maximo")
    assert out[0] == {"casa": "a", "compra": 5, "fechaCompra": "2024-01-02", "venta": 2.0, "fechaVenta": "2024-01-30",
                      "fecha": "2024-01-01"}  # fmt: skip
    assert out[1]["fechaVenta"] is None  # no value in the period: no day
    assert [r["fechaCompra"] for r in consulta.group(SMALL, "mes", "primero")] == [
        "2024-01-02",
        "2024-01-31",
        "2024-02-01",
    ]
    assert "fechaCompra" not in consulta.group(SMALL, "mes", "promedio")[0]  # an average is of no one day
    # the days do not split a series: February's change is against January's maximum
    changed = consulta.apply(SMALL, consulta.parse("agrupar=mes&funcion=maximo&variacion=absoluta"))
    assert [(r["casa"], r["compra"]) for r in changed] == [("a", None), ("b", None), ("a", -2)]


def test_ids_tell_series_apart_and_are_never_averaged():
    votes = [
        {"actaId": 7, "afirmativos": 40, "fecha": "2024-05-02"},
        {"actaId": 9, "afirmativos": 30, "fecha": "2024-05-03"},
    ]
    out = consulta.group(votes, "mes", "promedio")
    assert [(r["actaId"], r["afirmativos"]) for r in out] == [(7, 40.0), (9, 30.0)]


def test_csv_of_records_and_of_bare_values():
    text = to_csv([{"a": 1, "b": None, "c": {"x": [1]}, "d": "ñ, sí"}, {"a": 2.5, "b": True}]).decode()
    assert list(csv.reader(io.StringIO(text))) == [
        ["a", "b", "c", "d"],
        ["1", "", '{"x":[1]}', "ñ, sí"],
        ["2.5", "true", "", ""],
    ]
    assert to_csv(["/rems/2025/01"]).decode() == "valor\r\n/rems/2025/01\r\n"


# ---- on the served routes, against the mirror -------------------------------------------
ROUTES = [
    "v1/cotizaciones/dolares/blue",
    "v1/cotizaciones/dolares",
    "v1/finanzas/indices/inflacion",
    "v1/finanzas/indices/riesgo-pais",
    "v1/cotizaciones/usd",
]


def mirror(route):
    path = UPSTREAM / route / "index.json"
    if not path.exists():
        pytest.skip(f"the mirror has no {route}")
    return orjson.loads(path.read_bytes())


async def get(ds, url, status=200):
    r = await ds.client.get(url)
    assert r.status_code == status, r.text[:300]
    return r


@pytest.mark.mirror
@pytest.mark.parametrize("route", ROUTES)
async def test_desde_hasta_is_the_list_filtered(ds, route):
    records = mirror(route)
    days = sorted({r["fecha"] for r in records})
    desde, hasta = days[len(days) // 3], days[2 * len(days) // 3]
    for query, keep in [
        (f"desde={desde}&hasta={hasta}", lambda f: desde <= f <= hasta),
        (f"desde={desde}", lambda f: f >= desde),
        (f"hasta={hasta}", lambda f: f <= hasta),
    ]:
        r = await get(ds, f"/{route}?{query}")
        assert r.headers["content-type"] == JSON_TYPE
        assert orjson.loads(r.content) == [x for x in records if keep(x["fecha"])]
    # without parameters, or with unknown ones, the answer is the mirror's
    assert orjson.loads((await get(ds, f"/{route}?foo=bar")).content) == records


async def test_months_in_desde_and_hasta_answer_those_months(ds):
    """What an LLM-written client sends: six months of inflation, named as months."""
    route = "v1/finanzas/indices/inflacion"
    records = mirror(route)
    got = orjson.loads((await get(ds, f"/{route}?desde=2025-01&hasta=2025-06")).content)
    assert got == [r for r in records if "2025-01-01" <= r["fecha"] <= "2025-06-30"]
    assert sorted({r["fecha"][:7] for r in got}) == [f"2025-{m:02d}" for m in range(1, 7)]
    year = orjson.loads((await get(ds, f"/{route}?desde=2024&hasta=2024")).content)
    assert [r["fecha"][:7] for r in year] == [f"2024-{m:02d}" for m in range(1, 13)]


RESAMPLE = {"semana": "W-MON", "mes": "MS", "trimestre": "QS", "anio": "YS"}
PANDAS = {"promedio": "mean", "primero": "first", "ultimo": "last", "minimo": "min", "maximo": "max", "suma": "sum"}


@pytest.mark.mirror
@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "agrupar, funcion",
    [
        ("mes", "promedio"),
        ("semana", "ultimo"),
        ("trimestre", "maximo"),
        ("anio", "suma"),
        ("mes", "primero"),
        ("anio", "minimo"),
    ],
)
async def test_agrupar_is_pandas_resample(ds, route, agrupar, funcion):
    if route == "v1/finanzas/indices/inflacion" and funcion == "suma":
        # a sum of monthly rates means nothing (the year compounds them: tests/test_catalogo_series.py)
        assert (await get(ds, f"/{route}?agrupar={agrupar}&funcion={funcion}", 400)).json()["parametro"] == "funcion"
        return
    records = mirror(route)
    got = orjson.loads((await get(ds, f"/{route}?agrupar={agrupar}&funcion={funcion}")).content)
    df = pd.DataFrame(records)
    df["fecha"] = pd.to_datetime(df["fecha"])
    keys = [c for c in df.columns if c != "fecha" and not pd.api.types.is_numeric_dtype(df[c])]
    numeric = [c for c in df.columns if c not in keys and c != "fecha"]
    rule = RESAMPLE[agrupar]
    expected = {}
    for key, part in df.groupby(keys, dropna=False, sort=False) if keys else [((), df)]:
        resampler = part.set_index("fecha")[numeric].resample(rule, label="left", closed="left")
        agg = (
            getattr(resampler, PANDAS[funcion])(min_count=1)
            if funcion == "suma"
            else getattr(resampler, PANDAS[funcion])()
        )
        counts = part.set_index("fecha")[numeric[0]].resample(rule, label="left", closed="left").size()
        key = key if isinstance(key, tuple) else (key,)
        for start, row in agg.iterrows():
            if counts[start] == 0:
                continue  # pandas keeps empty periods; an API answer has no record for them
            expected[(start.date().isoformat(), tuple(str(k) for k in key))] = row.to_dict()
    assert len(got) == len(expected)
    for r in got:
        exp = expected[(r["fecha"], tuple(str(r.get(k, float("nan"))) for k in keys))]
        for column in numeric:
            if pd.isna(exp[column]):
                assert r[column] is None, (r, exp)
            else:
                assert r[column] == pytest.approx(exp[column], rel=1e-9), (r, exp)


@pytest.mark.mirror
@pytest.mark.parametrize("route", ROUTES + ["v1/feriados/2025", "v1/finanzas/tasas/plazoFijo"])
async def test_csv_reads_back_as_the_records(ds, route):
    records = mirror(route)
    r = await get(ds, f"/{route}?formato=csv")
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
    assert r.headers["access-control-allow-origin"] == "*" and r.headers["etag"]
    rows = list(csv.DictReader(io.StringIO(r.content.decode())))
    header = list(records[0])
    assert list(rows[0]) == header
    assert len(rows) == len(records)
    for row, record in zip(rows, records):
        for k in header:
            value = record.get(k)
            expected = "" if value is None else value if isinstance(value, str) else orjson.dumps(value).decode()
            assert row[k] == expected
    # gzip and revalidation as for JSON
    zipped = await ds.client.get(f"/{route}?formato=csv", headers={"Accept-Encoding": "gzip"})
    assert zipped.status_code == 200
    again = await ds.client.get(f"/{route}?formato=csv", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304


@pytest.mark.mirror
@pytest.mark.parametrize(
    "url, param",
    [
        ("/v1/cotizaciones/dolares/blue?desde=2024-13-01", "desde"),
        ("/v1/cotizaciones/dolares/blue?agrupar=siglo", "agrupar"),
        ("/v1/cotizaciones/dolares/blue?formato=xml", "formato"),
        ("/v1/cotizaciones/dolares/blue?funcion=maximo", "funcion"),
        ("/v1/presidentes?desde=2020-01-01", "desde"),  # its records have no fecha
        ("/v1/finanzas/indices/riesgo-pais/ultimo?agrupar=mes", "agrupar"),  # one record, not a list
        ("/v1/finanzas/fci/fondos?formato=csv", "formato"),  # an envelope, not a list
        ("/v1/feriados/2025?agrupar=mes", "agrupar"),  # no numeric measure: nothing to group
        ("/v1/feriados/2025?agrupar=anio&funcion=suma", "agrupar"),
    ],
)
async def test_bad_parameters_are_a_json_400(ds, url, param):
    r = await get(ds, url, 400)
    assert r.headers["content-type"] == JSON_TYPE
    body = r.json()
    assert body["status"] == 400 and body["parametro"] == param


@pytest.mark.mirror
async def test_answers_with_parameters_are_cached_apart(ds):
    a = await get(ds, "/v1/finanzas/indices/inflacion?desde=2024-01-01")
    b = await get(ds, "/v1/finanzas/indices/inflacion?desde=2024-01-01&otro=1")
    c = await get(ds, "/v1/finanzas/indices/inflacion")
    assert a.headers["etag"] == b.headers["etag"] != c.headers["etag"]
    assert len(a.json()) < len(c.json())


def test_the_openapi_document_declares_the_parameters_where_they_apply():
    from argentina_datos.documentacion.openapi import build_document
    from argentina_datos.respuestas.rutas import Router

    paths = build_document(Router())["paths"]

    def query(path):
        return {p["name"] for p in paths[path]["get"]["parameters"] if p["in"] == "query"}

    assert query("/v1/cotizaciones/dolares/{casa}") == {
        "desde",
        "hasta",
        "agrupacion",
        "variacion",
        "ajuste",
        "fecha",
        "formato",
        "decimal",
    }
    # agrupacion and variacion where there are measures, ajuste (ajustar, base) where some are amounts of pesos
    assert query("/v1/finanzas/indices/riesgo-pais") == {
        "desde",
        "hasta",
        "agrupacion",
        "variacion",
        "fecha",
        "formato",
        "decimal",
    }
    # nothing to group in a list of holidays, which is also a calendar
    assert query("/v1/feriados/{año}") == {"desde", "hasta", "fecha", "formato", "decimal"}
    formato = next(p for p in paths["/v1/feriados/{año}"]["get"]["parameters"] if p["name"] == "formato")
    assert formato["schema"]["enum"] == ["json", "csv", "xlsx", "ics"]
    ajuste = next(p for p in paths["/v1/finanzas/indices/uva"]["get"]["parameters"] if p["name"] == "ajuste")
    with_base, without = ajuste["schema"]["oneOf"]  # base only with ajustar=ipc
    assert with_base["required"] == ["ajustar"] and with_base["properties"]["ajustar"]["enum"] == ["ipc"]
    assert "base" in with_base["properties"] and "base" not in without["properties"]
    assert (
        without["properties"]["ajustar"]["enum"][0] == "uva"
        and "dolar-blue" in without["properties"]["ajustar"]["enum"]
    )
    agrupacion = next(
        p for p in paths["/v1/cotizaciones/dolares/{casa}"]["get"]["parameters"] if p["name"] == "agrupacion"
    )
    assert agrupacion["style"] == "form" and agrupacion["explode"]  # agrupar=mes&funcion=maximo
    assert agrupacion["schema"]["required"] == ["agrupar"]  # funcion alone is not valid
    assert query("/v1/presidentes") == {"formato", "decimal"}  # a list without fecha
    # one record with a date: the record of that date (the last one, for /ultimo), nothing to cut or group
    assert query("/v1/finanzas/indices/riesgo-pais/ultimo") == {"fecha"}
    assert query("/v1/cotizaciones/dolares/{casa}/{fecha}") == {"fecha"}
    assert query("/v1/senado/escala-salarial") == set()  # one record without a date
    assert "text/csv" in paths["/v1/presidentes"]["get"]["responses"]["200"]["content"]


@pytest.mark.parametrize("raw", ["desde=mañana".encode(), b"desde=ma%C3%B1ana"])
def test_a_query_string_is_read_as_utf8_raw_or_percent_encoded(raw):
    with pytest.raises(consulta.BadQuery) as e:
        consulta.parse(raw)
    assert e.value.param == "desde" and "«mañana»" in str(e.value)


def test_bytes_that_are_not_utf8_still_give_a_message():
    with pytest.raises(consulta.BadQuery) as e:
        consulta.parse(b"desde=ma\xf1ana")  # latin-1: not UTF-8
    assert "«ma\ufffdana»" in str(e.value)


@pytest.mark.parametrize("query", ["agrupar=mes", "agrupar=semana&funcion=maximo", "variacion=relativa"])
def test_grouping_or_changes_of_records_without_measures_is_refused_naming_the_route(query):
    holidays = [
        {"fecha": "2025-03-03", "tipo": "inamovible", "nombre": "Carnaval"},
        {"fecha": "2025-03-04", "tipo": "inamovible", "nombre": "Carnaval"},
    ]
    with pytest.raises(consulta.BadQuery) as e:
        consulta.apply(holidays, consulta.parse(query), route="/v1/feriados/2025")
    assert e.value.param == query.split("=")[0]
    assert "/v1/feriados/2025" in str(e.value) and "medidas numéricas" in str(e.value)
    # the same records with a measure are grouped
    measured = [{**h, "valor": i} for i, h in enumerate(holidays)]
    assert consulta.apply(measured, consulta.parse(query))


# ---- the table of query parameters: parsing, the 400s, OpenAPI and the docs read it ---------
def test_api_page_parameter_table_is_current():
    from argentina_datos.documentacion.openapi import PARAMETER_TABLE_MARKERS, ROUTE_TABLE_PAGE, parameters_table

    start, end = PARAMETER_TABLE_MARKERS
    page = (Path(__file__).parent.parent / ROUTE_TABLE_PAGE).read_text()
    assert page.split(start)[1].split(end)[0].strip() == parameters_table().strip(), (
        f"la tabla de parámetros de {ROUTE_TABLE_PAGE} no está al día: regenerarla con "
        "python -m argentina_datos.documentacion.openapi --parametros"
    )


def test_a_new_parameter_is_one_entry_of_the_table(monkeypatch):
    from argentina_datos.documentacion.openapi import build_document, parameters_table
    from argentina_datos.respuestas.rutas import Router

    fake = consulta.QueryParam(
        "cifras",
        "los valores con tantas cifras decimales",
        "2",
        "/v1/finanzas/indices/inflacion?cifras=2",
        "las listas de registros con fecha y medidas numéricas",
        lambda a: a.dated and a.measured,
        choices=("0", "2", "4"),
    )
    table = (*consulta.PARAMETERS[:-2], fake, *consulta.PARAMETERS[-2:])  # before formato and decimal
    monkeypatch.setattr(consulta, "PARAMETERS", table)
    monkeypatch.setattr(consulta, "BY_NAME", {p.name: p for p in table})
    # parsing: its values, a 400 naming it and its value, its place in the cache key
    assert consulta.parse("cifras=2").cifras == "2"
    with pytest.raises(consulta.BadQuery) as e:
        consulta.parse("cifras=3")
    assert e.value.param == "cifras" and "«3»" in str(e.value)
    assert consulta.parse("formato=csv&cifras=4&desde=2024-01-01").key() == "?desde=2024-01-01&cifras=4&formato=csv"
    # a route that does not take it: a 400 naming it and the route
    with pytest.raises(consulta.BadQuery) as e:
        consulta.Answers(listing=True).refuse(consulta.parse("cifras=2"), "/v1/presidentes")
    assert e.value.param == "cifras" and "/v1/presidentes" in str(e.value)
    # OpenAPI: declared exactly where it applies, with its values
    paths = build_document(Router())["paths"]

    def declared(path):
        return {p["name"]: p for p in paths[path]["get"]["parameters"] if p["in"] == "query"}

    assert declared("/v1/finanzas/indices/inflacion")["cifras"]["schema"]["enum"] == ["0", "2", "4"]
    assert "cifras" not in declared("/v1/feriados/{año}") and "cifras" not in declared("/v1/presidentes")
    # the docs' table: one row
    assert "| `cifras` | `0` · `2` · `4` | los valores con tantas cifras decimales |" in parameters_table()


def test_the_cache_key_follows_the_table_and_replaced_keeps_its_order():
    q = consulta.parse("formato=csv&ajustar=ipc&base=2020-01&agrupar=mes&desde=2024-01-01")
    assert [n for n, _ in q.given] == [
        p for p in consulta.BY_NAME if p in {"formato", "ajustar", "base", "agrupar", "desde"}
    ]
    plain = q.replaced(ajustar=None, base=None, formato=None)
    assert plain.key() == "?desde=2024-01-01&agrupar=mes"
    assert plain.replaced(variacion="relativa").variacion == "relativa" and plain.formato == "json"
    with pytest.raises(AttributeError):
        q.desconocido  # noqa: B018


@pytest.mark.mirror
def test_every_route_refuses_exactly_the_parameters_its_openapi_leaves_out(conn):
    """Which routes take a parameter is decided once: what /v1/openapi.json declares is what the server takes."""
    from argentina_datos.documentacion.openapi import build_document
    from argentina_datos.respuestas.responder import Responder
    from argentina_datos.respuestas.rutas import Router

    router = Router()
    responder = Responder(router)
    paths = build_document(router, versioned=sorted(responder.known(conn).templates))["paths"]
    refused = 0
    for endpoint in router.endpoints:
        path = endpoint.path
        for p in endpoint.params:
            path = path.replace("{" + p.name + "}", p.example)
        declared = {q["name"] for q in paths[endpoint.path]["get"]["parameters"] if q["in"] == "query"}
        for p in consulta.PARAMETERS:
            if (p.group or p.name) in declared:
                continue
            needed = f"{p.needs[0]}={p.needs[1] or consulta.BY_NAME[p.needs[0]].example}&" if p.needs else ""
            value = "csv" if p.name == "formato" else p.example
            answer = responder.answer(conn, path, consulta.parse(f"{needed}{p.name}={value}"))
            assert answer.status == 400 and answer.param in (p.name, p.needs and p.needs[0]), (path, p.name, answer)
            refused += 1
    assert refused > 100


def test_a_route_offers_only_the_values_that_mean_something_there():
    rates = consulta.Answers(listing=True, dated=True, measured=True, rates=frozenset({"valor"}))
    for query, param in [("agrupar=mes&funcion=suma", "funcion"), ("variacion=relativa", "variacion")]:
        with pytest.raises(consulta.BadQuery) as e:
            rates.refuse(consulta.parse(query), "/v1/finanzas/indices/inflacion")
        assert e.value.param == param and "/v1/finanzas/indices/inflacion" in str(e.value)
    rates.refuse(consulta.parse("agrupar=mes&funcion=maximo&variacion=interanual"), "/v1/finanzas/indices/inflacion")
    with pytest.raises(consulta.BadQuery, match="feriados") as e:
        consulta.Answers(listing=True).refuse(consulta.parse("formato=ics"), "/v1/presidentes")
    assert e.value.param == "formato"
    consulta.Answers(listing=True, calendar=True).refuse(consulta.parse("formato=ics"), "/v1/feriados")
