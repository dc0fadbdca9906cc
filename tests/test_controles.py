"""The quality checks are declared once (almacen/controles.py): the docs' table, the calidad column's
description and the rows the build writes all follow that declaration."""

import dataclasses

import pytest

from argentina_datos.almacen import controles
from argentina_datos.almacen.propias import CALIDAD
from argentina_datos.documentacion import tabla_controles as doc


def test_the_docs_table_is_current():
    page = doc.PAGE.read_text(encoding="utf-8")
    assert doc.with_table(page) == page, (
        "la tabla de controles de docs/investigadores.md no está al día: "
        "python -m argentina_datos.documentacion.tabla_controles"
    )


def test_every_check_has_one_declaration_in_the_docs_and_the_column():
    names = [c.name for c in controles.CONTROLS]
    assert len(names) == len(set(names))
    table = doc.markdown_table()
    description = next(f.metadata["description"] for f in dataclasses.fields(CALIDAD.row) if f.name == "control")
    for name in names:
        assert f"| {name} |" in table
        assert name in description


@pytest.mark.mirror
def test_the_build_writes_only_declared_checks(conn):
    declared = {c.name for c in controles.CONTROLS}
    written = {r[0] for r in conn.execute("SELECT DISTINCT control FROM calidad")}
    assert written and written <= declared, written - declared
