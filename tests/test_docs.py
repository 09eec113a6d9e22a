"""The README and the docs point at what exists: every relative link and its anchor, every path
the architecture and contributing pages name, and an entry for every docs page in the README's
Reference and in the docs' index."""

import re
from pathlib import Path

import pytest

from config import ROOT

DOCS = ROOT / "docs"
INDEX = DOCS / "README.md"
# Each integrations/ folder's README: what it talks to, its modules, how it is tested.
INTEGRATION_READMES = sorted((ROOT / "integrations").glob("*/README.md"))
# The docs pages by reader (docs/using/, docs/running/, docs/changing/), the index apart.
DOCS_PAGES = sorted(page for page in DOCS.rglob("*.md") if page != INDEX)
PAGES = sorted(
    [ROOT / "README.md", ROOT / "CONTRIBUTING.md", INDEX, *DOCS_PAGES]
    + [
        ROOT / "graphs" / "implementation" / "README.md",
        ROOT / "workflows" / "ticket" / "README.md",
        ROOT / "bench" / "quality" / "README.md",
        ROOT / "bench" / "quality" / "HISTORY.md",
        *INTEGRATION_READMES,
    ]
)
# Pages that name the code by path: each backticked repository path must exist.
PATH_PAGES = [DOCS / "changing" / "architecture.md", ROOT / "CONTRIBUTING.md", *INTEGRATION_READMES]
FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\s]+)`")
REPO_PATH = re.compile(r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*/?$")


def prose(page: Path) -> str:
    """A page's text without its fenced blocks (code and diagrams)."""
    return FENCE.sub("", page.read_text(encoding="utf-8"))


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings."""
    found = set()
    for line in prose(page).splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            found.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return found


def broken_links(page: Path) -> list[str]:
    """The page's relative links whose file or heading does not exist."""
    broken = []
    for target in LINK.findall(prose(page)):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(target)
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    assert broken_links(page) == []


@pytest.mark.parametrize("page", PATH_PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_path_a_page_names_exists(page: Path) -> None:
    top_level = {entry.name for entry in ROOT.iterdir()}
    named = [
        text
        for text in CODE.findall(prose(page))
        if REPO_PATH.match(text) and "/" in text.rstrip("/") and text.split("/")[0] in top_level
    ]
    assert named, "the page names no repository path"
    assert [text for text in named if not (ROOT / text).exists()] == []


def test_a_broken_link_or_anchor_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[ok](#title) [gone](missing.md) [no heading](#nowhere)\n")
    assert broken_links(page) == ["missing.md", "#nowhere"]


def test_the_readme_references_every_docs_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    reference = readme.split("## Reference", 1)[1]
    pages = [str(page.relative_to(ROOT)) for page in [INDEX, *DOCS_PAGES]]
    assert [page for page in pages if f"]({page}" not in reference] == []
    assert "](CONTRIBUTING.md)" in reference


def test_the_docs_index_references_every_page() -> None:
    index = INDEX.read_text(encoding="utf-8")
    pages = [str(page.relative_to(DOCS)) for page in DOCS_PAGES]
    assert [page for page in pages if f"]({page}" not in index] == []
    assert "](../CONTRIBUTING.md)" in index
