"""The tester node: gate the revision, run the tests, keep or discard it against the best."""

from typing import Any

from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.journal import Journal
from graphs.implementation.revision import current_changes, fingerprint, revert_files
from graphs.implementation.state import ImplementationState, Tester
from graphs.implementation.tester.best import Standing, broken_failures, own_tests, regression
from graphs.implementation.tester.gate import syntax_errors
from graphs.implementation.tester.held_files import (
    HELD_PART,
    held_back,
    held_note,
    hold_update,
    is_best,
)
from graphs.implementation.tester.rewritten_tests import salvage
from graphs.node_types import AsyncNode
from graphs.schemas import FileChange, TestReport


def make_tester(tester: Tester | None, journal: Journal) -> AsyncNode[ImplementationState]:
    """The node that gates, tests and keeps or discards the revision (or replays the run).

    A file that does not compile or import goes back to its worker before any test runs; a
    revision whose tests are worse than the best so far is discarded and its files reverted.
    """

    async def baseline() -> Standing:
        report = journal.tests(0)
        if report is None:
            assert tester is not None
            report = await tester([])
            journal.record_tests(0, report)
        return Standing(revision=0, files={}, tests=report, own=own_tests(report))

    async def run(revision: int, changes: list[FileChange], part: str = "") -> TestReport:
        report = journal.tests(revision, part)
        if report is None:
            assert tester is not None
            journal.start("tests", revision)
            report = await tester(changes)
            journal.record_tests(revision, report, part)
        return report

    async def test(state: ImplementationState) -> dict[str, Any]:
        revision, repo_dir = state["revision"], state["repo_dir"]
        changes = current_changes(state)
        digest = fingerprint(changes)
        if not changes or (revision > 1 and digest == state.get("fingerprint")):
            stalled: dict[str, Any] = {"stalled": True, "stalls": state.get("stalls", 0) + 1}
            best = state.get("best")
            if best is not None:  # the next try starts from the best version again
                stalled["files"] = revert_files(repo_dir, state.get("files", {}), best.files)
            return stalled
        kept: dict[str, Any] = {
            "fingerprint": digest,
            "stalled": False,
            "stalls": 0,
            "discarded": "",
            "broken": [],
            "held": {},
        }
        errors, notes = syntax_errors(changes), []
        if tester is None:
            return {**kept, "redo": errors, "tests": None}
        best = state.get("best") or await baseline()
        report = None if errors else await run(revision, changes)
        errors = errors or (report.import_errors if report else {})
        if errors:  # tested without the broken files, which keep their best version
            rest = held_back(changes, errors, best)
            if is_best(rest, best):
                return {**kept, "redo": errors, "best": best}
            report = await run(revision, rest, HELD_PART)
            if report.import_errors:
                return {**kept, "redo": {**errors, **report.import_errors}, "best": best}
            files = hold_update(repo_dir, state.get("files", {}), errors, best)
            held = {"held": errors, "files": files, "fingerprint": fingerprint(rest)}
            changes, kept, notes = rest, {**kept, **held}, [held_note(revision, errors)]
        assert report is not None
        worse = regression(best, report)
        specification = frozenset({criteria_path(state["ticket"].key)})
        saved = (
            await salvage(tester, journal, revision, best, changes, specification)
            if worse
            else None
        )
        if saved is not None:
            files = {c.path: c for c in saved.kept}
            standing = Standing(revision=revision, files=files, tests=saved.tests, own=best.own)
            left_out = ", ".join(saved.dropped)
            salvaged = f"revision {revision}: kept without {left_out}, with which {worse}"
            return {
                **kept,
                "redo": {},
                "best": standing,
                "tests": saved.tests,
                "files": revert_files(repo_dir, state.get("files", {}), files),
                "notes": [*notes, salvaged],
            }
        if worse:
            return {
                **kept,
                "redo": {},
                "best": best,
                "tests": best.tests,
                "files": revert_files(repo_dir, state.get("files", {}), best.files),
                "discarded": f"Revision {revision} was discarded: {worse}.",
                "broken": broken_failures(best.tests, report),
                "notes": [*notes, f"revision {revision}: discarded, {worse}"],
            }
        files = {c.path: c for c in changes}
        standing = Standing(revision=revision, files=files, tests=report, own=best.own)
        return {**kept, "redo": {}, "best": standing, "tests": report, "notes": notes}

    return test
