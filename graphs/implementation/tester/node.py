"""The revision loop of the implementation graph: run the tests, route, and finish."""

import hashlib
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel

from graphs.implementation.budget import Budget
from graphs.implementation.criteria.node import criteria_path
from graphs.implementation.finish.coverage import acceptance_criteria, test_accounts
from graphs.implementation.journal import Journal
from graphs.implementation.review import current_changes
from graphs.implementation.state import ImplementationState, Tester
from graphs.implementation.tester.best import (
    Standing,
    broken_failures,
    own_tests,
    regression,
    revert_files,
)
from graphs.implementation.tester.gate import syntax_errors
from graphs.implementation.tester.held_files import (
    HELD_PART,
    held_back,
    held_note,
    hold_update,
    is_best,
)
from graphs.implementation.tester.rewritten_tests import salvage
from graphs.node_types import AsyncNode, SyncNode
from graphs.offline import OFFLINE_NOTICE, is_offline
from graphs.schemas import FileChange, Implementation, TestReport
from graphs.structured import trim

TEST_OUTPUT_CHARS = 4000
NOTHING_CHANGED = "nothing changed"
STALLED = "stalled"
# A revision that changed nothing is tried once more, warmer, before the loop stops: at
# temperature zero the same prompt gives the same answer, and a small model often gives the
# best version back unchanged right after a discard.
STALLS_ALLOWED = 2


def fingerprint(changes: list[FileChange]) -> str:
    """A digest of the changes: equal digests mean a revision changed nothing."""
    digest = hashlib.sha256()
    for change in changes:
        digest.update(f"{change.path}\0{change.delete}\0{change.content}\0".encode())
    return digest.hexdigest()


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


def make_after_tests(
    max_revisions: int, budget: Budget | None = None, stalls_allowed: int = STALLS_ALLOWED
) -> Callable[[ImplementationState], Awaitable[Literal["review", "supervisor", "finish"]]]:
    """After the tests: finish when revisions in a row changed nothing; straight back to the
    workers when nothing changed once, a file did not compile or import or the revision was
    discarded; else QA reviews."""

    async def after_tests(state: ImplementationState) -> Literal["review", "supervisor", "finish"]:
        more = state["revision"] < max_revisions and not (budget and budget.spent())
        if state.get("stalled"):
            return "supervisor" if more and state.get("stalls", 0) < stalls_allowed else "finish"
        if state.get("redo") or state.get("discarded"):
            return "supervisor" if more else "finish"
        return "review"

    return after_tests


def make_after_review(
    max_revisions: int, budget: Budget | None = None
) -> Callable[[ImplementationState], Awaitable[Literal["supervisor", "finish"]]]:
    """The router after QA: another revision until QA passes, or the limit is reached or the
    time for revisions is spent."""

    async def after_review(state: ImplementationState) -> Literal["supervisor", "finish"]:
        review = state.get("review")
        if review is None:
            raise ValueError("after_review ran without a review")
        if review.passed or state["revision"] >= max_revisions or (budget and budget.spent()):
            return "finish"
        return "supervisor"

    return after_review


def verdict(state: ImplementationState, changes: list[FileChange], max_revisions: int) -> str:
    """The QA verdict in one sentence."""
    review, revision = state.get("review"), state.get("revision", 0)
    if not changes:
        return "Nothing to review: no file changed."
    if review is None:
        return "Not reviewed."
    summary = review.summary.strip()
    if review.passed:
        return f"Passed at revision {revision}: {summary}"
    if state.get("stalled"):
        return f"Not passed: revision {revision} changed nothing. Last review: {summary}"
    if revision >= max_revisions:
        return f"Not passed after {revision} revisions (the limit): {summary}"
    return f"Not passed: {summary}"


def token_report(journal: Journal) -> str:
    """The model tokens of the run, per kind of step."""
    progress = journal.progress
    workers = sum(w.tokens for w in progress.workers)
    reviews = sum(r.tokens for r in progress.reviews)
    return (
        f"Model tokens: {workers + reviews} ({workers} in {len(progress.workers)} worker steps,"
        f" {reviews} in {len(progress.reviews)} reviews)."
    )


def best_revision(state: ImplementationState) -> tuple[list[FileChange], TestReport | None]:
    """The changes and test run the result carries: the best revision when tests ran."""
    best = state.get("best")
    if best is None:
        return current_changes(state), state.get("tests")
    files = state.get("files", {})
    restored = {**files, **revert_files(state["repo_dir"], files, best.files)}
    return current_changes({**state, "files": restored}), best.tests


def changed_files(changes: list[FileChange], planned: list[str]) -> str:
    """How many planned files changed, and which changed files the plan did not list."""
    beyond = [c.path for c in changes if c.path not in planned]
    in_plan = len(changes) - len(beyond)
    extra = f", and {', '.join(beyond)} beyond the plan" if beyond else ""
    return f"Changed {in_plan} of {len(planned)} planned files{extra}."


def make_finish(
    model: BaseChatModel, max_revisions: int, journal: Journal, budget: Budget | None = None
) -> SyncNode[ImplementationState]:
    """The node that collects the latest changes, the last test run and the verdict."""
    offline = is_offline(model)

    def finish(state: ImplementationState) -> dict[str, Any]:
        changes, tests = best_revision(state)
        review, best = state.get("review"), state.get("best")
        lines = [changed_files(changes, [a["file"].path for a in state.get("assignments", [])])]
        if offline:
            lines.insert(
                0,
                f"{OFFLINE_NOTICE}: no code was written. A language model is needed to write"
                " the code.",
            )
        lines += [f"- {note}" for note in state.get("notes", [])]
        # Only when the time is why it stopped: not after QA passed, a stall or the last revision.
        passed = review is not None and review.passed
        cut = not passed and not state.get("stalled") and state.get("revision", 0) < max_revisions
        if budget and budget.spent() and cut:
            lines.append(budget.note(state.get("revision", 0)))
        if best is not None and best.revision != state.get("revision", 0):
            lines.append(
                f"The changes are those of revision {best.revision}, the best by tests passed."
            )
        lines.append(token_report(journal))
        qa_verdict = verdict(state, changes, max_revisions)
        implementation = Implementation(
            changes=changes,
            notes="\n".join(lines),
            tests_passed=None if tests is None else tests.passed,
            test_output="" if tests is None else trim(tests.output, TEST_OUTPUT_CHARS),
            last_tests=None
            if tests is None
            else tests.model_copy(update={"output": trim(tests.output, TEST_OUTPUT_CHARS)}),
            qa_passed=None if review is None or not changes else review.passed,
            qa_verdict=qa_verdict,
            revisions=state.get("revision", 0),
            produced_offline=offline,
            tokens=state.get("tokens", 0),
            best_revision=None if best is None else best.revision,
            **test_accounts(
                state["repo_dir"],
                changes,
                tests,
                best,
                acceptance_criteria(state["ticket"], state["requirements"]),
            ),
        )
        return {"implementation": implementation}

    return finish
