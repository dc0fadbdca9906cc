"""Upstream data is taken as it comes: what is odd inside a file is kept exactly and reported
in the calidad table, never fatal; /v1 still answers exactly what the file says."""

import json
import sqlite3
from pathlib import Path

import orjson
import pytest
from ayudas import UVA_DIAS, write_file
from paths import UPSTREAM
from test_conformance import strictly_equal

from argentina_datos.almacen import publicados
from argentina_datos.construccion import cli
from argentina_datos.web.servidor import datasette_for

UVA = UVA_DIAS
UVA_RUTA = "v1/finanzas/indices/uva"


def construir(capsys, fuente: Path, salida: Path, *extra) -> str:
    capsys.readouterr()
    code = cli.main(["--source", str(fuente), "--output", str(salida), *map(str, extra)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "Traceback" not in err
    return err


def calidad(db: Path) -> list[tuple]:
    """The findings about the records.  Not «serie atrasada»: these files end in 2016, so their series is late
    on any day the test runs (tests/test_catalogo_series.py and tests/test_auditoria.py check that control)."""
    with sqlite3.connect(db) as con:
        return con.execute(
            "SELECT tabla, control, ruta, registro, campo, valor FROM calidad WHERE control != 'serie atrasada' "
            "ORDER BY id"
        ).fetchall()


async def respuesta(db: Path, route: str):
    ds = datasette_for(db)
    r = await ds.client.get(route)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    return orjson.loads(r.content)


RAROS = {
    # case: (records, expected calidad rows as (control, registro, campo))
    "campo no declarado": ([UVA[0], {**UVA[1], "otro": {"a": [1, None]}}], [("campo no declarado", 2, "otro")]),
    "tipo equivocado": ([UVA[0], {"fecha": "2016-04-01", "valor": "14,06"}], [("tipo inesperado", 2, "valor")]),
    "booleano en un número": ([{"fecha": "2016-03-31", "valor": True}, UVA[1]], [("tipo inesperado", 1, "valor")]),
    "falta un campo obligatorio": ([UVA[0], {"fecha": "2016-04-01"}], [("falta un campo obligatorio", 2, "valor")]),
    "registro que no es objeto": ([UVA[0], 7, "x"], [("tipo inesperado", 2, None), ("tipo inesperado", 3, None)]),
    "null donde no se espera": ([UVA[0], {"fecha": None, "valor": 14.06}], [("null donde no se espera", 2, "fecha")]),
    "fecha imposible": (
        [UVA[0], {"fecha": "2025-02-30", "valor": 1}, {"fecha": "30/01/2025", "valor": 2}],
        [("fecha imposible", 2, "fecha"), ("fecha imposible", 3, "fecha")],
    ),
    "clave repetida": ([UVA[0], UVA[1], UVA[0]], [("clave repetida", None, "fecha")]),
    "lista vacía": ([], []),
}


@pytest.mark.parametrize("caso", sorted(RAROS))
async def test_odd_records_are_kept_reported_and_served_back_exactly(capsys, tmp_path, caso):
    registros, esperado = RAROS[caso]
    fuente = tmp_path / "fuente"
    write_file(fuente, UVA_RUTA, registros)
    salida = tmp_path / "argentina.db"

    err = construir(capsys, fuente, salida, "--detalle")

    assert await respuesta(salida, "/" + UVA_RUTA) == registros
    assert strictly_equal(registros, await respuesta(salida, "/" + UVA_RUTA)) == ""
    hallazgos = calidad(salida)
    assert [(c, r, f) for _, c, _, r, f, _ in hallazgos] == esperado
    for tabla, control, ruta, registro, campo, valor in hallazgos:
        assert tabla == "uva"
        assert ruta == ("/" + UVA_RUTA if control != "clave repetida" else None)
        assert f"aviso: uva: {control}" in err  # one warning line per dataset and check, with a count
    with sqlite3.connect(salida) as con:
        ((archivos, registros_fuente),) = con.execute(
            "SELECT count(*), sum(registros) FROM fuentes WHERE tabla = 'uva'"
        ).fetchall()
    assert (archivos, registros_fuente) == (1, len(registros))


def test_a_wrong_type_is_not_written_into_the_typed_column(capsys, tmp_path):
    """A researcher's SUM over valor must not meet text: the odd value's column is NULL (and reported), and the
    file as upstream published it, the odd value in it, is in the store /v1 answers from."""
    fuente = tmp_path / "fuente"
    published = [UVA[0], {"fecha": "2016-04-01", "valor": "14,06"}]
    write_file(fuente, UVA_RUTA, published)
    construir(capsys, fuente, tmp_path / "a.db")
    with sqlite3.connect(tmp_path / "a.db") as con:
        rows = con.execute("SELECT valor, typeof(valor) FROM uva ORDER BY fecha").fetchall()
        stored = publicados.body(con, "/" + UVA_RUTA.strip("/"))
    assert rows == [(14.05, "real"), (None, "null")]
    assert stored is not None and json.loads(stored) == published


def test_one_warning_per_dataset_and_field_with_a_count(capsys, tmp_path):
    fuente = tmp_path / "fuente"
    write_file(fuente, UVA_RUTA, [{**r, "nuevo": i} for i, r in enumerate(UVA)] + [{"fecha": "2016-04-02", "valor": 1}])
    err = construir(capsys, fuente, tmp_path / "a.db", "--detalle")
    avisos = [line for line in err.splitlines() if line.startswith("aviso:")]
    assert avisos == ["aviso: uva: campo no declarado «nuevo» en 2 registros"]
    assert "3 hallazgos de calidad" in err  # and the series ends in 2016: «serie atrasada», without a warning


def _add_unknown_fields(records: list) -> list:
    """A new top-level field on every other record, and a new field inside nested objects."""
    for i, record in enumerate(records):
        if i % 2 == 0:
            record["campoNuevo"] = {"valor": i, "lista": [1, "dos", None]}
        for tasa in record.get("tasas") or []:
            tasa["otroCampo"] = True
    return records


@pytest.mark.mirror
@pytest.mark.parametrize(
    "ruta",
    [
        "v1/finanzas/tasas/plazoFijo",  # nested child tables
        "v1/finanzas/fci/rentaFija/ultimo",  # lookups, partitions
        "v1/cotizaciones/dolares/blue",  # the column-at-a-time fast path
    ],
)
async def test_unknown_fields_in_a_copy_of_a_real_file_come_back_exactly(capsys, tmp_path, ruta):
    original = UPSTREAM / ruta / "index.json"
    if not original.exists():
        pytest.skip(f"the mirror has no {ruta}")
    fuente = tmp_path / "fuente"
    datos = _add_unknown_fields(orjson.loads(original.read_bytes()))
    write_file(fuente, ruta, orjson.dumps(datos))
    salida = tmp_path / "a.db"

    err = construir(capsys, fuente, salida, "--detalle")

    assert strictly_equal(datos, await respuesta(salida, "/" + ruta), "/" + ruta) == ""
    assert "campo no declarado «campoNuevo»" in err
    campos = {campo for _, control, _, _, campo, _ in calidad(salida) if control == "campo no declarado"}
    assert "campoNuevo" in campos


@pytest.mark.mirror
async def test_an_empty_fci_day_is_stored_and_answers_an_empty_list(db_path, ds):
    with sqlite3.connect(db_path) as con:
        vacios = [
            r[0]
            for r in con.execute(
                "SELECT ruta FROM fuentes WHERE tabla = 'fci_valores' AND registros = 0 ORDER BY ruta LIMIT 3"
            )
        ]
    if not vacios:
        pytest.skip("the mirror has no empty FCI day")
    for ruta in vacios:
        r = await ds.client.get(ruta)
        assert r.status_code == 200 and r.json() == []
    # a day with no file at all is still a 404
    r = await ds.client.get("/v1/finanzas/fci/mercadoDinero/2001/01/01")
    assert r.status_code == 404
