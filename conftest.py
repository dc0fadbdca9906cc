"""The test database, built once per run from the mirror in ../shared (or $ARGENTINA_DATOS_SOURCE),
only when a selected test needs it.

A test needs the mirror when it uses the built database (the fixtures db_path, conn, ds), is a
notebook, or says so with ``@pytest.mark.mirror``: those are marked ``mirror``, so that
``pytest -m "not mirror"`` runs the unit tests on their own small fixtures with ../shared absent.
The tests read the test database; the notebooks read $ARGENTINA_DATOS_DB, which their kernels
inherit: one's own argentina.db when it is set, else the test database (the header of the run says
which).  An unchanged source makes the build a ~1 s check.
"""

import fcntl
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))

from paths import BUNDLE, HISTORY, REFERENCES, TEST_DB, UPSTREAM  # noqa: E402

MIRROR_FIXTURES = {"db_path", "conn", "ds"}


def pytest_configure(config):
    os.environ.setdefault("ARGENTINA_DATOS_DB", str(TEST_DB))
    # A stale git source asks the public API whether it is fresher (construccion/fuente_fresca.py): in the tests,
    # a closed port on this machine answers instead, so no test ever reaches the internet.
    os.environ.setdefault("ARGENTINA_DATOS_API", "http://127.0.0.1:9")
    # A `python3` kernelspec elsewhere on the Jupyter path (~/.local/share/jupyter, $JUPYTER_PATH) would
    # win over the venv's and run the notebooks with another interpreter: use the one running pytest.
    if hasattr(config.option, "nbval_current_env") and not config.option.nbval_kernel_name:
        config.option.nbval_current_env = True


def pytest_report_header(config):
    return f"notebooks: ARGENTINA_DATOS_DB={os.environ['ARGENTINA_DATOS_DB']}; pruebas: {TEST_DB}"


def needs_mirror(item) -> bool:
    return (
        item.get_closest_marker("mirror") is not None
        or bool(MIRROR_FIXTURES & set(getattr(item, "fixturenames", ())))
        or str(item.fspath).endswith(".ipynb")
    )


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    # tryfirst: the marks must be on the items before `-m` deselects by them.
    for item in items:
        if needs_mirror(item):
            item.add_marker(pytest.mark.mirror)
    # The files with slow tests (nginx, a browser, real servers) first, each file's tests in their order: pytest-xdist
    # (scripts/test.sh: --dist loadscope --no-loadscope-reorder) hands out files in this order, so the longest start
    # at once instead of ending the run alone on one core while the other waits.
    slow = {item.path for item in items if item.get_closest_marker("lento") is not None}
    items.sort(key=lambda item: item.path not in slow)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    if any(needs_mirror(item) for item in session.items) and not just_built():
        build_test_database()


def just_built() -> bool:
    """scripts/test.sh has just built the test database (and names it): no worker checks it again."""
    built = os.environ.get("ARGENTINA_DATOS_TEST_DB_BUILT")
    return bool(built) and Path(built).resolve() == TEST_DB.resolve() and TEST_DB.is_file()


def build_test_database() -> None:
    from argentina_datos.construccion.constructor import Builder, BuildError
    from argentina_datos.construccion.fuentes import DirectorySource, SourceError

    if not (UPSTREAM / "v1").is_dir():
        pytest.exit(
            f"error: estas pruebas necesitan el espejo de upstream en {UPSTREAM} (o $ARGENTINA_DATOS_SOURCE); "
            'sin él, corra pytest -m "not mirror"',
            returncode=1,
        )
    TEST_DB.parent.mkdir(parents=True, exist_ok=True)
    # Under pytest-xdist every worker collects and gets here: the first builds (or finds the database up to
    # date) while the others wait on this lock, instead of being refused by the build's own one.
    with open(TEST_DB.with_name(TEST_DB.name + ".pytest-lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            Builder(
                DirectorySource(UPSTREAM, HISTORY),
                TEST_DB,
                bundle=BUNDLE if BUNDLE.is_file() else None,
                references=REFERENCES if REFERENCES.is_file() else None,
            ).run()
        except (BuildError, SourceError) as e:  # the build's one-line error, not an INTERNALERROR traceback
            pytest.exit(f"error: no se pudo construir la base de prueba {TEST_DB}: {e}", returncode=1)
