"""Per-date routes answer every date their list has: the file upstream published for that date
when there is one, otherwise that date's records of the list, in list order."""

import orjson
import pytest
from ayudas import assert_refused, mirror_file
from paths import UPSTREAM
from test_conformance import answer_difference

pytestmark = pytest.mark.mirror
# The houses upstream publishes a list of (turista is the spec's name of tarjeta).
CASAS_PUBLICADAS = ("oficial", "blue", "bolsa", "contadoconliqui", "cripto", "mayorista", "solidario", "tarjeta")


def by_date(records):
    out = {}
    for r in records:
        out.setdefault(r["fecha"], []).append(r)
    return out


# (list route, per-date route template, one record per date?)
FAMILIES = [
    ("v1/cotizaciones/dolares", "v1/cotizaciones/dolares/{fecha}", False),
    ("v1/cotizaciones", "v1/cotizaciones/{fecha}", False),
    *[(f"v1/cotizaciones/{m}", f"v1/cotizaciones/{m}/{{fecha}}", True) for m in ("usd", "eur", "brl", "clp", "uyu")],
]


@pytest.mark.parametrize("lista, por_fecha, uno", FAMILIES)
def test_every_date_of_the_list_is_answered(v1_response, lista, por_fecha, uno):
    records = mirror_file(lista)
    if records is None:
        pytest.skip(f"the mirror has no {lista}")
    derived = from_file = 0
    failures = []
    for fecha, day in by_date(records).items():
        route = por_fecha.format(fecha=fecha.replace("-", "/"))
        published = mirror_file(route)
        expected = published if published is not None else (day[0] if uno else day)
        if published is None:
            derived += 1
        else:
            from_file += 1
        response = v1_response("/" + route)
        diff = answer_difference("/" + route, response.status, response.body, expected)
        if diff:
            failures.append(diff)
    print(f"{por_fecha}: {derived} dates derived from the list, {from_file} from their own file")
    assert derived + from_file == len(by_date(records))
    assert not failures, "\n".join(failures[:10])


@pytest.mark.parametrize(
    "route, parametro",
    [
        ("/v1/cotizaciones/dolares/1990/01/02", "fecha"),
        ("/v1/cotizaciones/1990/01/02", "fecha"),
        ("/v1/cotizaciones/usd/1990/01/02", "fecha"),
        ("/v1/cotizaciones/dolares/2025/02/30", "fecha"),
        ("/v1/cotizaciones/2025/02/30", "fecha"),
        ("/v1/cotizaciones/usd/2025/13/01", "fecha"),
        ("/v1/cotizaciones/xyz", "moneda"),
        ("/v1/cotizaciones/USD", "moneda"),
        ("/v1/cotizaciones/xyz/2025/01/02", "moneda"),
    ],
)
def test_dates_without_data_and_bad_values(v1, route, parametro):
    assert_refused(v1, route, parametro)


def test_a_legacy_file_that_disagrees_with_the_list_is_the_answer(v1_response):
    """Some 2019 per-date dollar files list fewer houses than the full series for that day."""
    records = mirror_file("v1/cotizaciones/dolares")
    days = by_date(records)
    for fecha, day in days.items():
        route = "v1/cotizaciones/dolares/" + fecha.replace("-", "/")
        published = mirror_file(route)
        if published is not None and published != day:
            assert orjson.loads(v1_response("/" + route).body) == published
            return
    pytest.skip("the mirror has no per-date file that disagrees with its list")


def test_a_house_on_a_date_is_the_all_houses_list_record(v1_response):
    """Upstream publishes no per-house per-date files: its answer is cut from /v1/cotizaciones/dolares, not
    from the house's own list, where the two disagree (oficial, 2024-05-30/31: compra 873/874, not 913/914)
    or where only the all-houses list has the day."""
    records = mirror_file("v1/cotizaciones/dolares")
    houses = {(r["casa"], r["fecha"]) for c in CASAS_PUBLICADAS for r in mirror_file(f"v1/cotizaciones/dolares/{c}")}
    failures, only_in_list = [], 0
    for expected in records:
        only_in_list += (expected["casa"], expected["fecha"]) not in houses
        route = f"/v1/cotizaciones/dolares/{expected['casa']}/{expected['fecha'].replace('-', '/')}"
        response = v1_response(route)
        diff = answer_difference(route, response.status, response.body, expected)
        if diff:
            failures.append(diff)
    assert not failures, f"{len(failures)} of {len(records)}:\n" + "\n".join(failures[:10])
    assert only_in_list > 0  # the mirror has days only the all-houses list has: they are answered too
    for fecha, compra in (("2024/05/30", 873), ("2024/05/31", 874)):
        assert orjson.loads(v1_response(f"/v1/cotizaciones/dolares/oficial/{fecha}").body)["compra"] == compra
    turista = v1_response("/v1/cotizaciones/dolares/turista/2024/05/31")
    assert turista.body == v1_response("/v1/cotizaciones/dolares/tarjeta/2024/05/31").body


def test_the_house_lists_still_disagree_in_calidad(conn):
    """The all-houses list answers the per-date routes; the finding about the two lists stays."""
    found = conn.execute(
        "SELECT fecha, ruta FROM calidad WHERE tabla = 'cotizaciones_dolares_casa' AND control = 'rutas en desacuerdo'"
    ).fetchall()
    assert ("2024-05-30", "/v1/cotizaciones/dolares/oficial") in found
    assert ("2024-05-31", "/v1/cotizaciones/dolares/oficial") in found


async def get(ds, url: str):
    r = await ds.client.get(url)
    return r.status_code, r.json()


async def test_publicado_answers_a_cut_as_its_list_was_published_that_day(ds, conn):
    """/ultimo has no versions of its own: as published on a day it is the last record of the list's version of
    that day (from the versions store), not today's."""
    from argentina_datos.almacen import versiones

    route = "/v1/finanzas/indices/riesgo-pais"
    version = versiones.version_on(conn, route, "2024-12-31")
    assert version is not None
    then = orjson.loads(versiones.document(conn, route, version))
    status, body = await get(ds, route + "/ultimo?publicado=2024-12-31")
    assert status == 200 and body == then[-1] and body["fecha"] <= "2024-12-31"
    assert (await get(ds, route + "/ultimo"))[1] == mirror_file(route + "/ultimo") != body  # today's is another day's
    status, body = await get(ds, route + "/ultimo?publicado=2000-01-01")
    assert (status, body["parametro"]) == (404, "publicado")


async def test_fecha_answers_the_records_of_a_day_month_or_year_and_publicado_is_refused_without_versions(ds):
    route = "/v1/finanzas/indices/riesgo-pais"
    records = mirror_file(route)
    for fecha, prefix in (
        ("2024-12-31", "2024-12-31"),
        ("2024/12/31", "2024-12-31"),
        ("2024-12", "2024-12"),
        ("2024", "2024"),
    ):
        status, body = await get(ds, f"{route}?fecha={fecha}")
        assert status == 200 and body == [r for r in records if r["fecha"].startswith(prefix)] != [], fecha
    status, body = await get(ds, "/v1/feriados/2025?publicado=2024-12-31")
    assert (status, body["parametro"]) == (400, "publicado")
    # a value without versions of a route that has them for others (the blue's, not the turista's): a 404
    assert (await get(ds, "/v1/cotizaciones/dolares/blue?publicado=2024-12-31"))[0] == 200
    status, body = await get(ds, "/v1/cotizaciones/dolares/turista?publicado=2024-12-31")
    assert (status, body["parametro"]) == (404, "publicado")


def test_a_day_without_a_file_reads_only_the_files_of_that_day(v1, monkeypatch):
    """A listing of a category on a day upstream has no file for is a 404 found from the files' paths: the
    fund listings' other files are not read (indexing all of them took 6 s and 900 MB for one such request)."""
    from argentina_datos.almacen import publicados

    read = []
    original = publicados.body
    monkeypatch.setattr(publicados, "body", lambda conn, ruta: read.append(ruta) or original(conn, ruta))
    assert mirror_file("/v1/finanzas/fci/mercadoDinero/2025/01/04") is None  # a Saturday: no file
    status, _ = v1("/v1/finanzas/fci/mercadoDinero/2025/01/04")
    assert status == 404
    assert not [r for r in read if r.startswith("/v1/finanzas/fci/") and not r.endswith("/2025/01/04")]


async def get_bytes(ds, url: str):
    r = await ds.client.get(url)
    return r.status_code, r.content


def periods_of(records):
    """A day, the same day as the paths write it, its month and its year, of a record in the middle of the list
    (so some records fall outside each), as fecha takes them."""
    day = sorted(r["fecha"] for r in records)[len(records) // 2]
    return [(day, day), (day.replace("-", "/"), day), (day[:7], day[:7]), (day[:4], day[:4])]


@pytest.mark.parametrize("route", ["/v1/finanzas/indices/riesgo-pais", "/v1/politica/indices/confianza-gobierno"])
async def test_fecha_on_ultimo_is_the_last_record_of_the_list_within_that_date(ds, route):
    """/ultimo?fecha=P answers what /ultimo answers over the list's records of P: its last one, as published
    (the same keys in the same order), one object as /ultimo is."""
    records = mirror_file(route)
    for fecha, prefix in periods_of(records):
        status, body = await get(ds, f"{route}/ultimo?fecha={fecha}")
        expected = [r for r in records if r["fecha"].startswith(prefix)][-1]
        assert status == 200 and list(body.items()) == list(expected.items()), fecha
    days = sorted(r["fecha"] for r in records)
    before = str(int(days[0][:4]) - 1)
    status, body = await get(ds, f"{route}/ultimo?fecha={before}")
    assert (status, body["parametro"]) == (404, "fecha")
    assert days[0] in body["mensaje"] and days[-1] in body["mensaje"]  # the range the data covers


async def test_fecha_on_ultimo_with_publicado_is_the_last_record_of_that_date_as_published_then(ds, conn):
    """The vintage and the date combine: the last record of that date in the list's version of that day, where
    upstream revised it since (riesgo país was revised «desde el inicio» on 2025-01-01)."""
    from argentina_datos.almacen import versiones

    route = "/v1/finanzas/indices/riesgo-pais"
    then = orjson.loads(versiones.document(conn, route, versiones.version_on(conn, route, "2024-12-31")))
    today = {r["fecha"]: r for r in mirror_file(route)}
    revised = [r for r in then if r["fecha"] in today and today[r["fecha"]] != r]
    assert revised, "the mirror's riesgo país has no revised value"
    month = revised[0]["fecha"][:7]
    for fecha, expected, now in (
        (revised[0]["fecha"], revised[0], today[revised[0]["fecha"]]),
        (month, [r for r in then if r["fecha"].startswith(month)][-1], None),
    ):
        status, body = await get(ds, f"{route}/ultimo?publicado=2024-12-31&fecha={fecha}")
        assert status == 200 and list(body.items()) == list(expected.items()), fecha
        if now is not None:
            assert (await get(ds, f"{route}/ultimo?fecha={fecha}"))[1] == now != body
    status, body = await get(ds, f"{route}/ultimo?publicado=2000-01-01&fecha={month}")
    assert (status, body["parametro"]) == (404, "publicado")


def listings_by_day(category: str) -> dict:
    """The mirror's listings of an FCI category by day: AAAA-MM-DD -> its file's bytes."""
    root = UPSTREAM / "v1/finanzas/fci" / category
    return {
        "-".join(f.parent.relative_to(root).parts): f.read_bytes()
        for f in root.glob("[0-9][0-9][0-9][0-9]/[0-9][0-9]/[0-9][0-9]/index.json")
    }


async def test_fecha_on_a_listing_ultimo_is_the_listing_of_the_last_day_within_it_as_published(ds):
    """A category's ultimo (penultimo) with fecha is the last listing with records within that date (the one before
    it), byte for byte the mirror's file of that day: never a weekend's empty listing, as upstream's ultimo never is;
    a date that reaches the newest listing answers the route's own file."""
    days = listings_by_day("rentaFija")
    full = sorted(d for d, body in days.items() if orjson.loads(body))
    months = sorted({d[:7] for d in days})
    # a month whose last listing is empty (a weekend's or a holiday's []), where «the last file» would be wrong
    weekend = next(m for m in months[:-1] if not orjson.loads(days[max(d for d in days if d.startswith(m))]))
    month = months[len(months) // 2]
    first_of_month = next(d for d in full if d.startswith(month))
    for listado, fecha, expected in (
        ("ultimo", month, [d for d in full if d.startswith(month)][-1]),
        ("penultimo", month, [d for d in full if d.startswith(month)][-2]),
        ("ultimo", weekend, [d for d in full if d.startswith(weekend)][-1]),
        ("penultimo", weekend, [d for d in full if d.startswith(weekend)][-2]),
        ("ultimo", month[:4], [d for d in full if d.startswith(month[:4])][-1]),
        ("ultimo", first_of_month.replace("-", "/"), first_of_month),
        ("penultimo", first_of_month, full[full.index(first_of_month) - 1]),  # the listing before that day's
    ):
        status, body = await get_bytes(ds, f"/v1/finanzas/fci/rentaFija/{listado}?fecha={fecha}")
        assert status == 200 and body == days[expected], (listado, fecha, expected)
    for listado in ("ultimo", "penultimo"):  # as of the newest listing: the route's own file, as published
        status, body = await get_bytes(ds, f"/v1/finanzas/fci/rentaFija/{listado}?fecha={full[-1][:4]}")
        own = (UPSTREAM / "v1/finanzas/fci/rentaFija" / listado / "index.json").read_bytes()
        assert status == 200 and body == own, listado


async def test_fecha_on_the_rem_ultimo_is_the_last_report_within_it(ds):
    root = UPSTREAM / "v1/rems"
    reports = {
        "-".join(f.parent.relative_to(root).parts): f.read_bytes() for f in root.glob("[0-9]*/[0-9]*/index.json")
    }
    own = (root / "ultimo" / "index.json").read_bytes()
    newest = max(r["fecha"] for r in orjson.loads(own))[:7]  # upstream's ultimo: its newest report's month
    status, body = await get_bytes(ds, f"/v1/rems/ultimo?fecha={newest[:4]}")
    assert status == 200 and body == own  # a period that reaches it: the ultimo file itself
    last = max(m for m in reports if m != newest)
    status, body = await get_bytes(ds, f"/v1/rems/ultimo?fecha={last}-15")  # a day: its month's report
    assert status == 200 and body == reports[last]


async def test_fecha_on_a_record_of_one_day_is_that_record_within_its_date_and_refused_without_dates(ds):
    route = "/v1/cotizaciones/dolares/blue/2025/01/02"
    plain = await get_bytes(ds, route)
    assert plain[0] == 200
    for fecha in ("2025-01-02", "2025/01/02", "2025-01", "2025"):
        assert await get_bytes(ds, f"{route}?fecha={fecha}") == plain, fecha
    status, body = await get(ds, f"{route}?fecha=2024")
    assert (status, body["parametro"]) == (404, "fecha") and "2025-01-02" in body["mensaje"]
    for undated in ("/v1/senado/escala-salarial", "/v1/finanzas/fci/fondos", "/v1/senado/senadores/580/viajes"):
        status, body = await get(ds, f"{undated}?fecha=2024")
        assert (status, body["parametro"]) == (400, "fecha"), undated


async def test_a_query_parameter_that_repeats_the_path_is_the_paths(ds):
    """A generated SDK sends the path's parameters again in the query: the path's own value is the path's, not a
    filter (?fecha=ultimo on a listing ultimo answers as upstream, 200 with the file); another value still cuts."""
    for route, query in [
        ("/v1/finanzas/fci/mercadoDinero/ultimo", "fecha=ultimo"),
        ("/v1/cotizaciones/dolares/blue/2024/03/15", "casa=blue&fecha=2024%2F03%2F15"),
    ]:
        plain = await get_bytes(ds, route)
        assert plain[0] == 200, route
        assert await get_bytes(ds, f"{route}?{query}") == plain, query
    status, body = await get(ds, "/v1/finanzas/fci/mercadoDinero/ultimo?fecha=penultimo")
    assert (status, body["parametro"]) == (400, "fecha")
    status, body = await get(ds, "/v1/cotizaciones/dolares/blue/2024/03/15?fecha=2024-04")
    assert (status, body["parametro"]) == (404, "fecha")
