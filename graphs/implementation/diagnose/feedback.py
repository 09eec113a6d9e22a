"""What a worker is told of the last revision: its gate, its test run, a discard and QA's review."""

from pathlib import Path
from typing import cast

from graphs.implementation.diagnose.contracts import contract_gaps, ticket_words
from graphs.implementation.diagnose.failures import assign_failures, describe_failures, map_failures
from graphs.implementation.revision import read_current
from graphs.implementation.state import ImplementationState, Review
from graphs.implementation.tester.outcome import Discarded, Redo, held_files, last_tested
from graphs.schemas import FailedTest, TestReport
from llm.fences import fence, safe_relative_path

TEST_TAIL_CHARS = 1500


FIRST_VERSION = "This is the first version of the change."


def tail(text: str, limit: int) -> str:
    """The end of a text (where test runners print their summary), at most `limit` chars."""
    return text if len(text) <= limit else "..." + text[-limit:]


def test_feedback(state: ImplementationState, path: str) -> list[str]:
    """What the last test run says about this file: its failing tests, else the output's end."""
    tests = state.get("tests")
    if tests is None or tests.passed:
        return []
    status = "timed out" if tests.timed_out else f"failed (exit code {tests.exit_code})"
    if tests.counted:
        paths = [a["file"].path for a in state.get("assignments", [])] or [path]
        mine = map_failures(tests, paths).get(path, [])
        if not mine:
            return [f"The tests {status}, but none of the failures concerns this file."]
        described = describe_failures(mine, state["repo_dir"], state.get("files", {}), path)
        return [f"The tests {status}. The failing tests that concern this file:", described]
    output = tail(tests.output.strip(), TEST_TAIL_CHARS)
    return [f"The tests {status}; the end of their output:", fence("test output", output)]


def broken_feedback(state: ImplementationState, path: str, broken: list[FailedTest]) -> list[str]:
    """How the discarded revision broke tests that concern this file: each test and its error."""
    paths = [a["file"].path for a in state.get("assignments", [])] or [path]
    mine = assign_failures(broken, paths).get(path, [])
    if not mine:
        return []
    described = describe_failures(mine, state["repo_dir"], state.get("files", {}), path)
    return ["How the discarded version broke them (keep these tests passing):", described]


def first_feedback(state: ImplementationState, path: str) -> list[str]:
    """How the acceptance tests that concern this file fail on the original code, for the
    first revision: the change is done when they pass."""
    if state.get("revision", 0) != 1 or not state.get("first_failures"):
        return []
    paths = [a["file"].path for a in state.get("assignments", [])] or [path]
    mine = assign_failures(state["first_failures"], paths).get(path, [])
    if not mine:
        return []
    described = describe_failures(mine, state["repo_dir"], state.get("files", {}), path)
    return [
        "The acceptance tests written for this change fail on the current code, as they must"
        " until the change is made. Those that concern this file:",
        described,
    ]


def contract_feedback(state: ImplementationState, path: str) -> list[str]:
    """What a changed file still lacks of the contracts the ticket names."""
    change, plan = (state.get("files") or {}).get(path), state.get("plan")
    if change is None or change.delete or plan is None:
        return []
    words = ticket_words(state["ticket"], state.get("requirements"))
    original = read_current(state["repo_dir"] / path) or ""
    gaps = contract_gaps(plan.contracts, path, change.content, words, original)
    if not gaps:
        return []
    heading = "This file does not keep the plan's contracts yet (they decide over the review):"
    return [heading, *(f"- {gap}" for gap in gaps)]


def worker_feedback(state: ImplementationState, path: str) -> str:
    """What the previous revision's outcome, test run and review say this file's worker must
    fix."""
    last = last_tested(state.get("outcome"))
    match last:
        case Redo(errors=errors) if errors.get(path) and state.get("revision", 0) > 1:
            return (
                f"Your previous version of {path} (shown below) cannot be used: {errors[path]}\n"
                "Fix this error and keep everything else as it is."
            )
    review = state.get("review")
    lines: list[str] = []
    held = held_files(last).get(path)
    if held:
        lines.append(
            f"Your last version of {path} could not be used ({held}), so the tests ran with"
            " the version shown below. Change it only where the ticket needs it."
        )
    if isinstance(last, Discarded):
        lines.append(
            f"{last.reason} You are shown the best version so far: change it without breaking"
            " the tests that pass."
        )
        lines += broken_feedback(state, path, last.broken)
    if review is not None:
        lines.append(
            f"The QA review of the previous version did not pass it: {review.summary.strip()}"
        )
        mine = [f for f in review.fixes if safe_relative_path(f.path) == path]
        if mine:
            lines += ["Fix in this file:"] + [f"- {f.instruction.strip()}" for f in mine]
        others = [f"{f.path}: {f.instruction.strip()}" for f in review.fixes if f not in mine]
        if others:
            lines += ["Fixes asked in other files (for context):"] + [f"- {o}" for o in others[:5]]
    lines += contract_feedback(state, path)
    lines += test_feedback(state, path)
    first = first_feedback(state, path)
    if first:
        lines = [FIRST_VERSION, *lines, *first]
    return "\n".join(lines) if lines else FIRST_VERSION


def review_feedback(
    review: Review | None, tests: TestReport | None, path: str, repo_dir: Path
) -> str:
    """The feedback of a review and a test run for one file, outside the implementation graph."""
    state = cast(ImplementationState, {"review": review, "tests": tests, "repo_dir": repo_dir})
    return worker_feedback(state, path)
