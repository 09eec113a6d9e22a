"""The prompt a worker sends: plan, requirements, related code and the file (or its window)."""

from pathlib import Path
from typing import cast

from langchain_core.messages import BaseMessage

from graphs.fences import fence, safe_relative_path
from graphs.implementation.diagnose.contracts import contract_gaps, ticket_words
from graphs.implementation.diagnose.failures import assign_failures, describe_failures, map_failures
from graphs.implementation.state import ImplementationState, Review, WorkerState
from graphs.implementation.worker.window import Window, fence_language
from graphs.prompting import task_messages
from graphs.schemas import Requirements, TestReport, TicketContext
from graphs.structured import trim

MAX_PLAN_FILES = 20
MAX_REQUIREMENTS = 15
MAX_CONTRACTS = 10
SNIPPET_CHARS = 800
TEST_TAIL_CHARS = 1500
CRITERIA_CHARS = 1200
ANSWERS_CHARS = 1000
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


def broken_feedback(state: ImplementationState, path: str) -> list[str]:
    """How the discarded revision broke tests that concern this file: each test and its error."""
    paths = [a["file"].path for a in state.get("assignments", [])] or [path]
    mine = assign_failures(state.get("broken") or [], paths).get(path, [])
    if not mine:
        return []
    described = describe_failures(mine, state["repo_dir"], state.get("files", {}), path)
    return ["How the discarded version broke them (keep these tests passing):", described]


def contract_feedback(state: ImplementationState, path: str) -> list[str]:
    """What a changed file still lacks of the contracts the ticket names."""
    change, plan = (state.get("files") or {}).get(path), state.get("plan")
    if change is None or change.delete or plan is None:
        return []
    words = ticket_words(state["ticket"], state.get("requirements"))
    gaps = contract_gaps(plan.contracts, path, change.content, words)
    if not gaps:
        return []
    heading = "This file does not keep the plan's contracts yet (they decide over the review):"
    return [heading, *(f"- {gap}" for gap in gaps)]


def worker_feedback(state: ImplementationState, path: str) -> str:
    """What the previous revision's gate, test run and review say this file's worker must fix."""
    redo = (state.get("redo") or {}).get(path)
    if redo and state.get("revision", 0) > 1:
        return (
            f"Your previous version of {path} (shown below) cannot be used: {redo}\n"
            "Fix this error and keep everything else as it is."
        )
    review = state.get("review")
    lines: list[str] = []
    held = (state.get("held") or {}).get(path)
    if held:
        lines.append(
            f"Your last version of {path} could not be used ({held}), so the tests ran with"
            " the version shown below. Change it only where the ticket needs it."
        )
    discarded = state.get("discarded")
    if discarded:
        lines.append(
            f"{discarded} You are shown the best version so far: change it without breaking"
            " the tests that pass."
        )
        lines += broken_feedback(state, path)
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
    return "\n".join(lines) if lines else FIRST_VERSION


def review_feedback(
    review: Review | None, tests: TestReport | None, path: str, repo_dir: Path
) -> str:
    """The feedback of a review and a test run for one file, outside the implementation graph."""
    state = cast(ImplementationState, {"review": review, "tests": tests, "repo_dir": repo_dir})
    return worker_feedback(state, path)


def criteria_text(ticket: TicketContext, requirements: Requirements | None) -> str:
    """The ticket's own acceptance criteria, as written; else the refined ones."""
    if ticket.acceptance_criteria and ticket.acceptance_criteria.strip():
        return trim(ticket.acceptance_criteria.strip(), CRITERIA_CHARS)
    refined = [] if requirements is None else requirements.acceptance_criteria
    return _bullets(refined[:MAX_REQUIREMENTS], "(none given)")


def answers_text(requirements: Requirements | None) -> str:
    """The reporter's answers as written, or a line saying there are none."""
    given = [] if requirements is None else requirements.answers
    given = list(dict.fromkeys(answer.strip() for answer in given))  # the same answer once
    return trim("\n\n".join(given), ANSWERS_CHARS) if given else "(none given)"


def _bullets(items: list[str], empty: str) -> str:
    return "\n".join(f"- {trim(item, 300)}" for item in items) if items else empty


def window_note(window: Window, current: str) -> str:
    """What part of the file the worker sees and what its answer replaces."""
    if not current:
        return "The file does not exist yet: write it from scratch."
    if window.whole:
        return "Its current content:"
    return (
        f"The file has {window.total} lines; you are shown lines {window.start + 1}-{window.end}."
        " Answer with the new content of exactly these lines: the lines outside them stay as"
        " they are."
    )


def worker_messages(state: WorkerState, window: Window, current: str) -> list[BaseMessage]:
    """The implement_file prompt for one worker."""
    ticket, plan, requirements = state["ticket"], state["plan"], state["requirements"]
    assignment = state["assignment"]
    planned = assignment["file"]
    related = "\n\n".join(
        fence(
            f"{s.path} (lines {s.start_line}-{s.end_line})",
            trim(s.text, SNIPPET_CHARS),
            fence_language(s.path),
        )
        for s in assignment["context"]
    )
    inputs = {
        "path": planned.path,
        "action": planned.action,
        "purpose": planned.purpose,
        "revision": state["revision"],
        "window": {
            "start_line": window.start + 1,
            "end_line": window.end,
            "total_lines": window.total,
        },
    }
    analysis = state.get("analysis")
    contracts = [f"{c.path}: {c.signature}: {c.behaviour}" for c in plan.contracts[:MAX_CONTRACTS]]
    return task_messages(
        "implement_file",
        inputs,
        key=ticket.key,
        summary=ticket.summary,
        plan_summary=trim(plan.summary, 1000),
        plan_files=_bullets(
            [f"{f.path} ({f.action}): {f.purpose}" for f in plan.files[:MAX_PLAN_FILES]], "-"
        ),
        requirements=_bullets(
            [] if requirements is None else requirements.requirements[:MAX_REQUIREMENTS],
            "(none beyond the plan)",
        ),
        criteria=criteria_text(ticket, requirements),
        answers=answers_text(requirements),
        repository=trim(analysis.summary, 800) if analysis else "(no analysis given)",
        contracts=_bullets(contracts, "(none)"),
        feedback=state["feedback"],
        related=related or "(none)",
        path=planned.path,
        action=planned.action,
        purpose=planned.purpose,
        window_note=window_note(window, current),
        current=fence(planned.path, window.text, fence_language(planned.path)),
        scope="whole new content" if window.whole else "new content of the lines shown",
    )
