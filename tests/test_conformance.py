"""Conformance: every route the mirror has answers exactly the mirror's JSON.

Parsed JSON is compared strictly: same list order, same keys in the same order (an omitted key is
not a null), same values and the same types (1 is not 1.0, true is not 1).
"""

import re

import orjson
import pytest
from paths import UPSTREAM


def strictly_equal(a, b, where="") -> str:
    """'' when equal; otherwise where and how they first differ."""
    if type(a) is not type(b):
        return f"{where}: tipo {type(a).__name__} != {type(b).__name__} ({a!r:.60} vs {b!r:.60})"
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return f"{where}: claves {sorted(set(a) ^ set(b))} difieren"
        if list(a) != list(b):
            return f"{where}: orden de las claves {list(a)} != {list(b)}"
        for k in a:
            d = strictly_equal(a[k], b[k], f"{where}.{k}")
            if d:
                return d
        return ""
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{where}: largo {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = strictly_equal(x, y, f"{where}[{i}]")
            if d:
                return d
        return ""
    return "" if a == b else f"{where}: {a!r:.60} != {b!r:.60}"


def answer_difference(route: str, status: int, body: bytes, expected) -> str:
    """'' when ``route`` answered 200 with exactly ``expected``; otherwise what differs."""
    if status != 200:
        return f"{route}: HTTP {status} {body[:120].decode(errors='replace')}"
    # The same bytes as orjson's text of ``expected`` (which keeps key order, 1 apart from 1.0 and true from 1)
    # parse to exactly it: decided in C for nearly every route, the walk below names what differs.
    if body == orjson.dumps(expected):
        return ""
    return strictly_equal(expected, orjson.loads(body), route)


def test_strict_comparison_catches_what_matters():
    assert strictly_equal({"a": 1}, {"a": 1}) == ""
    assert strictly_equal({"a": 1}, {"a": 1.0})
    assert strictly_equal({"a": True}, {"a": 1})
    assert strictly_equal({"a": None}, {})
    assert strictly_equal([1, 2], [2, 1])
    assert strictly_equal({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert strictly_equal({"x": {"a": 1, "b": 2}}, {"x": {"b": 2, "a": 1}})
    assert answer_difference("/x", 200, b'{"a":1}', {"a": 1}) == ""
    assert answer_difference("/x", 200, b'{ "a": 1 }', {"a": 1}) == ""  # other spacing: the walk decides
    assert answer_difference("/x", 200, b'{"a":1.0}', {"a": 1})
    assert answer_difference("/x", 200, b'{"b":2,"a":1}', {"a": 1, "b": 2})
    assert answer_difference("/x", 404, b'{"a":1}', {"a": 1})


MIRROR_FILES = sorted(UPSTREAM.glob("v1/**/index.json"))


@pytest.mark.mirror
def test_mirror_is_there():
    assert len(MIRROR_FILES) > 100


def served_by_endpoint(router, route: str) -> bool:
    """Whether a catalogue endpoint takes this route (its parameters valid), rather than the
    verbatim documents table."""
    from argentina_datos.respuestas.respuesta import ApiError

    try:
        endpoint, match = router.match(route)
        endpoint.parse(match)
    except ApiError:
        return False
    return True


async def test_whole_mirror_conforms(ds):
    """Every file of the mirror is a route we answer with exactly that file's bytes (whitespace included). Files
    of routes no catalogue dataset describes yet are answered all the same: they are listed."""
    from argentina_datos.respuestas.rutas import Router

    router = Router()
    failures, as_documents, total = [], [], 0
    for path in MIRROR_FILES:
        route = "/" + str(path.parent.relative_to(UPSTREAM))
        if not served_by_endpoint(router, route):
            as_documents.append(route)
        expected = path.read_bytes()
        response = await ds.client.get(route)
        total += 1
        if response.status_code != 200 or response.content != expected:
            diff = answer_difference(route, response.status_code, response.content, orjson.loads(expected))
            failures.append(diff or f"{route}: the same JSON, other bytes")
    families = sorted({re.sub(r"/[0-9][^/]*", "/N", r) for r in as_documents})
    print(
        f"conformance: {total - len(failures)}/{total} byte-identical; {len(as_documents)} of them with no "
        f"catalogue dataset yet, in {len(families)} families:\n  " + "\n  ".join(families)
    )
    assert total == len(MIRROR_FILES) > 100
    assert not failures, f"{len(failures)}/{total} routes differ:\n" + "\n".join(failures[:40])


async def test_a_gzip_client_gets_the_stored_compressed_bytes(ds, conn, v1_response):
    from argentina_datos.almacen import publicados

    route = "/v1/cotizaciones/dolares"
    response = await ds.client.get(route, headers={"Accept-Encoding": "gzip"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.content == (UPSTREAM / route.strip("/") / "index.json").read_bytes()
    stored = publicados.stored(conn, route)
    assert stored is not None and int(response.headers["content-length"]) == len(stored)
    # the response carries the build's compressed bytes from the start: nothing is compressed per request
    assert v1_response(route)._gzipped == stored
