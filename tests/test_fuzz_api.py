"""schemathesis against /v1/openapi.json: every check, on the real server (serve-datos on 127.0.0.1),
for a bounded time; any finding fails the test.

The checks include negative data (a value outside the document's bounds must get a 4xx) and positive
data (a value inside them must not get a 400): together they hold the document to exactly what the
server accepts. $ARGENTINA_DATOS_FUZZ_SECONDS changes the time budget (default 45 s: every phase, ~2,600 cases
on a quiet machine; a longer run, e.g. 600 s, goes through the whole coverage phase).
"""

import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from servidor_datos import ServeDatos

from argentina_datos.respuestas.consulta import PARAMETERS

FUZZ_SECONDS = int(os.environ.get("ARGENTINA_DATOS_FUZZ_SECONDS", "45"))
SEED = 20251123  # a fixed seed: a finding reproduces on the next run


def test_the_hooks_leave_out_only_the_queries_the_server_ignores_or_cannot_be_told():
    import fuzz_hooks

    operation = SimpleNamespace(operation=None)
    assert fuzz_hooks.filter_query(operation, {"desde": "2024-01-01", "agrupar": "mes", "funcion": "maximo"})
    assert fuzz_hooks.filter_query(operation, {})
    # a member of ajuste that is not one of its own, exploded into the query string (a long run found it)
    assert not fuzz_hooks.filter_query(operation, {"Pj*[X]": "-397", "desde": "2024-01-01"})
    assert not fuzz_hooks.filter_query(operation, {"ajuste": "true"})
    assert not fuzz_hooks.filter_query(operation, {"desde": "2025-01-02", "hasta": "2025-01-01"})
    assert fuzz_hooks.DECLARED >= {p.name for p in PARAMETERS} | {"ids", "tema"}


@pytest.mark.lento
def test_schemathesis_finds_nothing(db_path, tmp_path):
    st = Path(sys.executable).with_name("st")
    with ServeDatos(db_path) as server:
        cmd = [
            str(st),
            "run",
            f"{server.url}/v1/openapi.json",
            "--checks",
            "all",
            "--max-time",
            str(FUZZ_SECONDS),
            "--seed",
            str(SEED),
            "--request-timeout",
            "30",
            "--report",
            "junit",
            "--report-dir",
            str(tmp_path),
        ]
        out = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=FUZZ_SECONDS + 300,
            # fuzz_hooks.py: the rules between parameters that OpenAPI cannot state
            env={
                **os.environ,
                "NO_COLOR": "1",
                "SCHEMATHESIS_HOOKS": "fuzz_hooks",
                "ARGENTINA_DATOS_FUZZ_DB": str(db_path),  # the ids of its catalogue of series (fuzz_hooks.py)
                "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")])),
            },
        )
        text = out.stdout + out.stderr
        print(text[-3000:])
        assert out.returncode == 0, text[-20000:]
        generated = re.search(r"(\d+) generated, (\d+) passed", text)
        assert generated, text[-3000:]
        # Not a run that stopped early: every operation with cases (2,638 in 45 s on a quiet 2-core machine; a
        # machine twice as slow, or busy with other tests, gives fewer: the bound leaves room).
        assert int(generated.group(1)) == int(generated.group(2)) >= 500, generated.group(0)
        assert re.search(r"Tested: (\d+)", text) and "Tested: 0" not in text
        log = server.log_text()
        assert "Traceback" not in log, log[-3000:]
