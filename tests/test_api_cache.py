"""The /v1 response cache's bound counts what the cache really holds: plain and gzip bodies, headers,
objects and the cache's own slots (no mirror: responses made here)."""

import gc
import os
import sys
import tracemalloc

import pytest

from argentina_datos.web.v1.api import ResponseCache, make_response


def body(n: int, seed: int) -> bytes:
    # Compressible like JSON, distinct per entry so that nothing is shared between entries.
    return (b'{"fecha":"2025-01-%02d","valor":%d},' % (seed % 28 + 1, seed)) * (n // 32) + os.urandom(16)


def fill(cache: ResponseCache, count: int, size: int, zipped: bool) -> list:
    keys = []
    for i in range(count):
        key = f"/v1/ruta/{i:06d}"
        r = make_response(200, body(size, i))
        cache.put(key, r)
        r.headers(False)
        if zipped:
            r.gzipped()
            r.headers(True)
            cache.recount(key, r)
        keys.append(key)
    return keys


def measured_bytes_per_entry(count: int, size: int, zipped: bool) -> tuple[float, float]:
    """(traced bytes, counted bytes) per cached entry, for `count` entries of `size`-byte bodies."""
    cache = ResponseCache(max_bytes=1 << 40)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        keys = fill(cache, count, size, zipped)
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    del keys  # the keys the cache holds are counted; this list of them is not
    traced -= sys.getsizeof([None] * count)
    return traced / count, cache.size / count


@pytest.mark.parametrize("size", [0, 200, 5000])
def test_the_bound_counts_what_small_entries_really_hold(size):
    # Small answers are where the overhead matters: a 200-byte body sits in ~1.2 KB of objects. The
    # count never falls short, and overshoots by little (it counts both encodings' header lists,
    # whether or not a client asked for gzip yet): a bound, not a pin to this Python's object sizes.
    for zipped in (False, True):
        traced, counted = measured_bytes_per_entry(2000, size, zipped)
        assert traced <= counted <= 2 * traced, (zipped, traced, counted)


def test_the_bound_counts_large_bodies_and_their_gzip_form():
    traced, counted = measured_bytes_per_entry(20, 200_000, True)
    assert 0.95 * traced <= counted <= 1.05 * traced, (traced, counted)


def test_the_gzip_body_is_counted_once_made():
    cache = ResponseCache()
    r = make_response(200, body(100_000, 1))
    cache.put("/a", r)
    plain = cache.size
    r.gzipped()
    cache.recount("/a", r)
    assert cache.size - plain == sys.getsizeof(r.gzipped())
    cache.recount("/a", r)  # counting again changes nothing
    assert cache.size - plain == sys.getsizeof(r.gzipped())


def test_making_gzip_bodies_evicts_to_stay_within_the_bound():
    probe = ResponseCache()
    r = make_response(200, body(50_000, 0))
    plain = probe.weight("/v1/ruta/000000", r)
    cache = ResponseCache(max_bytes=10 * plain)
    keys = fill(cache, 10, 50_000, zipped=False)
    assert len(cache.items) == 10 and cache.size <= cache.max_bytes
    for key in keys[5:]:
        response = cache.get(key)
        assert response is not None
        response.gzipped()
        cache.recount(key, response)
        assert cache.size <= cache.max_bytes
    # The oldest answers went to make room; the ones just used stay.
    assert cache.get(keys[0]) is None and all(cache.get(k) is not None for k in keys[5:])
    assert cache.size == sum(w for _, w in cache.items.values())


def test_an_answer_larger_than_the_bound_is_not_kept():
    cache = ResponseCache(max_bytes=10_000)
    cache.put("/grande", make_response(200, body(20_000, 0)))
    assert cache.get("/grande") is None and cache.size == 0


def test_a_replaced_answer_is_not_recounted():
    cache = ResponseCache()
    old, new = make_response(200, body(1000, 1)), make_response(200, body(1000, 2))
    cache.put("/a", old)
    size = cache.size
    new.gzipped()
    cache.recount("/a", new)  # not the response the cache holds for /a
    assert cache.size == size and cache.get("/a") is old
