"""The README and the pages of docs/ link to each other: every relative link names a file that exists
and, with a #fragment, a heading of that file, as GitHub writes its anchors. No ../shared needed."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from paths import REPO

PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where a bracket is not a link."""
    lines, fenced = [], False
    for line in text.split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(lines)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lowercase, markup and punctuation dropped (letters with their
    accents, digits, hyphens and underscores stay), each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading counts by its text
    text = unicodedata.normalize("NFC", text).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LMN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a Markdown file's headings; a repeated one gets -1, -2, ... as on GitHub."""
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in path.read_text(encoding="utf-8").split("\n"):
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if m:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def links(path: Path) -> list[str]:
    text = prose(path.read_text(encoding="utf-8"))
    return INLINE_LINK.findall(text) + REFERENCE_LINK.findall(text)


def broken_links(path: Path) -> list[str]:
    """Each relative link of a Markdown file that points nowhere, with why."""
    broken = []
    for target in links(path):
        if SCHEME.match(target) or target.startswith("//"):
            continue  # http(s), mailto: not this test's business
        file_part, _, fragment = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            broken.append(f"{target}: no existe {linked}")
        elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
            broken.append(f"{target}: {linked.name} no tiene el título #{fragment}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_points_somewhere(page):
    assert not broken_links(page), f"{page.relative_to(REPO)}: enlaces rotos: {broken_links(page)}"


def test_the_readme_links_every_docs_page():
    linked = {(REPO / t.partition("#")[0]).resolve() for t in links(REPO / "README.md") if not SCHEME.match(t)}
    missing = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert not missing, f"README.md no enlaza estas páginas de docs/: {missing}"


def test_slugs_as_github_writes_them():
    assert slug("API /v1") == "api-v1"
    assert slug("Rangos, períodos y CSV") == "rangos-períodos-y-csv"
    assert slug("Cómo leer la tabla calidad") == "cómo-leer-la-tabla-calidad"
    assert slug("Lo que upstream pisa, la base lo guarda") == "lo-que-upstream-pisa-la-base-lo-guarda"
    assert slug("`build-db` y sus_opciones") == "build-db-y-sus_opciones"


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "otra.md").write_text("# Otra página\n\n## Una sección\n\n## Una sección\n", encoding="utf-8")
    page = tmp_path / "pagina.md"
    page.write_text(
        "# Página\n\n"
        "[bien](otra.md#una-sección) [repetida](otra.md#una-sección-1) [aquí](#página) [web](https://x.org/#nada)\n"
        "[sin archivo](falta.md) [sin título](otra.md#no-está) [local](#tampoco)\n"
        "```\n[en código](no-cuenta.md)\n```\n"
        "[ref]: otra.md#otra-página\n"
        "[ref rota]: otra.md#otra\n",
        encoding="utf-8",
    )
    assert [b.split(":")[0] for b in broken_links(page)] == [
        "falta.md",
        "otra.md#no-está",
        "#tampoco",
        "otra.md#otra",
    ]


def test_the_docs_count_the_notebooks_there_are():
    """«seis notebooks» outlived the seventh: the README and investigadores.md say how many there are, and list each."""
    notebooks = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
    words = ["uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once", "doce"]
    said = words[len(notebooks) - 1]
    assert f"{said} notebooks" in (REPO / "README.md").read_text()
    guide = (REPO / "docs" / "investigadores.md").read_text()
    assert f"{said.capitalize()} puntos de partida" in guide
    assert all(f"`{name}`" in guide for name in notebooks)
