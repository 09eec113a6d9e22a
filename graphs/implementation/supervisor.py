"""The supervisor: which files the next revision rewrites, and one worker for each, in parallel."""

from pathlib import Path
from typing import Any, Literal

from langgraph.types import Send

from graphs.implementation.budget import Budget
from graphs.implementation.criteria.ticket import criteria_path
from graphs.implementation.diagnose.failures import assign_failures, map_failures
from graphs.implementation.diagnose.feedback import worker_feedback
from graphs.implementation.diagnose.focus_lines import focus_lines
from graphs.implementation.revision import is_test_file, read_current
from graphs.implementation.state import ImplementationState, Review
from graphs.implementation.steering import Steering, guidance_text
from graphs.implementation.tester.outcome import Discarded, Redo, Stalled, last_tested
from graphs.node_types import AsyncNode
from graphs.schemas import FailedTest, TestReport
from llm.fences import safe_relative_path

TESTS_IN_DOUBT = (
    "The code's worker gave its file back unchanged, sure of it, while tests written for"
    " this change fail: check each failing test below against the acceptance criteria and"
    " the answers, and correct those that expect something the ticket does not ask (a wrong"
    " expected value, an error the ticket never mentions). Keep the tests that are right."
)


def make_supervisor(steering: Steering | None, budget: Budget) -> AsyncNode[ImplementationState]:
    """The supervisor, hearing people first: guidance for this revision, or a stop."""

    async def steered(state: ImplementationState) -> dict[str, Any]:
        if steering is None:
            budget.revision_began()
            return supervisor(state)
        news = await steering.news()
        if news.stop_by:
            budget.stop(news.stop_by)
            if state.get("revision", 0) > 0:  # the best revision so far goes out
                return {"round_paths": []}
        budget.revision_began()
        update = supervisor(state)
        if news.said:
            known = set(state.get("guided", []))
            fresh = [s.id for s in news.said if s.id not in known]
            await steering.given(fresh, update["revision"])
            update |= {"guidance": guidance_text(news.said), "guided": [s.id for s in news.said]}
        return update

    return steered


def first_paths(state: ImplementationState) -> list[str]:
    """The first revision's files: every planned file, its source files alone when the
    acceptance tests fail on the original code (they test the change: code first)."""
    paths = [a["file"].path for a in state.get("assignments", [])]
    if state.get("first_failures"):
        paths = [p for p in paths if not is_test_file(p)] or paths
    return paths


def supervisor(state: ImplementationState) -> dict[str, Any]:
    """Start the next revision: every planned file first (its source files alone when the
    acceptance tests fail on the original code); then, by the last revision's outcome,
    the files that did not compile or import, the tests in doubt, the same files after a
    discard, else the files QA names or the failing tests concern."""
    revision = state.get("revision", 0) + 1
    planned = [a["file"] for a in state.get("assignments", [])]
    if revision == 1:
        return {"revision": revision, "round_paths": first_paths(state)}
    editable = [f.path for f in planned if f.action != "delete"]
    outcome = state.get("outcome")
    doubted = tests_in_doubt(state, editable) if isinstance(outcome, Stalled) else []
    match last_tested(outcome):
        case Redo(errors=errors):  # a file that did not compile or import goes back alone
            paths = [p for p in editable if p in errors] or editable
        case _ if doubted:  # the code stood still: the tests may be what is wrong
            paths = doubted
        case Discarded():  # the same files try again from the best version
            paths = [p for p in state.get("round_paths", []) if p in editable] or editable
        case _:  # the files QA or the failing tests name; every file before any review
            review = state.get("review")
            paths = (
                [f.path for f in planned]
                if review is None
                else to_fix(review, state.get("tests"), editable)
            )
    return {"revision": revision, "round_paths": paths}


def to_fix(review: Review, tests: TestReport | None, editable: list[str]) -> list[str]:
    """The files QA names or the failing tests concern (every editable file when none is)."""
    named = {safe_relative_path(fix.path) for fix in review.fixes}
    failing: set[str] = set()
    if tests is not None and tests.counted and not tests.passed:
        mapped = map_failures(tests, editable).items()  # test files only when QA names them
        failing = {p for p, found in mapped if found and not is_test_file(p)}
    return [p for p in editable if p in named or p in failing] or editable


def tests_in_doubt(state: ImplementationState, editable: list[str]) -> list[str]:
    """Planned test files with failing tests written for this change (not the repository's
    own, not the acceptance tests)."""
    tests, best = state.get("tests"), state.get("best")
    if tests is None or not tests.counted or tests.passed:
        return []
    own = set(best.own) if best is not None else set()
    new_failures = [f for f in tests.failed_tests if f.test_id not in own]
    specification = criteria_path(state["ticket"].key)
    mapped = assign_failures(new_failures, editable).items()
    return [p for p, found in mapped if found and is_test_file(p) and p != specification]


async def fan_out(state: ImplementationState) -> list[Send] | Literal["finish"]:
    """One worker per file of the revision, all in parallel; straight to finish when none."""
    if "round_paths" not in state:
        raise ValueError("fan_out ran before the supervisor chose the revision's files")
    if not state["round_paths"]:
        return "finish"
    by_path = {a["file"].path: a for a in state["assignments"]}
    tests = state.get("tests")
    failing: dict[str, list[FailedTest]] = {}
    if state["revision"] > 1 and tests is not None and tests.counted and not tests.passed:
        failing = map_failures(tests, list(by_path))
    files = state.get("files", {})
    stalled = isinstance(state.get("outcome"), Stalled)
    doubted = tests_in_doubt(state, list(by_path)) if stalled else []
    shared = {
        "repo_dir": state["repo_dir"],
        "ticket": state["ticket"],
        "plan": state["plan"],
        "requirements": state["requirements"],
        "analysis": state.get("analysis"),
        "instructions": state.get("instructions", ""),
        "index": state["index"],
        "revision": state["revision"],
    }
    sends: list[Send] = []
    for path in state["round_paths"]:
        latest = files.get(path)
        current = None if latest is None or latest.delete else latest.content
        payload = {
            **shared,
            "assignment": by_path[path],
            "current": current,
            "feedback": (f"{TESTS_IN_DOUBT}\n\n" if path in doubted else "")
            + worker_feedback(state, path)
            + (f"\n\n{state['guidance']}" if state.get("guidance") else ""),
            "warm": stalled,
            "focus": stuck_focus(failing.get(path, []), path, current, state["repo_dir"]),
        }
        sends.append(Send("worker", payload))
    return sends


def stuck_focus(
    failures: list[FailedTest], path: str, current: str | None, repo_dir: Path
) -> tuple[int, int] | None:
    """The lines a worker asked again is shown instead of its whole file, if any."""
    if not failures or is_test_file(path):
        return None
    text = current if current is not None else read_current(repo_dir / path)
    return focus_lines(failures, path, text) if text else None
