"""What serve-datos writes to its log: --log-json's line per request, the switch to a new build
(web/registro.py, web/recarga.py)."""

from __future__ import annotations

import json
import time

import pytest
from ayudas import write_file
from servidor_datos import ServeDatos

from argentina_datos.construccion import cli
from argentina_datos.web import registro

UVA = "v1/finanzas/indices/uva"
ROWS = [{"fecha": "2016-03-31", "valor": 14.05}]


def test_a_line_has_every_field():
    scope = {
        "method": "GET",
        "path": "/v1/feriados/2025",
        "query_string": b"formato=csv",
        "headers": [(b"user-agent", b"curl/8.0")],
        "client": ("10.0.0.9", 5000),
    }
    record = json.loads(registro.line(scope, 200, 1234, time.perf_counter() - 0.0125))
    assert set(record) == {"hora", "metodo", "ruta", "estado", "bytes", "ms", "agente", "cliente"}
    assert record["ruta"] == "/v1/feriados/2025?formato=csv" and record["estado"] == 200
    assert record["bytes"] == 1234 and 12 <= record["ms"] < 1000 and record["agente"] == "curl/8.0"
    assert record["hora"].endswith("Z") and record["cliente"] == "10.0.0.9"


@pytest.mark.lento
def test_the_server_logs_each_request_as_json_and_the_switch(tmp_path):
    fuente, out = tmp_path / "fuente", tmp_path / "argentina.db"
    write_file(fuente, UVA, ROWS)
    assert cli.main(["--source", str(fuente), "--output", str(out)]) == 0
    with ServeDatos(out, args=("--log-json",)) as srv:
        status, _, body = srv.get(f"/{UVA}?desde=2016-01-01", headers={"User-Agent": "prueba/1"})
        assert status == 200
        assert srv.get("/no-existe")[0] == 404
        write_file(fuente, UVA, ROWS + [{"fecha": "2016-04-01", "valor": 14.06}])
        assert cli.main(["--source", str(fuente), "--output", str(out)]) == 0
        time.sleep(1.1)  # the server looks for a new file at most once a second
        assert len(json.loads(srv.get(f"/{UVA}")[2])) == 2
        time.sleep(0.5)
        log = srv.log_text()
    records = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    first = next(r for r in records if r["ruta"] == f"/{UVA}?desde=2016-01-01")
    assert first["metodo"] == "GET" and first["estado"] == 200 and first["bytes"] == len(body)
    assert first["agente"] == "prueba/1" and first["ms"] >= 0
    assert any(r["ruta"] == "/no-existe" and r["estado"] == 404 for r in records)
    assert f"INFO argentina_datos.web.recarga: cambio a la base nueva {out}" in log
    assert "abierta en los hilos de SQL en" in log
