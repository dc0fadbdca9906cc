"""The layers import only downwards (docs/arquitectura.md «Dónde está cada cosa»):

catalogo (declarations) -> almacen (records <-> rows) -> respuestas (what /v1 means)
-> construccion, documentacion -> web (HTTP only), publicacion (static files)

Every import counts: at the top, inside a function, under TYPE_CHECKING."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from paths import REPO

PACKAGE = REPO / "argentina_datos"
# Each layer and the layers it may import (besides itself).
ALLOWED = {
    "catalogo": set(),
    "almacen": {"catalogo"},
    "respuestas": {"catalogo", "almacen"},
    "construccion": {"catalogo", "almacen", "respuestas"},
    "documentacion": {"catalogo", "almacen", "respuestas"},
    "publicacion": {"catalogo", "almacen", "respuestas", "documentacion"},
    "web": {"catalogo", "almacen", "respuestas", "documentacion"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> set[str]:
    """The argentina_datos modules ``path`` imports (``from x import y`` counts x, and y when y is a module)."""
    tree = ast.parse(path.read_text(), str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            # ``from package import submodule`` runs the package's __init__ too: both count
            out.update(f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES)
            out.add(base)
    return {m for m in out if m.split(".")[0] == "argentina_datos" and m in MODULES}


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}
GRAPH = {m: imports(p) - {m} for m, p in MODULES.items()}


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else "(raíz)"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if layer(m) in ALLOWED))
def test_a_layer_imports_only_the_layers_below(module):
    own = layer(module)
    wrong = sorted(i for i in GRAPH[module] if layer(i) not in ALLOWED[own] | {own, "(raíz)"})
    assert not wrong, f"{module} ({own}) importa {wrong}"


def test_no_module_outside_web_imports_web():
    wrong = sorted((m, i) for m, deps in GRAPH.items() for i in deps if layer(i) == "web" and layer(m) != "web")
    assert not wrong


def test_no_import_cycle_between_files():
    """Tarjan's strongly connected components: a component of more than one file is a cycle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    assert not cycles, cycles


def test_the_graph_is_read():
    """The checks above would pass on an empty graph: the reader must see the imports that exist."""
    assert "argentina_datos.catalogo.esquema" in GRAPH["argentina_datos.almacen.tablas"]
    assert "argentina_datos.respuestas.rutas" in GRAPH["argentina_datos.web.v1.api"]
