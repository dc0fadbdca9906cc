import os
import sqlite3
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def db_path() -> Path:
    return Path(os.environ["ARGENTINA_DATOS_DB"])


@pytest.fixture(scope="session")
def conn(db_path):
    c = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    yield c
    c.close()


@pytest.fixture(scope="session")
def ds(db_path):
    from argentina_datos.web.servidor import datasette_for

    return datasette_for(db_path)
