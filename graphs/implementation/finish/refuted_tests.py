"""Before the result: tests the agent wrote that fail while every acceptance test passes.

The small model's tests often contradict the ticket (`fare(children=2) == 16.8` for a trip
the ticket prices at 18.0) while its code passes the acceptance tests of its criteria. Such tests
would make the pull request's suite fail for a reason the ticket refutes, so the best
revision is tried once without them; when every test then passes, it goes out that way
and its notes say what was left out. One test run, no model call.
"""

from typing import Any

from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.journal import Journal
from graphs.implementation.revision import is_test_file, revert_files
from graphs.implementation.state import ImplementationState, Tester
from graphs.implementation.tester.best import Standing
from graphs.node_types import AsyncNode
from graphs.schemas import FileChange

SETTLED_PART = "settled"


def doubtful_test_files(best: Standing, specification: str) -> list[str]:
    """The test files the change wrote that hold every failure of the best revision, when the
    specification's tests (the acceptance tests) all pass in it; else none."""
    report = best.tests
    if report.passed or not report.failed_tests or specification not in best.files:
        return []
    examples_passed = any(t.startswith(f"{specification}::") for t in report.passed_tests)
    failing = {f.file for f in report.failed_tests}
    written = {p for p in best.files if is_test_file(p) and p != specification}
    if not examples_passed or specification in failing or not failing <= written:
        return []
    return sorted(failing)


def make_settle(tester: Tester | None, journal: Journal) -> AsyncNode[ImplementationState]:
    """The node that tries the best revision without the written tests the acceptance tests
    refute."""

    async def settle(state: ImplementationState) -> dict[str, Any]:
        best = state.get("best")
        if tester is None or best is None:
            return {}
        dropped = doubtful_test_files(best, criteria_path(state["ticket"].key))
        if not dropped:
            return {}
        kept: list[FileChange] = [c for p, c in best.files.items() if p not in dropped]
        revision = state.get("revision", 0)
        report = journal.tests(revision, SETTLED_PART)
        if report is None:
            journal.start("tests", revision)
            report = await tester(kept)
            journal.record_tests(revision, report, SETTLED_PART)
        if not report.passed:
            return {}
        files = {c.path: c for c in kept}
        failed = ", ".join(f.test_id for f in best.tests.failed_tests[:5])
        note = (
            f"Left out {', '.join(dropped)}: tests written for the change ({failed}) failed"
            " while every acceptance test passed; without them every test passes."
        )
        return {
            "best": Standing(revision=best.revision, files=files, tests=report, own=best.own),
            "files": revert_files(state["repo_dir"], state.get("files", {}), files),
            "notes": [note],
        }

    return settle
