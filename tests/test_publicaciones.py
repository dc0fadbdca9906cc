"""Every number with its publication history (issue 54): each observation's first published value and every value it
had (``publicado=primera`` / ``todas`` on /v1/series/datos and the lists with versions), the days a series was published, its rhythm and the
next figure expected (/v1/series/publicaciones, /v1/series/calendario), and the late publications in ``calidad``.

The unit tests store a few versions of their own with construccion/historia.py; the others read the test database
and check it against upstream's git history (the bundle), read here with git itself."""

from __future__ import annotations

import csv
import datetime as dt
import io
import sqlite3
import subprocess
from functools import cache

import orjson
import pytest
import sqlite_utils
from paths import BUNDLE, HISTORY

from argentina_datos.almacen import versiones
from argentina_datos.construccion.historia import BUNDLE as FROM_BUNDLE, Candidate, History

ROUTE = "/v1/x"


def stored(versions: list[tuple[str, list]]) -> sqlite3.Connection:
    """A database with ``versions`` (publication time, records) of ROUTE, stored as a build stores them."""
    db = sqlite3.connect(":memory:")
    history = History(db, dt.date(2024, 12, 31))
    history.create(sqlite_utils.Database(db))
    for published, records in versions:
        body = orjson.dumps(records)
        history.add(Candidate(ROUTE.lstrip("/"), published, FROM_BUNDLE, body=body), body)
    history.write()
    return db


# A value corrected the day it appeared (1), another field changing under an unchanged value (otro), a new
# observation that is later removed, and a revision.
VERSIONS = [
    ("2024-01-01T10:00:00Z", [{"fecha": "2023-12-31", "valor": 1, "otro": "a"}]),
    ("2024-01-01T20:00:00Z", [{"fecha": "2023-12-31", "valor": 2, "otro": "a"}]),
    ("2024-01-03T10:00:00Z", [{"fecha": "2023-12-31", "valor": 2, "otro": "b"}, {"fecha": "2024-01-02", "valor": 5}]),
    ("2024-01-05T10:00:00Z", [{"fecha": "2023-12-31", "valor": 3, "otro": "b"}]),
]


def test_each_value_with_the_days_it_was_in_force_at_the_end_of_a_day():
    db = stored(VERSIONS)
    assert versiones.value_periods(db, ROUTE, "valor", {}) == [
        ("2023-12-31", 2, "2024-01-01", "2024-01-05", True),  # 1 was replaced the day it appeared: never in force
        ("2023-12-31", 3, "2024-01-05", None, False),
        ("2024-01-02", 5, "2024-01-03", "2024-01-05", True),  # removed on the 5th
    ]
    assert versiones.value_periods(db, ROUTE, "valor", {}, "2024-01-01", "2024-01-31") == [
        ("2024-01-02", 5, "2024-01-03", "2024-01-05", True)
    ]


def test_the_days_a_series_changed():
    db = stored(VERSIONS)
    days = versiones.releases(db, ROUTE, "valor", {})
    assert [(r.day, r.added, r.revised, r.removed, r.newest, r.first_new, r.new) for r in days] == [
        ("2024-01-01", 1, 0, 0, "2023-12-31", "2023-12-31", 1),
        ("2024-01-03", 1, 0, 0, "2024-01-02", "2024-01-02", 1),
        ("2024-01-05", 0, 1, 1, None, None, 0),
    ]
    # of the whole records, «otro» changing on the 3rd is a revision too
    whole = versiones.releases(db, ROUTE)
    assert [(r.day, r.added, r.revised) for r in whole][1] == ("2024-01-03", 1, 1)


def test_the_rhythm_of_a_monthly_and_a_daily_route():
    from argentina_datos.respuestas import publicaciones

    # the first version stored holds the past; then a month each time, 12, 14 and 13 days after it ends
    monthly = [
        versiones.Release("2025-01-05", 300, 0, 0, "2024-11-30", "2000-01-31", 300),
        versiones.Release("2025-01-12", 1, 0, 0, "2024-12-31", "2024-12-31", 1),
        versiones.Release("2025-02-14", 1, 0, 0, "2025-01-31", "2025-01-31", 1),
        versiones.Release("2025-03-13", 1, 0, 0, "2025-02-28", "2025-02-28", 1),
        versiones.Release("2025-03-20", 0, 1, 0, None, None, 0),  # a revision: no new month
    ]
    rhythm = publicaciones.rhythm_of(monthly, "2025-01-05", "mensual")
    assert rhythm is not None
    assert (rhythm.lag, rhythm.lag_min, rhythm.lag_max, rhythm.count) == (13, 12, 14, 3)
    assert (rhythm.last, rhythm.last_period) == ("2025-03-20", "2025-02-28")
    assert (rhythm.next_period, rhythm.next_expected) == ("2025-03-31", "2025-04-13")
    assert "estimación" in rhythm.as_json()["estimacion"]
    # a daily route publishing each day's value the day before (the UVA)
    daily = [
        versiones.Release(f"2025-01-{d:02d}", 1, 0, 0, f"2025-01-{d + 1:02d}", f"2025-01-{d + 1:02d}", 1)
        for d in range(1, 11)
    ]
    rhythm = publicaciones.rhythm_of(daily, None, "diaria")
    assert rhythm is not None and (rhythm.lag, rhythm.interval) == (-1, 1)
    assert (rhythm.next_period, rhythm.next_expected) == ("2025-01-12", "2025-01-11")
    assert publicaciones.rhythm_of(monthly[:1], "2025-01-05", "mensual") is None
    assert publicaciones.days_text(-1) == "1 día antes" and publicaciones.days_text(13) == "13 días después"


# ---- against upstream's git history -------------------------------------------------------------------------------
RISK = "finanzas/indices/riesgo-pais"


@cache
def _clone(tmp: str) -> str:
    subprocess.run(["git", "clone", "-q", "--bare", str(BUNDLE), tmp], check=True)
    return tmp


def _git(repo: str, *args: str) -> bytes:
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def files_by_day(repo: str, route: str) -> list[tuple[str, list]]:
    """(day, records) of ``route``'s file at the end of each day upstream's git history changed it or the dated
    history tree has it, oldest first: the tree's file of that day, else the file of the day's last commit."""
    path = f"v1/{route}/index.json"
    log = _git(repo, "log", "--reverse", "--no-renames", "--raw", "--no-abbrev", "--format=C %ct", "--all", "--", path)
    blob_of_day: dict[str, str] = {}
    for line in log.decode().splitlines():
        if line.startswith("C "):
            day = dt.datetime.fromtimestamp(int(line.split()[1]), dt.timezone.utc).date().isoformat()
        elif line.startswith(":"):
            blob_of_day[day] = line.split()[3]
    blobs = subprocess.run(
        ["git", "-C", repo, "cat-file", "--batch"],
        input="".join(b + "\n" for b in blob_of_day.values()).encode(),
        check=True,
        capture_output=True,
    ).stdout
    out, at = [], 0
    for day in blob_of_day:
        header_end = blobs.index(b"\n", at)
        size = int(blobs[at:header_end].split()[2])
        out.append((day, orjson.loads(blobs[header_end + 1 : header_end + 1 + size])))
        at = header_end + 1 + size + 1
    tree = {p.stem: orjson.loads(p.read_bytes()) for p in (HISTORY / "v1" / route).glob("????-??-??.json")}
    return sorted({**dict(out), **tree}.items())


def history_of(repo: str, route: str, fecha: str) -> list[tuple[str, object]]:
    """(day, value at the end of that day) each day the record of ``fecha`` of ``route`` changed."""
    out: list[tuple[str, object]] = []
    for day, records in files_by_day(repo, route):
        value = next((r["valor"] for r in records if r.get("fecha") == fecha), None)
        if value is not None and (not out or out[-1][1] != value):
            out.append((day, value))
    return out


@pytest.fixture(scope="module")
def upstream_git(tmp_path_factory):
    if not BUNDLE.is_file():
        pytest.skip("sin el paquete de versiones de upstream")
    return _clone(str(tmp_path_factory.mktemp("bundle") / "repo.git"))


async def test_country_risk_first_release_and_every_value(ds, upstream_git):
    expected = history_of(upstream_git, RISK, "2003-06-02")
    assert len(expected) == 2  # upstream shifted its whole history by a day once

    url = "/v1/series/datos?ids=riesgo_pais&desde=2003-06-02&hasta=2003-06-02&publicado="
    first = (await ds.client.get(url + "primera")).json()
    (day, value) = expected[0]
    assert first["datos"] == [{"fecha": "2003-06-02", "riesgo_pais": value, "riesgo_pais:publicado": day}]

    every = (await ds.client.get(url + "todas")).json()
    assert every["series"][0]["id"] == "riesgo_pais"
    assert every["datos"] == [
        {"serie": "riesgo_pais", "fecha": "2003-06-02", "valor": v, "publicadoDesde": d, "publicadoHasta": h}
        for (d, v), h in zip(expected, [d for d, _ in expected[1:]] + [None])
    ]
    table = (await ds.client.get(url + "todas&formato=csv")).text
    rows = list(csv.DictReader(io.StringIO(table)))
    assert [(r["valor"], r["publicadoDesde"], r["publicadoHasta"]) for r in rows] == [
        (str(v), d, h or "") for (d, v), h in zip(expected, [d for d, _ in expected[1:]] + [None])
    ]


async def test_a_vintage_rebuilt_from_every_value_is_the_day_as_published(ds):
    """publicado=todas holds every vintage: the values in force on a day are publicado=<that day>."""
    every = (await ds.client.get("/v1/series/datos?ids=uva&desde=2025-01&hasta=2025-02&publicado=todas")).json()
    for day in ("2025-01-10", "2025-01-25", "2025-02-08"):
        then = (await ds.client.get(f"/v1/series/datos?ids=uva&desde=2025-01&hasta=2025-02&publicado={day}")).json()
        rebuilt = {
            r["fecha"]: r["valor"]
            for r in every["datos"]
            if r["publicadoDesde"] <= day and (r["publicadoHasta"] is None or day < r["publicadoHasta"])
        }
        assert rebuilt == {r["fecha"]: r["uva"] for r in then["datos"]}, day


async def test_first_releases_go_through_the_query_and_say_when_each_period_could_be_computed(ds):
    plain = (await ds.client.get("/v1/series/datos?ids=inflacion&desde=2025-01&hasta=2025-06&publicado=primera")).json()
    by_month = {r["fecha"]: r for r in plain["datos"]}
    quarter = (
        await ds.client.get(
            "/v1/series/datos?ids=inflacion&desde=2025-01&hasta=2025-06&publicado=primera&agrupar=trimestre"
        )
    ).json()
    second = quarter["datos"][1]
    members = [r for f, r in by_month.items() if "2025-04" <= f <= "2025-06-30"]
    assert second["fecha"] == "2025-04-01" and len(members) == 3
    assert second["inflacion:publicado"] == max(r["inflacion:publicado"] for r in members)
    assert all(r["inflacion:publicado"] > r["fecha"] for r in plain["datos"])  # a month is published after it ends


@pytest.mark.parametrize(
    "query, param",
    [
        ("ids=riesgo_pais&publicado=todas&agrupar=mes", "agrupar"),
        ("ids=riesgo_pais:relativa&publicado=todas", "ids"),
        ("ids=riesgo_pais&publicado=todas&marcar=calidad", "marcar"),
        ("ids=riesgo_pais&publicado=todas&dias=habiles", "dias"),
        ("ids=riesgo_pais&publicado=ultima", "publicado"),
        (
            "ids=riesgo_pais,cotizaciones_dolares.blue.venta,cotizaciones_dolares.oficial.venta,"
            "cotizaciones_dolares.mayorista.venta&publicado=todas",
            "publicado",
        ),  # more than 25,000 values: narrowed with desde and hasta
        ("ids=bonos_cer_historico.TZXO6.precioArs&publicado=primera", "publicado"),  # already one value per version
    ],
)
async def test_what_every_value_does_not_combine_with_is_a_400(ds, query, param):
    response = await ds.client.get(f"/v1/series/datos?{query}")
    assert response.status_code == 400 and response.json()["parametro"] == param, response.text[:300]


async def test_a_list_with_versions_answers_its_records_first_release_and_every_value(ds, upstream_git):
    """publicado=primera and todas on a /v1 list: its records as first published, each with the day; every value a
    record had with the days it was in force; desde and hasta cut by the records' fecha; also as a CSV."""
    expected = history_of(upstream_git, RISK, "2003-06-02")
    url = f"/v1/{RISK}?desde=2003-06-02&hasta=2003-06-02&publicado="
    (day, value) = expected[0]
    first = (await ds.client.get(url + "primera")).json()
    assert first == [{"valor": value, "fecha": "2003-06-02", "publicado": day}]
    ends = [d for d, _ in expected[1:]] + [None]
    every = (await ds.client.get(url + "todas")).json()
    assert every == [
        {"valor": v, "fecha": "2003-06-02", "publicadoDesde": d, "publicadoHasta": h}
        for (d, v), h in zip(expected, ends)
    ]
    assert [(r["valor"], r["publicadoDesde"]) for r in every] == [(5360, "2024-07-28"), (5359, "2025-01-01")]
    table = (await ds.client.get(url + "todas&formato=csv")).text
    assert [(r["valor"], r["publicadoDesde"], r["publicadoHasta"]) for r in csv.DictReader(io.StringIO(table))] == [
        (str(v), d, h or "") for (d, v), h in zip(expected, ends)
    ]


async def test_a_list_first_release_is_the_series_first_release(ds):
    """The list's first releases and the series' of its value agree, observation by observation."""
    span = "desde=2025-01&hasta=2025-02&publicado=primera"
    route = (await ds.client.get(f"/v1/finanzas/indices/uva?{span}")).json()
    series = (await ds.client.get(f"/v1/series/datos?ids=uva&{span}")).json()["datos"]
    assert len(route) == len(series) > 20
    assert [(r["fecha"], r["valor"], r["publicado"]) for r in route] == [
        (r["fecha"], r["uva"], r["uva:publicado"]) for r in series
    ]


@pytest.mark.parametrize(
    "path, param",
    [
        (f"/v1/{RISK}?publicado=todas&agrupar=mes", "agrupar"),
        (f"/v1/{RISK}?publicado=primera&variacion=absoluta", "variacion"),
        (f"/v1/{RISK}/ultimo?publicado=primera", "publicado"),  # one record computed from the list: a day only
    ],
)
async def test_what_a_list_first_release_does_not_combine_with_is_a_400(ds, path, param):
    response = await ds.client.get(path)
    assert response.status_code == 400 and response.json()["parametro"] == param, response.text[:300]


async def test_the_words_are_for_lists_with_versions_and_a_route_without_versions_is_a_404(ds):
    route = await ds.client.get("/v1/feriados/2024?publicado=primera")
    assert route.status_code == 400 and route.json()["parametro"] == "publicado"
    none = await ds.client.get("/v1/series/datos?ids=cotizaciones.USD.venta&publicado=todas")
    assert none.status_code == 404 and "no tiene versiones guardadas" in none.json()["mensaje"]
    releases = await ds.client.get("/v1/series/publicaciones?ids=cotizaciones.USD.venta")
    assert releases.status_code == 404 and releases.json()["parametro"] == "ids"
    history = await ds.client.get("/v1/series/publicaciones?ids=bonos_cer_historico.TZXO6.precioArs")
    assert history.status_code == 400 and "bonos_cer_historico" in history.json()["mensaje"]
    asked = await ds.client.get("/v1/series/calendario?ids=inflacion,cotizaciones.USD.venta")
    assert asked.status_code == 404 and "cotizaciones.USD.venta" in asked.json()["mensaje"]


# ---- publications, rhythm and calendar ----------------------------------------------------------------------------
async def test_the_day_country_risk_was_rewritten_is_a_publication_with_its_revisions(ds, upstream_git):
    files = dict(files_by_day(upstream_git, RISK))
    days = sorted(files)
    day = next(d for d in days if d >= "2025-01-01")
    before = {r["fecha"]: r["valor"] for r in files[days[days.index(day) - 1]]}
    after = {r["fecha"]: r["valor"] for r in files[day]}
    revised = sum(1 for f, v in after.items() if f in before and before[f] != v)
    added = sum(1 for f in after if f not in before)
    assert revised > 2000  # the whole history shifted by a day

    got = (await ds.client.get(f"/v1/series/publicaciones?ids=riesgo_pais&desde={day}&hasta={day}")).json()
    assert got["series"][0]["id"] == "riesgo_pais"
    (row,) = got["publicaciones"]
    assert (row["publicado"], row["revisados"], row["agregados"]) == (day, revised, added)
    assert row["quitados"] == sum(1 for f in before if f not in after) and row["inicial"] is False
    table = await ds.client.get(f"/v1/series/publicaciones?ids=riesgo_pais&desde={day}&hasta={day}&formato=csv")
    assert list(csv.DictReader(io.StringIO(table.text))) == [{k: str(v).lower() for k, v in row.items()}]
    first = (await ds.client.get("/v1/series/publicaciones?ids=riesgo_pais&hasta=" + days[0])).json()
    assert first["publicaciones"] == [
        {
            "serie": "riesgo_pais",
            "publicado": days[0],
            "agregados": len(files[days[0]]),
            "revisados": 0,
            "quitados": 0,
            "ultimaFecha": max(r["fecha"] for r in files[days[0]]),
            "inicial": True,
        }
    ]


async def test_inflation_publishes_about_two_weeks_after_each_month(ds, upstream_git):
    # the lag of each publication that brought a new month, from upstream's history: the month's last day (its fecha)
    # to the day its file first had it
    lags, newest = [], None
    for day, records in files_by_day(upstream_git, "finanzas/indices/inflacion"):
        top = max(r["fecha"] for r in records)
        if newest is not None and top > newest:
            lags.append((dt.date.fromisoformat(day) - dt.date.fromisoformat(top)).days)
        newest, last_day = top, day
    lags.sort()
    median = (lags[(len(lags) - 1) // 2] + lags[len(lags) // 2]) / 2

    (entry,) = (await ds.client.get("/v1/series?q=inflación&tipo=tasa")).json()
    rhythm = entry["publicacion"]
    assert rhythm["rezagoDias"] == round(median) and 10 <= rhythm["rezagoDias"] <= 16  # «about two weeks»
    assert (rhythm["rezagoMinimo"], rhythm["rezagoMaximo"]) == (lags[0], lags[-1])
    assert rhythm["ultimaPublicacion"] == last_day and rhythm["ultimoPeriodo"] == newest
    following = dt.date.fromisoformat(newest) + dt.timedelta(days=1)
    month_end = (following.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
    assert rhythm["proximoPeriodo"] == month_end.isoformat()
    assert rhythm["proximaEstimada"] == (month_end + dt.timedelta(days=round(median))).isoformat()
    assert "estimación" in rhythm["estimacion"]
    if newest == "2026-01-31":  # the mirror of the issue: its last release 2026-02-10
        assert rhythm["proximaEstimada"][:7] == "2026-03" and 10 <= int(rhythm["proximaEstimada"][8:]) <= 20


async def test_a_series_without_versions_of_its_own_has_no_rhythm(ds):
    for url in ("/v1/series?q=cotizaciones USD venta", "/v1/series?q=bonos TZXO6 precio"):
        found = (await ds.client.get(url)).json()
        assert found and all(s["publicacion"] is None for s in found), url


async def test_the_calendar_lists_past_and_expected_publications_also_as_ics(ds, upstream_git):
    import icalendar

    last = files_by_day(upstream_git, "finanzas/indices/inflacion")[-1][0]
    (entry,) = (await ds.client.get("/v1/series/datos?ids=inflacion&desde=2026")).json()["series"]
    expected = entry["publicacion"]["proximaEstimada"]
    url = f"/v1/series/calendario?frecuencia=mensual&desde={last}&hasta={expected}"
    events = (await ds.client.get(url)).json()
    inflation = [e for e in events if e["series"] == ["inflacion"]]
    assert [(e["fecha"], e["tipo"]) for e in inflation] == [(last, "publicada"), (expected, "estimada")]
    assert all(e["ruta"] != "/v1/cotizaciones/dolares/blue" for e in events)  # daily series left out

    ics = await ds.client.get(url + "&formato=ics")
    assert ics.headers["content-type"].startswith("text/calendar")
    parsed = icalendar.Calendar.from_ical(ics.content)
    got = [(str(e["SUMMARY"]), e["DTSTART"].dt.isoformat()) for e in parsed.walk("VEVENT")]
    assert got == [(e["nombre"], e["fecha"]) for e in events]

    csv_rows = list(csv.DictReader(io.StringIO((await ds.client.get(url + "&formato=csv")).text)))
    assert [r["fecha"] for r in csv_rows] == [e["fecha"] for e in events]
    for query, param in (("agrupar=mes", "agrupar"), ("q=inflacion", "q"), ("ids=inflacion&marcar=calidad", "marcar")):
        bad = await ds.client.get(f"/v1/series/calendario?{query}")
        assert bad.status_code == 400 and bad.json()["parametro"] == param, query


# ---- late publications ----------------------------------------------------------------------------------------------
def _daily(start: str, lags: list[int]) -> list[versiones.Release]:
    """A daily route publishing one new day after another, each ``lag`` days after its date (a stall: a big lag)."""
    out, day = [], dt.date.fromisoformat(start)
    newest = day - dt.timedelta(days=1)
    for lag in lags:
        fecha = newest + dt.timedelta(days=1)
        published = max(fecha + dt.timedelta(days=lag), day)
        newest = max(newest, published - dt.timedelta(days=min(lags)))
        f, n = fecha.isoformat(), newest.isoformat()
        out.append(versiones.Release(published.isoformat(), 1, 0, 0, n, f, 1))
        day = published + dt.timedelta(days=1)
    return out


def test_a_stall_is_a_late_publication_and_a_monthly_rhythm_is_not():
    from argentina_datos.respuestas import publicaciones

    releases = _daily("2025-01-01", [0] * 20 + [12] + [0] * 20)
    (late,) = publicaciones.delays(releases, first_day=None)
    assert (late.lag, late.usual, late.first) == (12, 0, releases[20].first_new)
    assert late.previous == releases[19].day and late.day == releases[20].day
    # INDEC's months: published 10 to 20 days after the month ends, never late
    months = [
        versiones.Release(f"2025-{m + 1:02d}-{10 + m % 11:02d}", 1, 0, 0, f"2025-{m:02d}-28", f"2025-{m:02d}-28", 1)
        for m in range(1, 12)
    ]
    assert publicaciones.delays(months, first_day=None) == []
    assert publicaciones.delays(releases, first_day=releases[20].day) == []  # the first version stored holds the past


def test_uva_stuck_in_january_2025_is_a_finding_and_inflation_never_is(conn, upstream_git):
    days = [d for d, _ in files_by_day(upstream_git, "finanzas/indices/uva")]
    gaps = [(b, a) for a, b in zip(days, days[1:]) if "2025-01" <= a <= "2025-02-28"]
    start, end = max(gaps, key=lambda g: dt.date.fromisoformat(g[0]) - dt.date.fromisoformat(g[1]))[::-1]
    assert (dt.date.fromisoformat(end) - dt.date.fromisoformat(start)).days > 7

    found = conn.execute(
        "SELECT tabla, fecha, hasta, detalle FROM calidad WHERE control = 'publicación demorada' AND ruta = ?",
        ["/v1/finanzas/indices/uva"],
    ).fetchall()
    stuck = [f for f in found if f"recién el {end}" in f[3]]
    assert len(stuck) == 1 and stuck[0][0] == "uva"
    assert start < stuck[0][1] <= stuck[0][2] < end and f"fue el {start}" in stuck[0][3]
    monthly = conn.execute(
        "SELECT count(*) FROM calidad WHERE control = 'publicación demorada' AND ruta LIKE '/v1/finanzas/indices/inflacion%'"
    ).fetchone()[0]
    assert monthly == 0


async def test_the_openapi_document_offers_the_words_on_a_list_with_versions_only(ds):
    paths = (await ds.client.get("/v1/openapi.json")).json()["paths"]

    def pattern(path: str) -> str:
        (found,) = [p for p in paths[path]["get"]["parameters"] if p["name"] == "publicado"]
        return found["schema"]["pattern"]

    assert pattern(f"/v1/{RISK}").endswith("|primera|todas)$")
    assert "primera" not in pattern(f"/v1/{RISK}/ultimo")  # computed from the list: a day only
