"""The newer finance routes (/v1/finanzas/rendimientos, fci/otros, fci/variables, fci/comparatasas,
bonos-cer, letras, the REM under /v1/finanzas/rem) and /v1/estado: catalogue datasets answer exactly the
mirror's files, in their key order; per-entity and per-month routes answer every value their list has
(the published file, else the list's rows), 404 for malformed values and for values without data
(upstream has no file for either); every table and column is described, and each rate's unit (fraction or percent) agrees with the data."""

import re
import sqlite3

import pytest
from ayudas import answer, assert_catalogue_routes, assert_refused, build_tables, mirror_file, write_file
from paths import UPSTREAM
from test_conformance import strictly_equal

from argentina_datos.almacen.tablas import Layout
from argentina_datos.catalogo import BY_TABLE, billeteras, bonos, estado
from argentina_datos.catalogo.campos import FRACCION, PORCENTAJE
from argentina_datos.catalogo.slug import slugify
from argentina_datos.construccion.constructor import Builder
from argentina_datos.construccion.fuentes import DirectorySource
from argentina_datos.web.v1.api import V1

NUEVAS = ["finanzas_rem", "finanzas_rem_informes"]
DATASETS = [*billeteras.DATASETS, *bonos.DATASETS, *estado.DATASETS, *[BY_TABLE[t] for t in NUEVAS]]
TABLES = [d.table for d in DATASETS]
FAMILIES = [
    "finanzas/rendimientos",
    "finanzas/fci/otros",
    "finanzas/fci/variables",
    "finanzas/fci/comparatasas",
    "finanzas/bonos-cer",
    "finanzas/letras",
    "finanzas/rem",
    "estado",
]
LISTADOS = ("ultimo", "penultimo")


def key_order_diff(a, b, where="") -> str:
    """'' when every object has its keys in the same order (strictly_equal compares them as sets)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return f"{where}: {list(a)} != {list(b)}"
        return next((d for k in a if (d := key_order_diff(a[k], b.get(k), f"{where}.{k}"))), "")
    if isinstance(a, list) and isinstance(b, list):
        return next((d for i, (x, y) in enumerate(zip(a, b)) if (d := key_order_diff(x, y, f"{where}[{i}]"))), "")
    return ""


def exactly(expected, body, route: str) -> str:
    return strictly_equal(expected, body, route) or key_order_diff(expected, body, route)


# ---- every mirror file of the families, exactly and from the catalogue ------------------------
def mirror_routes() -> list[str]:
    return sorted(
        "/" + str(p.parent.relative_to(UPSTREAM))
        for family in FAMILIES
        for p in (UPSTREAM / "v1" / family).glob("**/index.json")
    )


@pytest.mark.mirror
def test_the_mirror_has_every_family():
    routes = mirror_routes()
    for family in FAMILIES:
        assert f"/v1/{family}" in routes or any(r.startswith(f"/v1/{family}/") for r in routes), family


def test_the_families_are_catalogue_routes_not_documents(conn):
    assert_catalogue_routes(conn, mirror_routes(), TABLES, [f"v1/{f}" for f in FAMILIES])


@pytest.mark.parametrize("route", mirror_routes())
def test_each_file_is_answered_exactly_in_its_key_order(v1, route):
    status, body = v1(route)
    assert status == 200, body
    assert exactly(mirror_file(route.lstrip("/")), body, route) == ""


# ---- rendimientos: every platform of the list ----------------------------------------------
def platforms() -> list[dict]:
    return mirror_file("v1/finanzas/rendimientos") or []


def test_every_platform_of_the_list_is_answered(v1):
    from_file = derived = 0
    failures = []
    for platform in platforms():
        route = f"v1/finanzas/rendimientos/{platform['entidad']}"
        published = mirror_file(route)
        expected = published if published is not None else platform["rendimientos"]
        from_file, derived = from_file + (published is not None), derived + (published is None)
        status, body = v1("/" + route)
        if status != 200:
            failures.append(f"/{route}: HTTP {status} {body}")
        elif diff := exactly(expected, body, "/" + route):
            failures.append(diff)
    print(f"rendimientos: {from_file} platforms from their file, {derived} derived from the list")
    assert platforms() and from_file + derived == len(platforms())
    assert not failures, "\n".join(failures)


@pytest.mark.mirror
def test_each_platform_file_is_its_rows_of_the_list():
    """What the derivation relies on: a platform's file is its list of the whole listing, at most without
    keys the listing adds (fiwind's bonusValue and bonusThreshold)."""
    for platform in platforms():
        published = mirror_file(f"v1/finanzas/rendimientos/{platform['entidad']}")
        if published is None:
            continue
        assert len(published) == len(platform["rendimientos"]), platform["entidad"]
        for own, listed in zip(published, platform["rendimientos"]):
            assert own == {k: v for k, v in listed.items() if k in own}, platform["entidad"]


@pytest.fixture(scope="module")
def only_the_list(tmp_path_factory):
    """A build of the list alone: every platform route is then answered from the list's rows."""
    out = tmp_path_factory.mktemp("rendimientos") / "lista.db"
    report = Builder(DirectorySource(UPSTREAM), out, datasets=[BY_TABLE["rendimientos"]]).run()
    assert not report.skipped and not report.skipped_files
    conn = sqlite3.connect(out)
    yield conn
    conn.close()


@pytest.mark.mirror
def test_the_derivation_gives_every_platform_its_rows_of_the_list(only_the_list):
    api = V1()
    for platform in platforms():
        route = f"/v1/finanzas/rendimientos/{platform['entidad']}"
        status, body = answer(api, only_the_list, route)
        assert status == 200, (route, body)
        assert exactly(platform["rendimientos"], body, route) == ""
    status, body = answer(api, only_the_list, f"/v1/finanzas/rendimientos/{absent_slug(platforms(), 'entidad')}")
    assert (status, body["parametro"]) == (404, "entidad")


# ---- fci/otros and fci/variables: the listings and the histories ---------------------------
# (route, the field naming the fund in its listings, the key order of the history's records)
WALLET_FAMILIES = [("v1/finanzas/fci/otros", "fondo"), ("v1/finanzas/fci/variables", "nombre")]


@pytest.mark.parametrize("base, name_key", WALLET_FAMILIES)
def test_every_fund_of_the_listings_answers_its_history(v1, base, name_key):
    """Each fund of ultimo / penultimo answers its own history, whose last two records are the listings'."""
    for position, listado in ((-1, "ultimo"), (-2, "penultimo")):
        listing = mirror_file(f"{base}/{listado}")
        assert listing, f"the mirror has no {base}/{listado}"
        for record in listing:
            route = f"/{base}/{slugify(record[name_key])}"
            status, history = v1(route)
            assert status == 200, (route, history)
            assert exactly(mirror_file(route.lstrip("/")), history, route) == ""
            own = {k: v for k, v in record.items() if k in history[position]}
            assert history[position] == own, (route, listado)


@pytest.mark.mirror
@pytest.mark.parametrize("base, name_key", WALLET_FAMILIES)
def test_http_enumeration_finds_every_file(base, name_key):
    """Over HTTP the fund files are found from the listings (plus the ones upstream no longer lists)."""
    param = next(p for d in billeteras.DATASETS for p in d.partitions if d.sources[0].route == base + "/{entidad}")
    source = type("SourceFile", (), {"get_json": staticmethod(lambda route: mirror_file(route))})()
    files = {p.parent.name for p in (UPSTREAM / base).glob("*/index.json")} - set(LISTADOS)
    assert files and set(param.http_values(source)) == files


def test_variable_listings_keep_their_own_key_order(v1):
    """ultimo / penultimo of fci/variables are global66's last two records with «tipo» before «tna»."""
    history = mirror_file("v1/finanzas/fci/variables/global66")
    for position, listado in ((-1, "ultimo"), (-2, "penultimo")):
        published = mirror_file(f"v1/finanzas/fci/variables/{listado}")
        _, body = v1(f"/v1/finanzas/fci/variables/{listado}")
        assert body == published == [history[position]]
        assert list(body[0]) == list(published[0]) != list(history[position])


# ---- the REM under /v1/finanzas/rem: every month of its index ------------------------------------
def rem_months() -> list[str]:
    """The AAAA/MM months the index lists."""
    return [
        m.group(1)
        for s in mirror_file("v1/finanzas/rem") or []
        if (m := re.fullmatch(r"/finanzas/rem/(\d{4}/\d{2})", s))
    ]


def test_every_month_of_the_index_is_a_file_the_ultimo_rows_or_404(v1):
    ultimo = mirror_file("v1/finanzas/rem/ultimo")
    informe_ultimo = {r["informe"] for r in ultimo}
    counts = {"archivo": 0, "ultimo": 0, "404": 0}
    for month in rem_months():
        route = f"v1/finanzas/rem/{month}"
        status, body = v1("/" + route)
        published = mirror_file(route)
        if published is not None:
            counts["archivo"] += 1
            assert status == 200 and exactly(published, body, route) == ""
        elif informe_ultimo == {month.replace("/", "-")}:
            counts["ultimo"] += 1
            assert status == 200 and exactly(ultimo, body, route) == ""
        else:
            counts["404"] += 1
            assert (status, body["parametro"]) == (404, "mes"), (route, body)
    print(f"/v1/finanzas/rem months: {counts}")
    assert sum(counts.values()) == len(rem_months()) > 0
    # The mirror as published: ultimo holds an older report than the newest month with a file.
    assert counts["archivo"] >= 1 and counts["ultimo"] >= 1


def test_ultimo_is_kept_as_published_not_the_newest_month(v1):
    newest = max(
        p.parent.relative_to(UPSTREAM / "v1/finanzas/rem").as_posix()
        for p in (UPSTREAM / "v1/finanzas/rem").glob("[0-9]*/[0-9]*/index.json")
    )
    _, ultimo = v1("/v1/finanzas/rem/ultimo")
    _, newest_body = v1(f"/v1/finanzas/rem/{newest}")
    assert ultimo == mirror_file("v1/finanzas/rem/ultimo") != newest_body


# ---- 404: malformed, out of bounds, without data ---------------------------------------------
def absent_slug(records, key) -> str:
    taken = {slugify(r[key]) for r in records}
    return next(s for s in ("no-existe", "no-existe-2") if s not in taken)


def wallet_files(base: str) -> list[dict]:
    return [{"n": p.parent.name} for p in (UPSTREAM / base).glob("*/index.json")]


def first_year_without_rem() -> int:
    return min(int(m[:4]) for m in rem_months()) - 1


# Malformed, or well formed and without a file: each family's entity a 404 naming «entidad».
BAD_ENTITIES = {
    "rendimientos": ["Belo", "a_b", "{sin_rendimientos}"],
    "fci/otros": ["Belo", "a--b", "{sin_otros}"],
    "fci/variables": ["GLOBAL66", "{sin_variables}"],
}


@pytest.mark.parametrize(
    "route, parametro",
    [
        ("/v1/finanzas/rem/2026/13", "mes"),
        ("/v1/finanzas/rem/2015/01", "año"),
        ("/v1/finanzas/rem/26/01", "año"),
        ("/v1/finanzas/rem/{sin_rem}/01", "mes"),
        *((f"/v1/finanzas/{family}/{value}", "entidad") for family, values in BAD_ENTITIES.items() for value in values),
    ],
)
def test_malformed_values_and_values_without_data(v1, route, parametro):
    without_data = dict(
        sin_rendimientos=absent_slug(platforms(), "entidad"),
        sin_otros=absent_slug(wallet_files("v1/finanzas/fci/otros"), "n"),
        sin_variables=absent_slug(wallet_files("v1/finanzas/fci/variables"), "n"),
        sin_rem=first_year_without_rem(),
    )
    assert_refused(v1, route.format(**without_data), parametro)


# ---- described for researchers ----------------------------------------------------------------
RATE = re.compile(
    r"^(tna|tea|apy|bonusValue|\w+Porcentaje|porcentaje|ultimos7Dias|unMes|noventaDias|"
    r"cientoOchentaDias|enElAnio|doceMeses|honorario\w+|comision\w+|gastos\w+|otros)$"
)


def rate_columns():
    for d in DATASETS:
        layout = Layout(d)
        yield d.table, layout.codec.columns
        for child in layout.all_children():
            yield child.table, child.codec.columns


def test_every_rate_says_fraction_or_percent():
    rates = [
        (table, name, f.unit)
        for table, columns in rate_columns()
        for name, f in columns
        if RATE.match(name.split("_")[-1])
    ]
    assert len(rates) > 20
    assert all(unit in (FRACCION, PORCENTAJE) for _, _, unit in rates), [
        r for r in rates if r[2] not in (FRACCION, PORCENTAJE)
    ]


# A day's price variation, custody fees and the fees that are mostly 0 stay below 1 % in percent too.
SMALL_BY_NATURE = re.compile(r"variacion|honorarioDepositaria|comision|gastos|otros")


def test_each_rate_unit_agrees_with_the_data(conn):
    """A fraction stays below 1.5 (150 %); a percent column has values above 1 (else it would be a fraction)."""
    checked = 0
    for table, columns in rate_columns():
        for name, f in columns:
            if f.unit not in (FRACCION, PORCENTAJE):
                continue
            values = [v for (v,) in conn.execute(f'SELECT "{name}" FROM "{table}" WHERE "{name}" IS NOT NULL')]
            if not values:
                continue
            checked += 1
            if f.unit == FRACCION:
                assert max(abs(v) for v in values) < 1.5, (table, name)
            elif not SMALL_BY_NATURE.match(name.split("_")[-1]):
                assert max(abs(v) for v in values) > 1, (table, name)
    assert checked > 10


# ---- the mechanisms, on hand-written fixtures (no mirror) ---------------------------------


def test_a_platform_is_its_file_else_its_nested_list(tmp_path):
    uno = {"moneda": "ARS", "apy": 30, "fecha": "2026-01-02", "bonusValue": 35, "bonusThreshold": None}
    lista = [
        {"entidad": "a", "rendimientos": [uno]},
        {"entidad": "b", "rendimientos": [{**uno, "moneda": "USD", "apy": 2.5}]},
        {"entidad": "c", "rendimientos": []},
        {"entidad": "d"},
    ]  # an odd record, kept as it came: it has no list to cut
    write_file(tmp_path / "src", "v1/finanzas/rendimientos", lista)
    write_file(tmp_path / "src", "v1/finanzas/rendimientos/a", [{"moneda": "ARS", "apy": 30, "fecha": "2026-01-02"}])
    conn = build_tables(tmp_path / "src", tmp_path / "a.db", ["rendimientos", "rendimientos_entidad"])
    api = V1()
    assert answer(api, conn, "/v1/finanzas/rendimientos") == (200, lista)
    assert answer(api, conn, "/v1/finanzas/rendimientos/a") == (
        200,
        [{"moneda": "ARS", "apy": 30, "fecha": "2026-01-02"}],
    )
    status, body = answer(api, conn, "/v1/finanzas/rendimientos/b")
    assert status == 200 and body == lista[1]["rendimientos"] and list(body[0]) == list(uno)
    assert answer(api, conn, "/v1/finanzas/rendimientos/c") == (200, [])
    assert answer(api, conn, "/v1/finanzas/rendimientos/d")[0] == 404
    assert answer(api, conn, "/v1/finanzas/rendimientos/e")[0] == 404


REM = {
    "informe": "2026-08",
    "fecha": "2026-08-01",
    "muestra": "todos",
    "indicador": "IPC",
    "periodo": "ago-26",
    "periodoTipo": "mensual",
    "periodoDesde": "2026-08-01",
    "periodoHasta": "2026-08-31",
    "referencia": "",
    "referenciaFecha": "",
    "unidad": "var. % mensual",
    "mediana": 2,
    "promedio": 2.1,
    "desvio": 0.3,
    "maximo": 3,
    "minimo": 1.5,
    "percentil90": 2.5,
    "percentil75": 2.2,
    "percentil25": 1.9,
    "percentil10": 1.7,
    "participantes": 40,
    "publicacionUrl": "u",
    "xlsxUrl": "x",
}


def test_a_rem_month_is_its_file_else_ultimo_when_it_is_that_report(tmp_path):
    src = tmp_path / "src"
    write_file(
        src,
        "v1/finanzas/rem",
        ["/finanzas/rem/ultimo", "/finanzas/rem/2026/09", "/finanzas/rem/2026/08", "/finanzas/rem/2026/07"],
    )
    write_file(src, "v1/finanzas/rem/ultimo", [REM, {**REM, "muestra": "top 10"}])
    septiembre = [{**REM, "informe": "2026-09", "fecha": "2026-09-01", "fuente": "BCRA REM"}]
    write_file(src, "v1/finanzas/rem/2026/09", septiembre)
    conn = build_tables(src, tmp_path / "a.db", ["finanzas_rem", "finanzas_rem_informes"])
    api = V1()
    assert answer(api, conn, "/v1/finanzas/rem/2026/08") == (200, [REM, {**REM, "muestra": "top 10"}])
    assert answer(api, conn, "/v1/finanzas/rem/2026/09") == (200, septiembre)
    assert answer(api, conn, "/v1/finanzas/rem/ultimo")[1][0]["informe"] == "2026-08"
    status, body = answer(api, conn, "/v1/finanzas/rem/2026/07")
    assert (status, body["parametro"]) == (404, "mes")
    # a published month wins over ultimo, even when ultimo is that report
    write_file(src, "v1/finanzas/rem/2026/08", [REM])
    conn = build_tables(src, tmp_path / "b.db", ["finanzas_rem"])
    assert answer(api, conn, "/v1/finanzas/rem/2026/08") == (200, [REM])
