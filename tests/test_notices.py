"""The table of what ticketsmith says (docs/using/integrations.md): every row is checked by a test,
a check fails when a text is missing, and the README points at the table."""

import ast
from collections import defaultdict

import pytest

from config import ROOT
from tests.support.notices import MOVED, QUOTED, check_row, rows

ANCHOR = "docs/using/integrations.md#what-ticketsmith-says-and-where"


def checked_rows() -> dict[str, list[str]]:
    """Each row name a test passes to `check_row`, with the files that do."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "check_row"):
                continue
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found[first.value].append(str(path.relative_to(ROOT)))
    return found


def test_every_row_of_the_table_is_checked_by_a_test() -> None:
    checked = checked_rows()
    assert sorted(set(rows()) - set(checked)) == [], "rows no test checks"
    assert sorted(set(checked) - set(rows())) == [], "checks of rows the table does not have"
    assert "tests/e2e/test_review_phase.py" in {f for files in checked.values() for f in files}


def test_every_row_quotes_what_it_posts() -> None:
    for name, row in rows().items():
        cells = (row.jira, row.discord, row.github)
        assert any(QUOTED.findall(cell) for cell in cells) or MOVED.findall(row.jira), name


def test_a_row_fails_when_a_text_or_a_move_is_missing() -> None:
    url = "http://forge/demo/calc/pull/7"
    ready = {
        "jira": [f"Pull request opened: {url}. It changes 1 file and the tests pass."],
        "discord": [f"DEMO-1: pull request ready for review: {url}. The tests pass."],
        "github": ["Resolves DEMO-1: Add power\n\n## Model cost\n\n| phase | tokens |"],
    }
    check_row("pull request ready", **ready, moved=["In Review"])
    with pytest.raises(AssertionError, match="never moved to In Review"):
        check_row("pull request ready", **ready, moved=["Done"])
    draft = ready | {"discord": [f"DEMO-1: draft pull request opened: {url}."]}
    with pytest.raises(AssertionError, match="nothing on Discord says"):
        check_row("pull request ready", **draft, moved=["In Review"])


def test_the_readme_points_at_the_table() -> None:
    assert ANCHOR in (ROOT / "README.md").read_text(encoding="utf-8")
