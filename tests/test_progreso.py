"""Progress: one line per dataset in logs, a bar per dataset on a terminal."""

import io
import json
import re

import pytest
from rich.console import Console

from argentina_datos.construccion import cli
from argentina_datos.construccion.constructor import Builder
from argentina_datos.construccion.fuentes import DirectorySource


@pytest.fixture
def fuente(tmp_path):
    root = tmp_path / "fuente"
    for route, data in {
        "v1/feriados/2025": [
            {"fecha": "2025-01-01", "tipo": "inamovible", "nombre": "Año nuevo"},
            {"fecha": "2025-03-03", "tipo": "inamovible", "nombre": "Carnaval"},
        ],
        "v1/feriados/2026": [{"fecha": "2026-01-01", "tipo": "inamovible", "nombre": "Año nuevo"}],
        "v1/finanzas/indices/uva": [{"fecha": "2016-03-31", "valor": 14.05}],
        "v1/finanzas/indices/inflacion": [{"fecha": "2016-03-31", "valor": "mal"}],
        "v1/finanzas/indices/riesgo-pais": "<html>",
    }.items():
        (root / route).mkdir(parents=True)
        (root / route / "index.json").write_text(data if isinstance(data, str) else json.dumps(data))
    return root


def test_without_a_terminal_one_line_per_dataset(fuente, tmp_path, capsys):
    code = cli.main(["--source", str(fuente), "--output", str(tmp_path / "a.db"), "--keep-going", "--detalle"])
    lines = capsys.readouterr().err.splitlines()
    assert code == 3  # replaced, with riesgo_pais's file skipped
    assert any(re.fullmatch(r"feriados: 3 filas de 2 archivos en \d+\.\d\d s", ln) for ln in lines)
    assert any(re.fullmatch(r"uva: 1 fila de 1 archivo en \d+\.\d\d s", ln) for ln in lines)
    assert "presidentes: la fuente no lo tiene (sin archivos)" in lines
    assert any(
        re.fullmatch(r"riesgo_pais: 0 filas de 1 archivo en \d+\.\d\d s \(1 archivo omitido\)", ln) for ln in lines
    )
    assert "aviso: inflacion: tipo inesperado «valor» en 1 registro" in lines
    assert not any("\x1b[" in ln for ln in lines)  # no terminal escapes in logs
    assert re.search(r": 5 filas en 4 conjuntos de datos", "\n".join(lines))


@pytest.mark.lento
def test_bar_reporter_draws_a_bar_per_dataset(fuente, tmp_path):
    out = io.StringIO()
    reporter = cli.BarReporter(Console(file=out, force_terminal=True, width=120, color_system=None), detail=True)
    report = Builder(DirectorySource(fuente), tmp_path / "b.db", keep_going=True, reporter=reporter).run()
    reporter.close()
    text = out.getvalue()
    assert [o.table for o in report.outcomes if o.skipped_files] == ["riesgo_pais"]
    assert re.search(r"feriados 3 filas\s+━+\s+2/2", text)
    assert re.search(r"uva 1 fila\s+━+\s+1/1", text)
    assert "riesgo_pais (1 archivo omitido) 0 filas" in text
    assert "aviso: inflacion: tipo inesperado «valor» en 1 registro" in text
    assert "presidentes (falta) 0 filas" in text


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.lento
def test_on_a_terminal_the_command_uses_the_bars(fuente, tmp_path, monkeypatch):
    terminal = FakeTerminal()
    monkeypatch.setattr("sys.stderr", terminal)
    code = cli.main(["--source", str(fuente), "--output", str(tmp_path / "c.db"), "--keep-going"])
    text = terminal.getvalue()
    assert code == 3
    assert "━" in text and "feriados 3 filas" in text
    assert "filas de 2 archivos" not in text  # not the log lines
    assert "Omitidos por error (--keep-going):" in text
