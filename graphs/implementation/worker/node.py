"""Nodes of the implementation graph that write code: prepare, supervisor, one worker per file."""

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from langgraph.types import Send

from graphs.analysis.graph import index_repository
from graphs.analysis.index import Snippet
from graphs.analysis.tools import CONTEXT_QUERY, find_tool, make_context_query_tool
from graphs.fences import safe_relative_path
from graphs.implementation.criteria.node import criteria_path
from graphs.implementation.diagnose.failures import assign_failures, is_test_file, map_failures
from graphs.implementation.diagnose.focus_lines import focus_lines, focus_window, write_focused
from graphs.implementation.journal import Journal, WorkerOutcome
from graphs.implementation.review import current_changes
from graphs.implementation.state import Assignment, ImplementationState, Tester, WorkerState
from graphs.implementation.tester.gate import module_name
from graphs.implementation.worker.answer import ask_for_file, bounded
from graphs.implementation.worker.candidates import best_candidate, warmer
from graphs.implementation.worker.forgotten_imports import add_forgotten_imports
from graphs.implementation.worker.prompt import worker_feedback, worker_messages
from graphs.implementation.worker.retries import ask_again_because, stuck, with_note
from graphs.implementation.worker.window import (
    MAX_WINDOW_CHARS,
    choose_window,
    read_current,
    same_text,
    splice,
)
from graphs.node_types import AsyncNode
from graphs.offline import is_offline
from graphs.schemas import FailedTest, FileChange

CONTEXT_SNIPPETS = 2
TEST_SNIPPET_CHARS = 800


def prepare(state: ImplementationState) -> dict[str, Any]:
    """Index the repository and make one assignment per safe, distinct planned file."""
    index = index_repository(state["repo_dir"])
    assignments: list[Assignment] = []
    notes: list[str] = []
    seen: set[str] = set()
    for planned in state["plan"].files:
        path = safe_relative_path(planned.path)
        if path is None:
            notes.append(f"{planned.path}: skipped, the path is outside the repository")
            continue
        if path in seen:
            continue
        seen.add(path)
        query = f"{path} {planned.purpose}"
        related = [s for s in index.context_query(query, k=CONTEXT_SNIPPETS + 1) if s.path != path]
        own = tests_of(state["repo_dir"], path)  # the tests of the file first
        related = [*own, *(s for s in related if s.path not in {o.path for o in own})]
        file = planned.model_copy(update={"path": path})
        assignments.append(Assignment(file=file, context=related[:CONTEXT_SNIPPETS]))
    return {"index": index, "assignments": assignments, "notes": notes, "revision": 0}


def tests_of(repo_dir: Path, path: str) -> list[Snippet]:
    """The start of the repository's test module that imports this source file, if any."""
    module = module_name(path)
    if module is None:
        return []
    parent, _, leaf = module.rpartition(".")
    spellings = [f"import {module}", f"from {module} import"]
    if parent:
        spellings.append(f"from {parent} import {leaf}")
    for test in sorted(repo_dir.glob("tests/**/test_*.py")):
        text = read_current(test) or ""
        if any(spelling in text for spelling in spellings):
            lines = text[:TEST_SNIPPET_CHARS].count("\n") + 1
            relative = str(test.relative_to(repo_dir))
            return [Snippet(path=relative, start_line=1, end_line=lines, text=text, score=1.0)]
    return []


TESTS_IN_DOUBT = (
    "The code's worker gave its file back unchanged, sure of it, while tests written for"
    " this change fail: check each failing test below against the acceptance criteria and"
    " the answers, and correct those that expect something the ticket does not ask (a wrong"
    " expected value, an error the ticket never mentions). Keep the tests that are right."
)


def supervisor(state: ImplementationState) -> dict[str, Any]:
    """Start the next revision: every planned file first, then the files QA wants fixed."""
    revision = state.get("revision", 0) + 1
    planned = [a["file"] for a in state.get("assignments", [])]
    editable = [f.path for f in planned if f.action != "delete"]
    redo = state.get("redo") or {}
    if revision > 1 and redo:  # a file that did not compile or import goes back alone
        return {"revision": revision, "round_paths": [p for p in editable if p in redo] or editable}
    doubted = tests_in_doubt(state, editable) if state.get("stalled") else []
    if revision > 1 and doubted:  # the code stood still: the tests may be what is wrong
        return {"revision": revision, "round_paths": doubted}
    if revision > 1 and state.get("discarded"):  # the same files try again from the best version
        again = [p for p in state.get("round_paths", []) if p in editable]
        return {"revision": revision, "round_paths": again or editable}
    review = state.get("review")
    if revision == 1 or review is None:
        return {"revision": revision, "round_paths": [f.path for f in planned]}
    named = {safe_relative_path(fix.path) for fix in review.fixes}
    tests = state.get("tests")
    failing: set[str] = set()
    if tests is not None and tests.counted and not tests.passed:
        mapped = map_failures(tests, editable).items()  # test files only when QA names them
        failing = {p for p, found in mapped if found and not is_test_file(p)}
    paths = [p for p in editable if p in named or p in failing] or editable
    return {"revision": revision, "round_paths": paths}


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
    tests, changes, best = state.get("tests"), current_changes(state), state.get("best")
    failing: dict[str, list[FailedTest]] = {}
    if state["revision"] > 1 and tests is not None and tests.counted and not tests.passed:
        failing = map_failures(tests, list(by_path))
    files = state.get("files", {})
    doubted = tests_in_doubt(state, list(by_path)) if state.get("stalled") else []
    shared = {
        "repo_dir": state["repo_dir"],
        "ticket": state["ticket"],
        "plan": state["plan"],
        "requirements": state["requirements"],
        "analysis": state.get("analysis"),
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
            + worker_feedback(state, path),
            "failing": bool(failing.get(path)),
            "others": [c for c in changes if c.path != path],
            "own_tests": [] if best is None else best.own,
            "warm": bool(state.get("stalled")),
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


def outcome_update(outcome: WorkerOutcome) -> dict[str, Any]:
    """The state update of a worker's outcome."""
    prefix = "" if outcome.revision == 1 else f"revision {outcome.revision}: "
    update: dict[str, Any] = {"notes": [prefix + outcome.note], "tokens": outcome.tokens}
    if outcome.change is not None:
        update["files"] = {outcome.path: outcome.change}
    return update


def make_worker(
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    journal: Journal,
    tester: Tester | None = None,
    candidates: int = 1,
) -> AsyncNode[WorkerState]:
    """The node that writes one file (or replays it from the journal).

    Where the file's tests failed in the last run, it writes `candidates` versions and keeps
    the one the tests prefer.
    """

    async def worker(state: WorkerState) -> dict[str, Any]:
        path, revision = state["assignment"]["file"].path, state["revision"]
        outcome = journal.worker(revision, path)
        if outcome is None:
            journal.start("worker", revision, path)
            first = warmer(model) if state.get("warm") else model
            outcome = await write_file(first, tools, state)
            tried = journal.tried(path, revision)
            why = "" if is_offline(model) else ask_again_because(outcome, state, tried)
            focus = state.get("focus") if stuck(why) else None
            if focus:  # shown only the lines that reject the test's inputs, it changes them
                again = await write_focused(write_file, model, tools, state, focus, tried)
                outcome = again.model_copy(update={"tokens": outcome.tokens + again.tokens})
            elif why:
                # The same prompt gives the same answer, and a small model sure of its code
                # gives it again even warmer: the prompt says why it cannot stand.
                again = await write_file(warmer(model), tools, with_note(state, why))
                outcome = again.model_copy(update={"tokens": outcome.tokens + again.tokens})
            if candidates > 1 and tester is not None and state.get("failing"):
                outcome = await best_candidate(
                    write_file, model, tools, state, tester, outcome, candidates
                )
            journal.record_worker(outcome)
        return outcome_update(outcome)

    return worker


async def write_file(
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    state: WorkerState,
    focus: tuple[int, int] | None = None,
) -> WorkerOutcome:
    """Ask the model for the whole new content of one file (or the window it is shown: the
    `focus` lines when given and still there)."""
    planned = state["assignment"]["file"]
    path, revision = planned.path, state["revision"]
    target = state["repo_dir"] / path

    def outcome(note: str, change: FileChange | None = None, tokens: int = 0) -> WorkerOutcome:
        return WorkerOutcome(revision=revision, path=path, change=change, note=note, tokens=tokens)

    if planned.action == "delete":
        if target.is_file():
            return outcome(f"{path}: deleted", FileChange(path=path, content="", delete=True))
        return outcome(f"{path}: planned for deletion but does not exist")
    current = state["current"] if state["current"] is not None else read_current(target)
    if current is None:
        return outcome(f"{path}: unchanged, it is a binary file")
    query = f"{planned.purpose} {state['feedback']} {state['plan'].summary}"
    window = (focus and focus_window(current, focus)) or choose_window(current, query)
    if len(window.text) > MAX_WINDOW_CHARS:  # one line longer than any window: generated code
        return outcome(f"{path}: unchanged, its lines are too long to rewrite (minified?)")
    worker_tools = list(tools)
    if find_tool(worker_tools, CONTEXT_QUERY) is None:
        worker_tools.append(make_context_query_tool(state["index"]))
    messages = worker_messages(state, window, current)
    # Bounded by the repository's file, not a previous version: a looping answer cut at its
    # bound and shown back as the file to fix would raise the bound revision after revision.
    basis = window.text if state["current"] is None else (read_current(target) or "")
    answer_model = bounded(model, basis)
    new_text, tokens, problem = await ask_for_file(
        answer_model, messages, worker_tools, path, window.text
    )
    if new_text is None:
        why = problem or "the answer had no code block"
        return outcome(f"{path}: unchanged, {why}", tokens=tokens)
    if not new_text.strip():
        return outcome(f"{path}: unchanged, the answer was empty", tokens=tokens)
    content = splice(current, window, new_text)
    if same_text(current, content):
        return outcome(f"{path}: unchanged", tokens=tokens)
    content, added = add_forgotten_imports(path, content)
    verb = "created" if not current else "rewritten"
    if added:
        verb += " (added the missing " + ", ".join(f"`import {m}`" for m in added) + ")"
    return outcome(f"{path}: {verb}", FileChange(path=path, content=content), tokens)
