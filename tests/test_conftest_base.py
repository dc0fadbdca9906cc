"""The notebooks run by pytest read one's own database when $ARGENTINA_DATOS_DB names it; the tests
always read the test database."""

import os
import shutil
import subprocess
import sys

from paths import REPO, TEST_DB

PROBE = """
import os


def test_env(db_path):
    assert os.environ["ARGENTINA_DATOS_DB"] == {own!r}
    assert str(db_path) == {test_db!r}
"""


def test_the_notebooks_keep_ones_own_database_and_the_tests_keep_theirs(tmp_path):
    own = tmp_path / "propia.db"
    # Under tests/, so that the project's conftest files (and their db_path fixture) apply to it.
    where = REPO / "tests" / f"_sonda_{os.getpid()}"
    where.mkdir()
    try:
        (where / "test_sonda.py").write_text(PROBE.format(own=str(own), test_db=str(TEST_DB)))
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", str(where)],
            cwd=REPO,
            env={**os.environ, "ARGENTINA_DATOS_DB": str(own)},
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        shutil.rmtree(where)
    assert "1 passed" in run.stdout, run.stdout + run.stderr
    assert f"notebooks: ARGENTINA_DATOS_DB={own}" in run.stdout
