"""A computed answer is written as upstream writes its files: built from a copy of the quote lists without their
per-date files, each per-date route answers the removed file byte for byte (its indentation, key order, number
text), chosen in SQL from the list and taken from the list's own text."""

from __future__ import annotations

import shutil

import orjson
import pytest
from ayudas import build_tables
from paths import UPSTREAM

from argentina_datos.almacen import publicados
from argentina_datos.catalogo.parametros import DIVISAS
from argentina_datos.web.v1.api import V1

pytestmark = pytest.mark.mirror

LISTS = ["v1/cotizaciones/dolares", "v1/cotizaciones", *(f"v1/cotizaciones/{m}" for m in DIVISAS)]
TABLES = [
    "cotizaciones_dolares",
    "cotizaciones_dolares_fecha",
    "cotizaciones",
    "cotizaciones_fecha",
    "cotizaciones_moneda",
    "cotizaciones_moneda_fecha",
]
# (per-date files of a family, as globs under the mirror's v1/cotizaciones); at most SAMPLE of each, evenly spread
FAMILIES = ["dolares/[0-9]*/*/*", "[0-9]*/*/*", *(f"{m}/[0-9]*/*/*" for m in DIVISAS)]
SAMPLE = 300


@pytest.fixture(scope="module")
def lists_only(tmp_path_factory):
    """(connection, V1) of a build of the quote lists alone: no per-date file."""
    root = tmp_path_factory.mktemp("listas")
    for route in LISTS:
        if not (UPSTREAM / route / "index.json").exists():
            pytest.skip(f"the mirror has no {route}")
        (root / route).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(UPSTREAM / route / "index.json", root / route / "index.json")
    conn = build_tables(root, root.parent / "listas.db", TABLES)
    yield conn, V1()
    conn.close()


@pytest.mark.parametrize("family", FAMILIES)
def test_a_date_without_its_file_is_the_file_upstream_wrote(lists_only, family):
    conn, api = lists_only
    files = sorted((UPSTREAM / "v1/cotizaciones").glob(f"{family}/index.json"))
    assert files, family
    compared = other_records = 0
    failures = []
    for path in files[:: max(1, len(files) // SAMPLE)]:
        route = "/" + str(path.parent.relative_to(UPSTREAM))
        assert publicados.stored(conn, route) is None  # answered from the list, not from a copy of the file
        published = path.read_bytes()
        body = api.compute(conn, route).body
        if orjson.loads(body) != orjson.loads(published):
            other_records += 1  # a few 2019 dollar files list fewer houses than the list: their own bytes elsewhere
            continue
        compared += 1
        # a handful of upstream's files end with a newline, as the list never says: the rest is the same
        if body != published.removesuffix(b"\n"):
            failures.append(f"{route}: {body[:80]!r} != {published[:80]!r}")
    print(f"{family}: {compared} byte-identical, {other_records} with other records")
    assert compared > 10 * other_records
    assert not failures, "\n".join(failures[:5])


def test_a_cut_of_a_list_is_its_records_text_and_an_envelope_holds_it_indented():
    """The texts of a list's records as they are in it, placed at the depth the answer puts them."""
    body = b'[\n  {\n    "a": 1.50e0,\n    "b": [\n      1\n    ]\n  },\n  {\n    "a": 2\n  }\n]'
    texts = publicados.split_records(body, 2)
    assert texts is not None and len(texts) == 2 and texts[1] == b'{\n    "a": 2\n  }'
    first = texts[0]
    assert publicados.at_depth((first, 1), 0) == b'{\n  "a": 1.50e0,\n  "b": [\n    1\n  ]\n}'  # its number text
    assert publicados.list_text([(first, 1)]) == body[: len(first) + 4] + b"\n]"
    assert publicados.list_text([]) == b"[]"
    nested = publicados.written({"x": orjson.Fragment(publicados.list_text([(texts[1], 1)], 2)), "y": []})
    assert nested == b'{\n  "x": [\n    {\n      "a": 2\n    }\n  ],\n  "y": []\n}'
    assert orjson.loads(nested) == {"x": [{"a": 2}], "y": []}
    # a count that does not match (a record that is no object), or a compact file: the caller writes them
    assert publicados.split_records(body, 3) is None
    assert publicados.split_records(b'[{"a":1}]', 1) is None
    envelope = b'{\n  "n": 1,\n  "lista": [\n    {\n      "a": 1\n    }\n  ]\n}'
    assert list(publicados.split_records(envelope, 1, "lista") or ()) == [b'{\n      "a": 1\n    }']
    empty = publicados.split_records(b'{\n  "n": 0,\n  "lista": []\n}', 0, "lista")
    assert empty is not None and len(empty) == 0
