"""What the tests say, honestly: own tests apart from new ones, what fails, and which test
exercises each acceptance criterion."""

import ast
import re
import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from graphs.implementation.diagnose.failures import test_source
from graphs.implementation.revision import file_text
from graphs.implementation.tester.best import Standing
from graphs.implementation.worker.window import code_names
from graphs.schemas import (
    CriterionCoverage,
    FileChange,
    TestReport,
)

MAX_FAILING = 10
_LITERALS = re.compile(r"`([^`]+)`|\"([^\"]+)\"|'([^']+)'|\b(\d+(?:\.\d+)?)\b")
_CALLS = re.compile(r"\b([A-Za-z_]\w*)\(")
# A stated result: "`f(x)` returns `y`"; a test covers it only if it shows y.
_STATED_RESULT = re.compile(r"\)`\s+(?:returns|gives|is)\s+`([^`]+)`")
_VALUE_PARTS = re.compile(r"[\s()\[\]{},:=]+")


def first_line(text: str, limit: int = 200) -> str:
    """The first line of a message, bounded."""
    lines = text.strip().splitlines()
    return lines[0][:limit] if lines else ""


def criterion_names(criterion: str) -> set[str]:
    """The code names a criterion spells: calls, dotted and snake_case names, `quoted` names."""
    found = {name for name in code_names(criterion) if len(name) > 2}
    found.update(name for name in _CALLS.findall(criterion) if len(name) > 2)
    return found


def criterion_terms(criterion: str) -> set[str]:
    """The names, quoted literals and numbers a criterion spells, as a test would use them."""
    found = criterion_names(criterion)
    for match in _LITERALS.finditer(criterion):
        literal = next(group for group in match.groups() if group)
        found.update(part for part in re.split(r"[\s(),=]+", literal) if part)
    return found


def spells(source: str, name: str) -> bool:
    """Whether source code uses the name itself, not a longer one that starts with it."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", source) is not None


def shows_stated_results(criterion: str, source: str) -> bool:
    """Whether the test's source spells every part of a result the criterion states (of one
    of them, when it states several: `f(1)` is `a`, `f(2)` is `b`), or it states none."""
    stated = _STATED_RESULT.findall(criterion)
    return not stated or any(
        all(spells(source, part) for part in _VALUE_PARTS.split(value) if part) for value in stated
    )


def written_for(source: str) -> str | None:
    """The criterion a test says it was written for: its docstring (error tests carry it)."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError):
        return None
    first = tree.body[0] if tree.body else None
    if isinstance(first, ast.FunctionDef | ast.AsyncFunctionDef):
        return ast.get_docstring(first)
    return None


def covering_test(
    criterion: str, report: TestReport, sources: dict[str, str], criteria: Iterable[str] = ()
) -> tuple[str | None, bool | None]:
    """The test written for the criterion (its docstring; a failing one first when several
    are), else the one whose source calls a name the criterion spells, uses most of its terms
    and shows the results it states."""
    others = {c.strip() for c in criteria} - {criterion.strip()}
    failed = {f.test_id for f in report.failed_tests}
    ran = [*report.passed_tests, *sorted(failed)]
    written = [t for t in ran if written_for(sources.get(t, "")) == criterion.strip()]
    if written:  # of several tests of one criterion, a failing one speaks for it
        failing = [t for t in written if t in failed]
        return (failing[0], False) if failing else (written[0], True)
    terms, names = criterion_terms(criterion), criterion_names(criterion)
    if not names:  # without a name to call, any test with the same numbers would "cover" it
        return None, None
    needed = min(2, len(terms))
    best: tuple[int, str] | None = None
    for test_id in [*report.passed_tests, *sorted(failed)]:
        source = sources.get(test_id)
        if not source or written_for(source) in others:
            continue  # a test written for another criterion covers that one
        score = sum(term in source for term in terms)
        if (
            any(spells(source, name) for name in names)
            and score >= needed
            and shows_stated_results(criterion, source)
            and (best is None or score > best[0])
        ):
            best = (score, test_id)
    if best is None:
        return None, None
    return best[1], best[1] not in failed


def test_sources(
    report: TestReport, repo_dir: Path, files: dict[str, FileChange]
) -> dict[str, str]:
    """The source of every test of the run, by id."""
    texts: dict[str, str] = {}
    sources: dict[str, str] = {}
    for test_id in [*report.passed_tests, *(f.test_id for f in report.failed_tests)]:
        path = test_id.split("::", 1)[0]
        if path not in texts:
            texts[path] = file_text(repo_dir, files, path)
        found = test_source(test_id, path, texts[path])
        if found:
            sources[test_id] = found
    return sources


def test_accounts(
    repo_dir: Path,
    changes: list[FileChange],
    report: TestReport | None,
    best: Standing | None,
    criteria: list[str],
) -> dict[str, Any]:
    """The Implementation fields that account for the tests: counts, failures, criteria."""
    if report is None or not report.counted:
        return {"criteria": [CriterionCoverage(criterion=c) for c in criteria]}
    own = set(best.own) if best is not None else set()
    own_passed = sum(t in own for t in report.passed_tests)
    own_failed = sum(f.test_id in own for f in report.failed_tests)
    sources = test_sources(report, repo_dir, {c.path: c for c in changes})
    coverage = []
    for criterion in criteria:
        test, passed = covering_test(criterion, report, sources, criteria)
        added = test is not None and test not in own
        coverage.append(
            CriterionCoverage(criterion=criterion, test=test, passed=passed, added=added)
        )
    return {
        "own_tests_passed": own_passed,
        "own_tests_failed": own_failed,
        "new_tests_passed": len(report.passed_tests) - own_passed,
        "new_tests_failed": len(report.failed_tests) - own_failed,
        "failing_tests": [
            f"{f.test_id}: {first_line(f.message)}" for f in report.failed_tests[:MAX_FAILING]
        ],
        "criteria": coverage,
    }
