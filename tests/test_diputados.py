"""The Chamber of Deputies (/v1/diputados/...): catalogue datasets answer exactly the mirror's files;
per-deputy routes answer every deputy of the list, from the published file, from the list (no trips:
empty lists) or 404 when the source counts records it did not publish; objects keyed by id keep their
order; the small mechanisms behind them work on hand-written fixtures too."""

import json
import re

import pytest
from ayudas import answer, assert_catalogue_routes, assert_refused, build_tables, mirror_file, write_file
from paths import UPSTREAM
from test_conformance import strictly_equal

from argentina_datos.almacen.registros import keyed_records
from argentina_datos.almacen.tablas import Layout
from argentina_datos.catalogo import diputados
from argentina_datos.web.v1.api import V1

DIPUTADOS = UPSTREAM / "v1" / "diputados"
TABLES = [d.table for d in diputados.DATASETS]


# ---- per-deputy routes: every id of the list ------------------------------------------
def deputy_ids() -> list[str]:
    return list(dict.fromkeys(d["id"] for d in mirror_file("v1/diputados/diputados")))


def counted(diputado_id: str, columns) -> bool:
    """Whether the mirror's own count says the source has records of this deputy."""
    conteo = mirror_file("v1/diputados/viajes/conteo")["porDiputado"].get(diputado_id, {})
    return any(conteo.get(c) for c in columns)


# (route, the lists of its empty answer, the conteo columns that count those records)
POR_DIPUTADO = [
    ("viajes", ["nacionales", "internacionales"], ["nacionales", "internacionales"]),
    ("misiones", ["misiones"], ["internacionales"]),
]


@pytest.mark.parametrize("kind, lists, columns", POR_DIPUTADO)
def test_every_deputy_of_the_list_is_answered(v1, kind, lists, columns):
    from_file = derived = missing = 0
    failures = []
    for diputado_id in deputy_ids():
        route = f"v1/diputados/diputados/{diputado_id}/{kind}"
        published = mirror_file(route)
        status, body = v1("/" + route)
        if published is not None:
            from_file += 1
            expected = published
        elif counted(diputado_id, columns):
            missing += 1
            if (status, body.get("parametro")) != (404, "id") or "conteo" not in body["mensaje"]:
                failures.append(f"/{route}: {status} {body}")
            continue
        else:
            derived += 1
            expected = {"diputadoId": diputado_id, **{name: [] for name in lists}}
        if status != 200:
            failures.append(f"/{route}: HTTP {status} {body}")
            continue
        diff = strictly_equal(expected, body, "/" + route)
        if diff:
            failures.append(diff)
    print(
        f"{kind}: {from_file} from their file, {derived} derived (no records), {missing} 404 (counted, not published)"
    )
    assert from_file >= 1 and derived >= 1 and from_file + derived + missing == len(deputy_ids())
    assert not failures, "\n".join(failures[:10])


@pytest.mark.mirror
def test_a_published_file_without_trips_is_what_the_derivation_gives():
    """HCDN0011's file (no trips, not in the count) is the answer derived for deputies the count does not list."""
    empty = [json.loads(p.read_text()) for p in DIPUTADOS.glob("diputados/*/viajes/index.json")]
    empty = [f for f in empty if not f["nacionales"] and not f.get("internacionales")]
    if not empty:
        pytest.skip("the mirror has no trips file without trips")
    for f in empty:
        assert not counted(f["diputadoId"], ["nacionales", "internacionales"])
        assert f == {"diputadoId": f["diputadoId"], "nacionales": [], "internacionales": []}


@pytest.mark.mirror
def test_published_trips_agree_with_the_count():
    """The count the derivation relies on matches the files the mirror has."""
    conteo = mirror_file("v1/diputados/viajes/conteo")["porDiputado"]
    for path in DIPUTADOS.glob("diputados/*/viajes/index.json"):
        data = json.loads(path.read_text())
        entry = conteo.get(data["diputadoId"], {"nacionales": 0, "internacionales": 0})
        assert len(data["nacionales"]) == entry["nacionales"], path
    for path in DIPUTADOS.glob("diputados/*/misiones/index.json"):
        data = json.loads(path.read_text())
        assert len(data["misiones"]) == conteo[data["diputadoId"]]["internacionales"], path


def first_year_without_actas() -> int:
    years = {int(p.parent.name) for p in DIPUTADOS.glob("actas/*/index.json")}
    return next(y for y in range(diputados.PRIMER_AÑO_ACTAS, 2100) if y not in years)


def first_committee_without_file() -> str:
    ids = {p.parent.name for p in DIPUTADOS.glob("comisiones/*/index.json")}
    return next(f"HCDN{n:05d}" for n in range(1, 100000) if f"HCDN{n:05d}" not in ids)


@pytest.mark.parametrize(
    "route, parametro",
    [
        ("/v1/diputados/diputados/hcdn0055/viajes", "id"),
        ("/v1/diputados/diputados/55/viajes", "id"),
        ("/v1/diputados/diputados/HCDN9999/viajes", "id"),  # not in the list, not counted
        ("/v1/diputados/diputados/HCDN/misiones", "id"),
        ("/v1/diputados/diputados/HCDN9999/misiones", "id"),
        ("/v1/diputados/comisiones/comision", "id"),
        ("/v1/diputados/comisiones/{comision}", "id"),
        ("/v1/diputados/actas/20", "año"),
        ("/v1/diputados/actas/{antes}", "año"),
        ("/v1/diputados/actas/{sin_archivo}", "año"),
    ],
)
def test_malformed_values_and_values_without_data(v1, route, parametro):
    route = route.format(
        comision=first_committee_without_file(),
        antes=diputados.PRIMER_AÑO_ACTAS - 1,
        sin_archivo=first_year_without_actas(),
    )
    assert_refused(v1, route, parametro)


# ---- each mirror file of the families, exactly ----------------------------------------
def mirror_routes() -> list[str]:
    return sorted("/" + str(p.parent.relative_to(UPSTREAM)) for p in DIPUTADOS.glob("**/index.json"))


def test_the_families_are_catalogue_routes_not_documents(conn):
    assert_catalogue_routes(conn, mirror_routes(), TABLES, ["v1/diputados"])


@pytest.mark.parametrize("route", mirror_routes())
def test_each_file_is_answered_exactly(v1, route):
    status, body = v1(route)
    assert status == 200, body
    expected = mirror_file(route.lstrip("/"))
    assert strictly_equal(expected, body, route) == ""


def test_objects_keyed_by_id_keep_their_order(v1):
    for route in ("v1/diputados/viajes/conteo", "v1/diputados/viajes/conteo-12m"):
        _, body = v1("/" + route)
        assert list(body["porDiputado"]) == list(mirror_file(route)["porDiputado"])
        assert list(body) == list(mirror_file(route))


def test_votes_are_kept_as_they_come(v1, conn):
    """actas/2020 lists each of its votes twice: both are kept, and the repetition reported."""
    for path in DIPUTADOS.glob("actas/*/index.json"):
        route = "/" + str(path.parent.relative_to(UPSTREAM))
        expected = json.loads(path.read_text())
        _, body = v1(route)
        assert [a["id"] for a in body] == [a["id"] for a in expected]
        assert [len(a["votos"]) for a in body] == [len(a["votos"]) for a in expected]
    ids = [a["id"] for p in DIPUTADOS.glob("actas/*/index.json") for a in json.loads(p.read_text())]
    repeated = {i for i in ids if ids.count(i) > 1}
    reported = {
        json.loads(v)[0]
        for (v,) in conn.execute(
            "SELECT valor FROM calidad WHERE tabla = 'diputados_actas' AND control = 'clave repetida'"
        )
    }
    assert reported == repeated


def test_missions_keep_the_source_mojibake(conn):
    destinos = [
        m["destino"]
        for p in DIPUTADOS.glob("diputados/*/misiones/index.json")
        for m in json.loads(p.read_text())["misiones"]
    ]
    stored = [d for (d,) in conn.execute("SELECT destino FROM diputados_misiones ORDER BY fila")]
    assert stored == destinos
    assert any("Ã" in d or "ã" in d for d in stored)


def test_the_lists_envelope_keeps_its_other_fields(v1):
    """recinto's `vacantes` is a list of the envelope, not records of a dataset."""
    expected = mirror_file("v1/diputados/recinto")
    _, body = v1("/v1/diputados/recinto")
    assert body["vacantes"] == expected["vacantes"]


def test_periodos_lista_is_the_envelope_list(v1):
    _, envelope = v1("/v1/diputados/periodos")
    _, lista = v1("/v1/diputados/periodos/lista")
    assert lista == envelope["periodos"]


# ---- described for researchers -----------------------------------------------------------
def test_counts_and_money_have_units():
    for d in diputados.DATASETS:
        for name, field in Layout(d).codec.columns:
            if re.search(
                r"viaticos(Usd|Euro|Ars)$|^(nacionales|internacionales|total|votos\w+|ausentes|"
                r"abstenciones|miembros|presentes|sinVotar)$",
                name,
            ):
                assert field.unit, (d.table, name)


# ---- the mechanisms, on hand-written fixtures (no mirror) ---------------------------------
def test_keyed_records_keep_the_order_and_the_odd_entries():
    obj = {"10": {"n": 1}, "2": {"n": 2}, "HCDN1": 7, "x": {"diputadoId": "otro", "n": 3}}
    records = keyed_records(obj, "diputadoId")
    assert records[0] == {"diputadoId": "10", "n": 1} and records[1] == {"diputadoId": "2", "n": 2}
    assert records[2] == ["HCDN1", 7] and records[3] == ["x", {"diputadoId": "otro", "n": 3}]


DIPUTADO = {
    "id": "HCDN0001",
    "nombre": "Ana",
    "apellido": "Pérez",
    "genero": "F",
    "provincia": "Salta",
    "periodoMandato": {"inicio": "2019-12-10T00:00:00-03:00", "fin": "2023-12-09T00:00:00-03:00"},
    "juramentoFecha": None,
    "ceseFecha": "2023-12-09T00:00:00-03:00",
    "bloque": "X",
    "periodoBloque": {"inicio": "2019-12-10T00:00:00-03:00", "fin": "2023-12-09T00:00:00-03:00"},
}


def test_a_keyed_object_with_odd_entries_is_answered_exactly(tmp_path):
    conteo = {
        "actualizado": "2026-01-01",
        "porDiputado": {
            "HCDN0002": {"nacionales": 1, "internacionales": 0, "total": 1},
            "HCDN0001": {"nacionales": 0, "internacionales": 2, "total": 2, "nuevo": True},
            "HCDN0003": 5,
        },
    }
    write_file(tmp_path / "src", "v1/diputados/viajes/conteo", conteo)
    conn = build_tables(tmp_path / "src", tmp_path / "a.db", ["diputados_viajes_conteo"])
    status, body = answer(V1(), conn, "/v1/diputados/viajes/conteo")
    assert status == 200 and body == conteo and list(body["porDiputado"]) == list(conteo["porDiputado"])
    controls = conn.execute("SELECT registro, control FROM calidad ORDER BY id").fetchall()
    assert controls == [(2, "campo no declarado"), (3, "tipo inesperado")]


def test_an_envelope_keeps_lists_no_dataset_claims(tmp_path):
    recinto = {"fuente": "f", "scrapedAt": "t", "asientos": [], "vacantes": [1, 2], "otros": [{"a": 1}]}
    write_file(tmp_path / "src", "v1/diputados/recinto", recinto)
    conn = build_tables(tmp_path / "src", tmp_path / "a.db", ["diputados_recinto"])
    assert answer(V1(), conn, "/v1/diputados/recinto") == (200, recinto)


@pytest.mark.parametrize(
    "conteo, status",
    [
        (None, 404),  # without the count, an empty answer could be false
        ({"HCDN0002": {"nacionales": 3, "internacionales": 0, "total": 3}}, 200),
        ({"HCDN0001": {"nacionales": 0, "internacionales": 0, "total": 0}}, 200),
        ({"HCDN0001": {"nacionales": 3, "internacionales": 0, "total": 3}}, 404),
    ],
)
def test_a_deputy_without_a_file_is_derived_only_when_the_count_allows(tmp_path, conteo, status):
    src = tmp_path / "src"
    write_file(src, "v1/diputados/diputados", [DIPUTADO])
    tables = ["diputados", "diputados_viajes_por_diputado"]
    write_file(src, "v1/diputados/diputados/HCDN0002/viajes", {"diputadoId": "HCDN0002", "nacionales": []})
    if conteo is not None:
        write_file(src, "v1/diputados/viajes/conteo", {"actualizado": "x", "porDiputado": conteo})
        tables.append("diputados_viajes_conteo")
    conn = build_tables(src, tmp_path / "a.db", tables)
    api = V1()
    code, body = answer(api, conn, "/v1/diputados/diputados/HCDN0001/viajes")
    assert code == status, body
    if status == 200:
        assert body == {"diputadoId": "HCDN0001", "nacionales": [], "internacionales": []}
    # a published file is the answer, even one older than the "internacionales" key
    assert answer(api, conn, "/v1/diputados/diputados/HCDN0002/viajes") == (
        200,
        {"diputadoId": "HCDN0002", "nacionales": []},
    )
    # an id the list does not have
    assert answer(api, conn, "/v1/diputados/diputados/HCDN0009/viajes")[0] == 404
