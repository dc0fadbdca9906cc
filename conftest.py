"""Builds the test database once per run, from the mirror in ../shared (or $ARGENTINA_DATOS_SOURCE).

The notebooks' kernels inherit ARGENTINA_DATOS_DB from here, so `pytest --nbval-lax notebooks/`
runs them against the same database.  An unchanged source makes this a ~1 s check.
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tests"))

from paths import HISTORY, TEST_DB, UPSTREAM  # noqa: E402


def pytest_configure(config):
    import pytest

    from argentina_datos.construir import Builder, BuildError
    from argentina_datos.fuentes import DirectorySource, SourceError

    if not (UPSTREAM / "v1").is_dir():
        raise SystemExit(f"tests need the upstream mirror at {UPSTREAM} (set ARGENTINA_DATOS_SOURCE)")
    try:
        Builder(DirectorySource(UPSTREAM, HISTORY), TEST_DB).run()
    except (BuildError, SourceError) as e:  # the build's one-line error, not an INTERNALERROR traceback
        pytest.exit(f"error: no se pudo construir la base de prueba {TEST_DB}: {e}", returncode=1)
    os.environ["ARGENTINA_DATOS_DB"] = str(TEST_DB)
    # A `python3` kernelspec elsewhere on the Jupyter path (~/.local/share/jupyter, $JUPYTER_PATH) would
    # win over the venv's and run the notebooks with another interpreter: use the one running pytest.
    if hasattr(config.option, "nbval_current_env") and not config.option.nbval_kernel_name:
        config.option.nbval_current_env = True
