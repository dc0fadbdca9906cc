import sqlite3
from pathlib import Path

import pytest
from paths import TEST_DB


@pytest.fixture(scope="session")
def db_path() -> Path:
    # Always the test database built from the mirror: $ARGENTINA_DATOS_DB is the notebooks' (conftest.py).
    return TEST_DB


@pytest.fixture(scope="session")
def conn(db_path):
    c = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    yield c
    c.close()


@pytest.fixture(scope="session")
def ds(db_path):
    from argentina_datos.web.servidor import datasette_for

    return datasette_for(db_path)


@pytest.fixture(scope="module")
def v1_response(db_path):
    """route -> the /v1 Response computed on the built database (no HTTP, no cache)."""
    from argentina_datos.web.v1.api import V1

    c = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    api = V1()
    yield lambda route: api.compute(c, route)
    c.close()


@pytest.fixture(scope="module")
def v1(v1_response):
    """route -> (status, parsed body) of its /v1 answer."""
    import orjson

    def answer(route: str):
        response = v1_response(route)
        return response.status, orjson.loads(response.body)

    return answer
