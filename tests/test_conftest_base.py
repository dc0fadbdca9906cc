"""The notebooks run by pytest read one's own database when $ARGENTINA_DATOS_DB names it; the tests
always read the test database (conftest.py's hooks, called as pytest calls them)."""

import importlib.util
from types import SimpleNamespace

from paths import REPO, TEST_DB

# The project's root conftest.py (``import conftest`` finds tests/conftest.py first).
_spec = importlib.util.spec_from_file_location("conftest_raiz", REPO / "conftest.py")
assert _spec is not None and _spec.loader is not None
conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conftest)


def _configure() -> None:
    conftest.pytest_configure(SimpleNamespace(option=SimpleNamespace()))


def test_the_notebooks_keep_ones_own_database(monkeypatch, tmp_path):
    own = str(tmp_path / "propia.db")
    monkeypatch.setenv("ARGENTINA_DATOS_DB", own)
    _configure()
    assert conftest.pytest_report_header(None) == f"notebooks: ARGENTINA_DATOS_DB={own}; pruebas: {TEST_DB}"


def test_without_one_the_notebooks_read_the_test_database(monkeypatch):
    monkeypatch.delenv("ARGENTINA_DATOS_DB", raising=False)
    _configure()
    assert conftest.pytest_report_header(None).startswith(f"notebooks: ARGENTINA_DATOS_DB={TEST_DB};")


def test_the_tests_read_the_test_database_whatever_the_notebooks_read(db_path):
    assert db_path == TEST_DB
