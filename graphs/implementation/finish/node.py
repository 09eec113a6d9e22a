"""The finish node: the best revision's changes, its test run, the QA verdict and the notes."""

from typing import Any

from langchain_core.language_models import BaseChatModel

from graphs.implementation.budget import Budget
from graphs.implementation.criteria.ticket import acceptance_criteria
from graphs.implementation.finish.coverage import test_accounts
from graphs.implementation.journal import Journal
from graphs.implementation.revision import current_changes, revert_files
from graphs.implementation.state import ImplementationState
from graphs.implementation.tester.outcome import Stalled
from graphs.node_types import SyncNode
from graphs.offline import OFFLINE_NOTICE, is_offline
from graphs.schemas import FileChange, Implementation, TestReport
from llm.structured import trim

TEST_OUTPUT_CHARS = 4000


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
    if isinstance(state.get("outcome"), Stalled):
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
        stalled = isinstance(state.get("outcome"), Stalled)
        cut = not passed and not stalled and state.get("revision", 0) < max_revisions
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
