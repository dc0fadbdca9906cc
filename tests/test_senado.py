"""The Senate (/v1/senado/...): catalogue datasets answer exactly the mirror's files, byte for byte;
per-vote, per-bloc and per-committee routes answer every id their list has (from the published file
where upstream has one, else from the list); votes and allowance records are linked to their senator
by name, consistently; the mechanisms behind them work on hand-written fixtures too."""

import json
import re
import sqlite3

import orjson
import pytest
from ayudas import answer, assert_catalogue_routes, assert_refused, build_tables, mirror_file, write_file
from paths import UPSTREAM
from test_conformance import strictly_equal

from argentina_datos.almacen.tablas import Layout
from argentina_datos.catalogo import BY_TABLE, senado, senado_actas, senado_organos, senado_personal
from argentina_datos.construccion.senado_nombres import SenateRoll, compatible_names, roll_from_database, words
from argentina_datos.web.v1.api import V1

SENADO = UPSTREAM / "v1" / "senado"
THEMES = (senado, senado_actas, senado_organos, senado_personal)
TABLES = [d.table for t in THEMES for d in t.DATASETS]


def check_all(v1, expected: dict) -> list[str]:
    """Each route answers 200 with exactly its expected JSON; the differences otherwise."""
    failures = []
    for route, want in expected.items():
        status, body = v1(route)
        if status != 200:
            failures.append(f"{route}: HTTP {status} {body}")
            continue
        diff = strictly_equal(want, body, route)
        if diff:
            failures.append(diff)
    return failures


# ---- each mirror file of the families, exactly -----------------------------------------
def mirror_routes() -> list[str]:
    return sorted("/" + str(p.parent.relative_to(UPSTREAM)) for p in SENADO.glob("**/index.json"))


@pytest.mark.mirror
def test_the_families_are_catalogue_routes_not_documents(conn):
    assert_catalogue_routes(conn, mirror_routes(), TABLES, ["v1/senado"])


@pytest.mark.parametrize("route", mirror_routes())
def test_each_file_is_answered_exactly_in_its_key_order(v1_response, route):
    """The same JSON, byte for byte: the file's bytes, its key order and whitespace included."""
    response = v1_response(route)
    status, raw = response.status, response.body
    body = orjson.loads(raw)
    assert status == 200, body
    expected = mirror_file(route)
    assert strictly_equal(expected, body, route) == ""
    assert raw == (UPSTREAM / route.strip("/") / "index.json").read_bytes()


def test_a_year_of_national_trips_is_its_cut_of_the_list_as_its_months_are(v1):
    """/v1/senado/viajes/nacionales/{año}: in upstream's OpenAPI, without a file in its tree; the year's records
    of the list, in its order, which are the records of its months."""
    trips = json.loads((SENADO / "viajes" / "nacionales" / "index.json").read_text())
    years = sorted({t["anio"] for t in trips})
    assert years
    for año in years:
        status, body = v1(f"/v1/senado/viajes/nacionales/{año}")
        assert status == 200 and body == [t for t in trips if t["anio"] == año], año
        months = [v1(f"/v1/senado/viajes/nacionales/{año}/{m:02d}") for m in range(1, 13)]
        assert sorted(map(orjson.dumps, body)) == sorted(orjson.dumps(r) for s, m in months if s == 200 for r in m)
    missing = next(y for y in range(2012, 2027) if y not in years)
    assert v1(f"/v1/senado/viajes/nacionales/{missing}") == (
        404,
        {
            "status": 404,
            "error": "Not Found",
            "mensaje": f"no hay datos para año = {missing} (hay {', '.join(map(str, years))})",
            "parametro": "año",
        },
    )


# ---- per-id routes: every id of their list -----------------------------------------------
def year_files() -> dict[int, list]:
    return {int(p.parent.name): json.loads(p.read_text()) for p in sorted(SENADO.glob("actas/[0-9]*/index.json"))}


def test_every_vote_of_every_year_is_answered(v1):
    expected = {
        f"/v1/senado/actas/{año}/{acta['actaId']}": acta for año, actas in year_files().items() for acta in actas
    }
    published = sum(1 for route in expected if mirror_file(route) is not None)
    failures = check_all(v1, expected)
    print(f"actas: {len(expected)} votes, {published} with their own file, the rest from their year's file")
    assert len(expected) > published >= 1
    assert not failures, "\n".join(failures[:10])


@pytest.mark.mirror
def test_the_per_vote_files_are_their_years_records():
    """What lets the route answer from the year's rows: every per-vote file is that record."""
    years = year_files()
    files = list(SENADO.glob("actas/[0-9]*/[0-9]*/index.json"))
    assert files
    for path in files:
        año, acta_id = int(path.parent.parent.name), int(path.parent.name)
        assert json.loads(path.read_text()) in [a for a in years[año] if a["actaId"] == acta_id], path


def test_every_bloc_of_the_list_is_answered(v1):
    bloques = mirror_file("v1/senado/bloques")
    failures = check_all(v1, {f"/v1/senado/bloques/{b['id']}": b for b in bloques})
    assert bloques and not failures, "\n".join(failures[:10])


def test_every_committee_of_the_list_is_answered(v1):
    """Its own file (with its members) where upstream has one, else its record of the list."""
    expected = {}
    for comision in mirror_file("v1/senado/comisiones"):
        route = f"/v1/senado/comisiones/{comision['id']}"
        expected[route] = mirror_file(route) or comision
    from_file = sum(1 for route in expected if mirror_file(route) is not None)
    failures = check_all(v1, expected)
    print(f"comisiones: {from_file} from their file, {len(expected) - from_file} from the list")
    assert len(expected) > from_file >= 1
    assert not failures, "\n".join(failures[:10])


def senators_with(kind: str) -> set[str]:
    return {p.parent.parent.name for p in SENADO.glob(f"senadores/*/{kind}/index.json")}


@pytest.mark.parametrize("kind", ["personal", "comisiones"])
def test_a_sitting_senator_without_a_file_is_404(v1, kind):
    """Nothing lists a senator's staff or committees (the committee list has no members): only the
    published files answer."""
    sitting = [s["id"] for b in mirror_file("v1/senado/bloques") for s in b["senadores"]]
    without = [i for i in sitting if i not in senators_with(kind)]
    assert without and senators_with(kind)
    for senador_id in without[:5]:
        status, body = v1(f"/v1/senado/senadores/{senador_id}/{kind}")
        assert (status, body["parametro"]) == (404, "id"), body


def absent(values, start: int = 1) -> int:
    taken = {int(v) for v in values}
    return next(n for n in range(start, 10**9) if n not in taken)


def ids(route: str, key: str) -> list:
    return [r[key] for r in mirror_file(route)]


def con_actas() -> int:
    return max(a for a, actas in year_files().items() if actas)


# Well-formed values without data are found in the mirror's own lists.
VALORES = {
    "antes": lambda: senado_actas.PRIMER_AÑO - 1,
    "sin_archivo": lambda: absent(year_files(), senado_actas.PRIMER_AÑO),
    "con_actas": con_actas,
    "acta_ajena": lambda: absent(a["actaId"] for a in year_files()[con_actas()]),
    "bloque": lambda: absent(ids("v1/senado/bloques", "id")),
    "comision": lambda: absent(ids("v1/senado/comisiones", "id")),
    "senador": lambda: absent(ids("v1/senado/senadores", "id")),
}


@pytest.mark.mirror
@pytest.mark.parametrize(
    "route, parametro",
    [
        ("/v1/senado/actas/20", "año"),
        ("/v1/senado/actas/{antes}", "año"),
        ("/v1/senado/actas/{sin_archivo}", "año"),
        ("/v1/senado/actas/{con_actas}/x12", "id"),
        ("/v1/senado/actas/{antes}/1", "año"),
        ("/v1/senado/actas/{con_actas}/{acta_ajena}", "id"),
        ("/v1/senado/bloques/pj", "id"),
        ("/v1/senado/bloques/{bloque}", "id"),
        ("/v1/senado/comisiones/-1", "id"),
        ("/v1/senado/comisiones/{comision}", "id"),
        ("/v1/senado/senadores/abc/personal", "id"),
        ("/v1/senado/senadores/1234567890/comisiones", "id"),
        ("/v1/senado/senadores/{senador}/personal", "id"),
        ("/v1/senado/senadores/{senador}/comisiones", "id"),
    ],
)
def test_malformed_values_and_values_without_data(v1, route, parametro):
    assert_refused(v1, route.format(**{n: VALORES[n]() for n in re.findall(r"{(\w+)}", route)}), parametro)


def test_objects_keyed_by_id_keep_their_numeric_order(v1):
    for route in ("v1/senado/viajes/conteo", "v1/senado/viajes/conteo-12m"):
        _, body = v1("/" + route)
        assert list(body["porSenador"]) == list(mirror_file(route)["porSenador"])
        assert list(body["porSenador"]) == sorted(body["porSenador"], key=int)


# ---- votes and allowances linked to their senator -----------------------------------------
def test_votes_are_linked_to_senators_consistently(conn):
    senadores = {r[0]: r[1] for r in conn.execute("SELECT id, nombre FROM senadores")}
    rows = conn.execute(
        "SELECT a.fila, v.nombre, v.senadorId FROM senado_actas_votos v JOIN senado_actas a ON a.fila = v.senado_actas_id"
    ).fetchall()
    linked = [(acta, nombre, sid) for acta, nombre, sid in rows if sid is not None]
    assert rows and len(linked) >= 0.95 * len(rows), f"{len(linked)} of {len(rows)} votes linked"
    per_acta: dict = {}
    for acta, nombre, sid in linked:
        assert sid in senadores, (nombre, sid)
        # the same first surname word, the way every spelling of a name keeps it
        assert words(nombre)[0] == words(senadores[sid])[0], (nombre, senadores[sid])
        per_acta.setdefault(acta, []).append(sid)
    repeated = {acta: ids for acta, ids in per_acta.items() if len(ids) != len(set(ids))}
    assert not repeated, "two votes of one acta linked to the same senator"


def test_allowance_records_are_linked_to_the_senators_of_the_spending_estimate(conn):
    """gasto lists the same sitting senators with their ids: where both write the same name, the ids agree."""
    gasto = {" ".join(words(s["nombre"])): s["senadorId"] for s in mirror_file("v1/senado/gasto")["senadores"]}
    rows = conn.execute("SELECT nombre, senadorId FROM senado_dietas_mecanismos").fetchall()
    assert rows and all(sid is not None for _, sid in rows)
    same_name = [(sid, gasto[" ".join(words(n))]) for n, sid in rows if " ".join(words(n)) in gasto]
    assert same_name and all(a == b for a, b in same_name)
    assert {sid for _, sid in rows} <= set(gasto.values())


def test_links_never_reach_v1(v1):
    _, body = v1("/v1/senado/senadores/dietas-mecanismos")
    assert all("senadorId" not in s for s in body["senadores"])


# ---- counted and described for researchers ----------------------------------------------
def test_a_nested_lists_nested_list_is_all_stored(conn):
    """gasto's blocs' porCategoria: a list inside each element of a list (test_row_counts walks objects only)."""
    expected = sum(len(b["gasto"]["porCategoria"]) for b in mirror_file("v1/senado/gasto")["bloques"])
    assert conn.execute("SELECT count(*) FROM senado_gasto_bloques_por_categoria").fetchone()[0] == expected > 0


def test_counts_and_money_have_units():
    money = re.compile(
        r"^(bruto\w*|monto\w*|subtotal\w*|total\w*|dieta\w*Estimado|personalBruto\w*|\w*Pesos|rc|"
        r"valorModulo|\w*Modulos|modulos|pesos|agentes|cantidad|integrantes|miembros|afirmativos|"
        r"negativos|abstenciones|presentes|ausentes|amn|nacionales|internacionales|"
        r"\w*PersonalBruto|grandTotalEstimado|brutoEstimado)$"
    )
    checked = 0
    for table in TABLES:
        layout = Layout(BY_TABLE[table])
        for codec in [layout.codec] + [c.codec for c in layout.all_children()]:
            for name, field in codec.columns:
                if money.match(name.split("_")[-1]) and field.kind in ("integer", "number"):
                    checked += 1
                    assert field.unit, (table, name)
    assert checked > 30


# ---- the mechanisms, on hand-written fixtures (no mirror) ---------------------------------
def test_given_names_are_compatible_with_initials_and_names_more_or_less():
    assert compatible_names(words("Mario R."), words("Mario Raymundo"))
    assert compatible_names(words("Eugenia"), words("María Eugenia"))
    assert compatible_names(words("Carmen Silvia"), words("Carmen"))
    assert not compatible_names(words("Gladys"), words("Pablo G."))  # an initial alone proves nothing
    assert not compatible_names(words("Julio"), words("Daniel Esteban"))
    assert not compatible_names([], words("Julio"))


PADRON = [
    ("1", "Martínez, Julio César", "1973-05-03", "1976-03-24"),
    ("2", "Martínez, Julio César", "2017-12-10", None),
    ("3", "Ledesma Abdala de Zamora, Claudia", "2019-12-10", None),
    ("4", "Uñac, José Rubén", "2017-12-10", None),
    ("5", "Uñac, Sergio Mauricio", "2023-12-10", None),
    ("6", "Gómez, Ana", "2001-12-10", None),
    ("7", "Gómez, Ana María", "2001-12-10", None),
]


@pytest.mark.parametrize(
    "nombre, dia, esperado",
    [
        ("MARTÍNEZ, JULIO", "2019-03-01", "2"),  # namesakes: the mandate nearest the day
        ("Martínez, Julio", "1975-01-01", "1"),
        ("Martínez, Julio", None, "2"),  # no day: the one in office
        ("Ledesma, Claudia Alejandra", "2020-05-05", "3"),  # a married surname the vote drops
        ("Uñac, José Rubén.", "2024-01-01", "4"),
        ("Gómez, Ana", "2005-01-01", None),  # two equally near namesakes: not linked
        ("Pérez, Juan", "2005-01-01", None),
        ("", None, None),
    ],
)
def test_a_name_is_linked_only_to_its_one_senator(nombre, dia, esperado):
    assert SenateRoll(PADRON).identify(nombre, dia) == esperado


def acta(acta_id: int, fecha: str, *votantes: str) -> dict:
    return {
        "actaId": acta_id,
        "titulo": "t",
        "proyecto": "",
        "descripcion": "",
        "quorumTipo": "",
        "fecha": fecha,
        "acta": "1",
        "mayoria": "",
        "miembros": 72,
        "afirmativos": len(votantes),
        "negativos": 0,
        "abstenciones": 0,
        "presentes": len(votantes),
        "ausentes": 0,
        "amn": 1,
        "resultado": "afirmativa",
        "votos": [{"nombre": n, "voto": "si", "banca": "1"} for n in votantes],
        "observaciones": [],
    }


def senador(sid: str, nombre: str, inicio: str, fin) -> dict:
    return {
        "id": sid,
        "nombre": nombre,
        "provincia": "P",
        "partido": "X",
        "periodoLegal": {"inicio": inicio, "fin": fin},
        "periodoReal": {"inicio": inicio, "fin": fin},
        "reemplazo": None,
        "observaciones": None,
        "foto": None,
        "email": None,
        "telefono": None,
        "redes": None,
    }


@pytest.mark.parametrize("with_senators", [True, False])
def test_votes_are_linked_after_the_build_and_answered_as_they_came(tmp_path, with_senators):
    src = tmp_path / "src"
    año = [
        acta(1, "2019-03-01T10:00:00.000Z", "Martínez, Julio", "Nadie, Juan"),
        acta(
            2,
            "",
        ),
    ]
    write_file(src, "v1/senado/actas/2019", año)
    write_file(src, "v1/senado/actas", año[:1])
    tables = ["senado_actas"]
    if with_senators:  # without the senators' list (a build that skipped it) the votes stay unlinked
        write_file(
            src,
            "v1/senado/senadores",
            [
                senador("1", "Martínez, Julio César", "1973-05-03", "1976-03-24"),
                senador("2", "Martínez, Julio César", "2017-12-10", None),
            ],
        )
        tables.insert(0, "senadores")
    conn = build_tables(src, tmp_path / "a.db", tables)
    linked = conn.execute("SELECT nombre, senadorId FROM senado_actas_votos ORDER BY fila").fetchall()
    assert linked == [("Martínez, Julio", "2" if with_senators else None), ("Nadie, Juan", None)] * 2
    api = V1()
    assert answer(api, conn, "/v1/senado/actas/2019")[:2] == (200, año)
    assert answer(api, conn, "/v1/senado/actas")[:2] == (200, año[:1])
    assert answer(api, conn, "/v1/senado/actas/2019/2")[:2] == (200, año[1])
    assert answer(api, conn, "/v1/senado/actas/2020/1")[0] == 404


def test_a_committee_without_its_file_is_its_record_of_the_list(tmp_path):
    src = tmp_path / "src"
    lista = [
        {"id": "50", "nombre": "A", "tipo": None, "url": "u", "integrantes": []},
        {"id": "51", "nombre": "B", "tipo": "P", "url": "v", "integrantes": []},
    ]
    archivo = {**lista[0], "integrantes": [{"nombre": "X", "cargo": "Vocal", "camara": "senado", "senadorId": "9"}]}
    write_file(src, "v1/senado/comisiones", lista)
    write_file(src, "v1/senado/comisiones/50", archivo)
    conn = build_tables(src, tmp_path / "a.db", ["senado_comisiones", "senado_comisiones_detalle"])
    api = V1()
    assert answer(api, conn, "/v1/senado/comisiones/50")[:2] == (200, archivo)
    assert answer(api, conn, "/v1/senado/comisiones/51")[:2] == (200, lista[1])
    assert answer(api, conn, "/v1/senado/comisiones/52")[0] == 404


class SourceFile:
    """What the HTTP enumeration of a placeholder reads: get_json of a route."""

    def __init__(self, files: dict):
        self.files = files

    def get_json(self, route):
        return self.files.get(route)


def test_http_enumeration_of_sitting_senators_and_committees_takes_odd_lists():
    bloques = [
        {"senadores": [{"id": "1"}, {"id": "2"}, "x", {"id": 3}]},
        {"senadores": None},
        5,
        {"senadores": [{"id": "1"}]},
    ]
    assert senado._senators_in_office(SourceFile({"v1/senado/bloques": bloques})) == ["1", "2"]
    assert senado._senators_in_office(SourceFile({})) == []
    comisiones = [{"id": "50"}, {"id": "50"}, {"nombre": "sin id"}, None]
    assert senado_organos._committee_ids(SourceFile({"v1/senado/comisiones": comisiones})) == ["50"]
    assert senado_organos._committee_ids(SourceFile({"v1/senado/comisiones": {"no": "lista"}})) == []


def test_a_senadores_table_that_fails_is_not_read_as_no_roll():
    conn = sqlite3.connect(":memory:")
    assert roll_from_database(conn) is None  # a build that skipped the table: no names to link
    conn.execute("CREATE TABLE senadores (id, nombre)")  # there, but it cannot give the mandates
    with pytest.raises(sqlite3.OperationalError, match="periodo"):
        roll_from_database(conn)
