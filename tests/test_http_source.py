"""HTTP mode: the builder reads the API's layout over HTTP from a server on 127.0.0.1 (the whole mirror
from a real nginx; the small cases from tests/servidor_local.py, which can misbehave on purpose)."""

import datetime as dt
import json
import sqlite3
import time

import pytest
from paths import HISTORY, REFERENCES, UPSTREAM
from servidor_local import LocalServer
from servidor_nginx import mirror_differences, nginx_serving

from argentina_datos.almacen import controles
from argentina_datos.catalogo import BY_TABLE
from argentina_datos.catalogo.esquema import Source
from argentina_datos.construccion import cli, fuentes
from argentina_datos.construccion.constructor import Builder, BuildError
from argentina_datos.construccion.fuentes import HttpSource, SourceError

UVA = "v1/finanzas/indices/uva"


def conteos(db) -> dict:
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        names = [
            r[0]
            for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        ]
        return {n: con.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}


# What the bundle of versions (a local file, read the same way beside any source) writes: left out of this build.
VERSIONS_STORE = ["versiones", "versiones_registros", "revisiones", "cambios"]


@pytest.mark.lento
def test_an_http_build_of_the_mirror_from_nginx_has_the_directory_builds_rows_and_answers(db_path, tmp_path, capsys):
    """The one whole-mirror build over HTTP, from a real nginx serving the mirror: every route answers
    exactly its file, and every table has the rows of the directory build (the test database)."""
    salida = tmp_path / "http.db"
    with nginx_serving(UPSTREAM) as url:
        start = time.perf_counter()
        # Two requests at a time, not eight: against nginx on this machine the client's CPU is the limit, and
        # eight threads of it took 64 s where two took 55 (quiet, 2 cores).
        # The published figures are a local file read beside any source, as the history is.
        options = ["--history", str(HISTORY), "--referencias", str(REFERENCES), "--sin-versiones", "--concurrency", "2"]
        code = cli.main(["--source", url, "--output", str(salida), *options])
        seconds = time.perf_counter() - start
    err = capsys.readouterr().err
    assert code == 0, err
    # Speed is the benchmarks' business, not an assertion here; the figure is printed for the log.
    print(f"HTTP build of the mirror: {seconds:.1f} s")
    # Without a terminal, the long enumeration announces itself per dataset before downloading.
    assert "fci_valores: consultando" in err and "rutas en la fuente" in err
    failures = mirror_differences(salida)
    assert not failures, f"{len(failures)} rutas difieren:\n" + "\n".join(failures[:40])
    esperado = conteos(db_path)
    # Over HTTP nothing lists the files no dataset reads (the directory build keeps them as documents and cuts),
    # nor the per-date files whose routes are derived from a list: compare the rest.
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as con:
        for table in ["documentos", "cortes"] + not_enumerated_over_http():
            esperado["fuentes"] -= con.execute("SELECT count(*) FROM fuentes WHERE tabla = ?", [table]).fetchone()[0]
            esperado["publicados"] -= con.execute(
                "SELECT count(*) FROM publicados WHERE tabla = ?", [table]
            ).fetchone()[0]
            esperado.pop(table, None)
    obtenido = conteos(salida)
    for counts in (obtenido, esperado):
        counts.pop("_ausentes")  # the routes the HTTP walk asked for and did not find: none from a directory
        for table in VERSIONS_STORE:
            counts.pop(table)
    # the build's facts: this one read no bundle of versions, and says so (/v1 tells it to a refused publicado)
    with sqlite3.connect(f"file:{salida}?mode=ro", uri=True) as con:
        assert con.execute("SELECT 1 FROM _construccion WHERE clave = 'sin_paquete_de_versiones'").fetchone()
    obtenido["_construccion"] -= 1
    # The data-quality findings of the tables compared, only, and not those of the versions the bundle holds
    # (revisions, late publications): this build reads none.
    skipped = ["documentos", "cortes", *not_enumerated_over_http()]
    of_versions = controles.names(controles.HISTORY)
    for counts, db in ((obtenido, salida), (esperado, db_path)):
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
            counts["calidad"] = con.execute(
                f"SELECT count(*) FROM calidad WHERE tabla NOT IN ({', '.join('?' * len(skipped))})"
                f" AND control NOT IN ({', '.join('?' * len(of_versions))})",
                [*skipped, *of_versions],
            ).fetchone()[0]
    assert obtenido == esperado
    assert esperado["fci_valores"] > 0 and esperado["rems"] > 0


def not_enumerated_over_http() -> list[str]:
    """Their tables and child tables (a committee's members)."""
    from argentina_datos.almacen.tablas import Layout
    from argentina_datos.catalogo import DATASETS

    return [
        table
        for d in DATASETS
        if any(
            p.http_values is None
            for p in d.partitions
            for s in d.sources
            if not s.history and "{" + p.name + "}" in s.route
        )
        for table in [d.table, *(c.table for c in Layout(d).all_children())]
    ]


@pytest.fixture
def mini(tmp_path):
    root = tmp_path / "fuente"
    for route, data in {
        "v1/feriados/2025": [{"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}],
        UVA: [{"fecha": "2016-03-31", "valor": 14.05}],
    }.items():
        (root / route).mkdir(parents=True)
        (root / route / "index.json").write_text(json.dumps(data))
    return root


def test_retries_with_backoff_until_the_server_answers(mini, monkeypatch):
    esperas = []
    monkeypatch.setattr(fuentes.time, "sleep", esperas.append)
    with LocalServer(mini, faults={f"/{UVA}": [500, 503]}) as srv:
        body = HttpSource(srv.url, retries=3).get(UVA)
    assert json.loads(body) == [{"fecha": "2016-03-31", "valor": 14.05}]
    assert srv.requested[f"/{UVA}"] == 3
    assert esperas == [0.5, 1.0]  # doubling between attempts


def test_a_timeout_is_retried_like_an_error(mini):
    with LocalServer(mini, faults={f"/{UVA}": [("slow", 1.0)]}) as srv:
        body = HttpSource(srv.url, timeout=0.2, retries=2, backoff=0.01).get(UVA)
    assert body is not None and srv.requested[f"/{UVA}"] == 2


def test_persistent_errors_name_the_url_and_attempts(mini):
    with LocalServer(mini, faults={f"/{UVA}": [500] * 5, "/v1/feriados/2025": [403]}) as srv:
        source = HttpSource(srv.url, retries=3, backoff=0.01)
        with pytest.raises(SourceError, match=rf"^{srv.url}/{UVA}: HTTP 500 \(tras 3 intento\(s\)\)$"):
            source.get(UVA)
        # a client error will not fix itself: no retries
        with pytest.raises(SourceError, match=r"v1/feriados/2025: HTTP 403 \(tras 1 intento\(s\)\)"):
            source.get("v1/feriados/2025")
    assert srv.requested[f"/{UVA}"] == 3 and srv.requested["/v1/feriados/2025"] == 1


def test_a_404_on_a_parametrized_file_is_just_absent(mini):
    feriados = BY_TABLE["feriados"]
    with LocalServer(mini) as srv:
        source = HttpSource(srv.url, retries=3, backoff=0.01)
        assert source.get("v1/feriados/2024") is None
        assert source.expand(feriados, Source("v1/feriados/{listado}")) == ["v1/feriados/2025"]
        assert source.expand(feriados, Source("v1/feriados", fixed={"listado": "actual"})) == []
    assert srv.requested["/v1/feriados/2024"] == 1  # a 404 is an answer, not retried


def test_an_error_on_a_parametrized_file_is_not_absence(mini):
    with LocalServer(mini, faults={"/v1/feriados/2024": [500, 500]}) as srv:
        source = HttpSource(srv.url, retries=2, backoff=0.01)
        routes = source.expand(BY_TABLE["feriados"], Source("v1/feriados/{listado}"))
        assert routes == ["v1/feriados/2024", "v1/feriados/2025"]
        with pytest.raises(SourceError, match=r"/v1/feriados/2024: HTTP 500"):
            source.read("v1/feriados/2024")


def test_enumerated_files_are_built(mini, tmp_path):
    salida = tmp_path / "mini.db"
    with LocalServer(mini) as srv:
        source = HttpSource(srv.url, retries=1, fci_since=dt.date.today())
        report = Builder(source, salida).run()
    built = {o.table: o.rows for o in report.outcomes if not o.missing}
    assert built == {"feriados": 1, "uva": 1}
    assert not report.skipped


def _mock_source(handler, **options) -> HttpSource:
    import httpx

    source = HttpSource("http://upstream.test", **options)
    source.client = httpx.Client(transport=httpx.MockTransport(handler))
    return source


def test_an_index_route_that_answers_html_names_the_url():
    def handler(request):
        return httpx.Response(200, text="<!doctype html><p>mantenimiento</p>")

    import httpx

    source = _mock_source(handler, retries=1)
    with pytest.raises(SourceError, match=r"^http://upstream\.test/v1/rems: no es JSON válido .*<!doctype"):
        source.expand(BY_TABLE["rems"], BY_TABLE["rems"].sources[0])


def test_a_source_that_stops_answering_is_given_up_after_a_few_failures(tmp_path):
    import httpx

    pedidos = []

    def handler(request):
        pedidos.append(request.url.path)
        raise httpx.ConnectError("conexión rechazada", request=request)

    source = _mock_source(
        handler,
        retries=3,
        backoff=0.01,
        max_failures=4,
        concurrency=2,
        fci_since=dt.date.today() - dt.timedelta(days=400),
    )
    start = time.perf_counter()
    with pytest.raises(BuildError, match=r"^http://upstream\.test: la fuente dejó de responder \(4 pedidos seguidos"):
        Builder(source, tmp_path / "a.db", keep_going=True).run()
    # without giving up: ~2,000 FCI URLs x 3 attempts
    assert len(pedidos) < 20
    assert time.perf_counter() - start < 10
    assert not (tmp_path / "a.db").exists()


def test_one_answer_resets_the_count_of_failures_in_a_row():
    import httpx

    answers = iter([httpx.ConnectError("x"), httpx.ConnectError("x"), 404, httpx.ConnectError("x"), 404])

    def handler(request):
        a = next(answers)
        if isinstance(a, Exception):
            raise httpx.ConnectError("rechazada", request=request)
        return httpx.Response(a)

    source = _mock_source(handler, retries=1, max_failures=3)
    for route in ("a", "b", "c", "d", "e"):
        try:
            source.get(route)
        except fuentes.SourceUnreachable:
            raise AssertionError("gave up although the source answered in between")
        except SourceError:
            pass
