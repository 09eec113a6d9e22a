"""The tester node: gate the revision, run the tests, keep or discard it against the best."""

from typing import Any

from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.journal import Journal
from graphs.implementation.revision import current_changes, fingerprint, revert_files
from graphs.implementation.state import ImplementationState, Tester
from graphs.implementation.tester.best import (
    Standing,
    broken_failures,
    own_tests,
    regression,
    trade_note,
)
from graphs.implementation.tester.gate import syntax_errors
from graphs.implementation.tester.held_files import (
    HELD_PART,
    held_back,
    held_note,
    hold_update,
    is_best,
)
from graphs.implementation.tester.outcome import (
    Discarded,
    Kept,
    Redo,
    Salvaged,
    Stalled,
    last_tested,
)
from graphs.implementation.tester.rewritten_tests import salvage
from graphs.node_types import AsyncNode
from graphs.schemas import FileChange, TestReport


def stalled(state: ImplementationState) -> dict[str, Any]:
    """The update for a revision that changed nothing: the next try starts from the best version."""
    outcome = state.get("outcome")
    stalls = outcome.stalls + 1 if isinstance(outcome, Stalled) else 1
    update: dict[str, Any] = {"outcome": Stalled(stalls, last_tested(outcome))}
    best = state.get("best")
    if best is not None:
        update["files"] = revert_files(
            state["repo_dir"], state.get("files", {}), best.files, specification(state)
        )
    return update


def specification(state: ImplementationState) -> frozenset[str]:
    """The acceptance test file: written before the first revision, never reverted with one
    (the checkout, the best before any revision is kept, does not have it)."""
    return frozenset({criteria_path(state["ticket"].key)})


def make_tester(tester: Tester | None, journal: Journal) -> AsyncNode[ImplementationState]:
    """The node that gates, tests and keeps or discards the revision (or replays the run),
    its decision one `RevisionOutcome`.

    A file that does not compile or import is held at its best version while the rest is
    tested, or goes back to its worker when nothing else changed; a revision whose tests are
    worse than the best so far is salvaged without the tests it rewrote, or discarded and its
    files reverted.
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
            return stalled(state)
        update: dict[str, Any] = {"fingerprint": digest}
        errors, notes, held = syntax_errors(changes), [], {}
        if tester is None:
            return {**update, "outcome": Redo(errors) if errors else Kept(), "tests": None}
        best = state.get("best") or await baseline()
        report = None if errors else await run(revision, changes)
        errors = errors or (report.import_errors if report else {})
        if errors:  # tested without the broken files, which keep their best version
            rest = held_back(changes, errors, best)
            if is_best(rest, best):
                return {**update, "outcome": Redo(errors), "best": best}
            report = await run(revision, rest, HELD_PART)
            if report.import_errors:
                return {**update, "outcome": Redo({**errors, **report.import_errors}), "best": best}
            files = hold_update(repo_dir, state.get("files", {}), errors, best)
            update = {"files": files, "fingerprint": fingerprint(rest)}
            changes, held, notes = rest, errors, [held_note(revision, errors)]
        assert report is not None
        worse = regression(best, report)
        spec = specification(state)
        saved = await salvage(tester, journal, revision, best, changes, spec) if worse else None
        if saved is not None:
            files = {c.path: c for c in saved.kept}
            standing = Standing(revision=revision, files=files, tests=saved.tests, own=best.own)
            left_out = ", ".join(saved.dropped)
            salvaged = f"revision {revision}: kept without {left_out}, with which {worse}"
            return {
                **update,
                "outcome": Salvaged(dropped=saved.dropped, held=held),
                "best": standing,
                "tests": saved.tests,
                "files": revert_files(repo_dir, state.get("files", {}), files),
                "notes": [*notes, salvaged],
            }
        if worse:
            broken = broken_failures(best.tests, report)
            return {
                **update,
                "outcome": Discarded(revision, worse, broken, held),
                "best": best,
                "tests": best.tests,
                "files": revert_files(repo_dir, state.get("files", {}), best.files, spec),
                "notes": [*notes, f"revision {revision}: discarded, {worse}"],
            }
        trade = trade_note(best, report)
        notes = [*notes, f"revision {revision}: {trade}"] if trade else notes
        files = {c.path: c for c in changes}
        standing = Standing(revision=revision, files=files, tests=report, own=best.own)
        return {**update, "outcome": Kept(held), "best": standing, "tests": report, "notes": notes}

    return test
