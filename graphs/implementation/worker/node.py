"""The worker node: one planned file of a revision written by the model (or replayed)."""

from collections.abc import Callable, Sequence
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from graphs.analysis.tools import CONTEXT_QUERY, find_tool, make_context_query_tool
from graphs.implementation.journal import Journal, WorkerOutcome
from graphs.implementation.revision import read_current
from graphs.implementation.state import WorkerState
from graphs.implementation.worker.answer import ask_for_file, bounded
from graphs.implementation.worker.definitions import (
    DEFINITIONS_WINDOW_CHARS,
    NOT_SPLICED,
    SpliceError,
    answered_by_definitions,
    splice_definitions,
    statement_window,
)
from graphs.implementation.worker.draft import drafted, write_draft
from graphs.implementation.worker.forgotten_imports import add_forgotten_imports
from graphs.implementation.worker.kept_tests import with_existing_tests
from graphs.implementation.worker.method_placement import place_methods
from graphs.implementation.worker.missing_functions import add_missing_functions
from graphs.implementation.worker.prompt import answers_text, worker_messages
from graphs.implementation.worker.retries import (
    ask_again_because,
    stuck,
    warmer,
    with_note,
    write_focused,
)
from graphs.implementation.worker.targets import (
    MIN_DEFINITIONS,
    DefinitionSpan,
    ask_targets,
    definitions_of,
    only_targets,
    others_note,
    shown_targets,
)
from graphs.implementation.worker.window import (
    MAX_WINDOW_CHARS,
    choose_window,
    focus_window,
    same_text,
    splice,
)
from graphs.node_types import AsyncNode
from graphs.offline import is_offline
from graphs.schemas import FileChange


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
    definition_edits: bool = True,
    definition_targets: bool = False,
    first_draft: bool = False,
    bare_revisions: bool = False,
) -> AsyncNode[WorkerState]:
    """The node that writes one file (or replays it from the journal); with
    `definition_edits` a Python file of some length is answered by the definitions that
    change, spliced in by its syntax tree, and with `definition_targets` the worker is shown
    only the definitions it first chose to change; with `first_draft` a short file's first
    revision is one bare call (worker/draft.py), with `bare_revisions` every revision is."""

    async def worker(state: WorkerState) -> dict[str, Any]:
        path, revision = state["assignment"]["file"].path, state["revision"]
        outcome = journal.worker(revision, path)
        if outcome is None:
            journal.start("worker", revision, path)
            first = warmer(model) if state.get("warm") else model
            bare = bare_revisions or (first_draft and revision == 1 and not state.get("warm"))
            # The first draft is the floor's call to the letter; a re-ask keeps its feedback.
            drafting = cast(WorkerState, {**state, "feedback": ""}) if revision == 1 else state
            outcome = await write_file(
                first,
                tools,
                drafting if bare else state,
                definitions=definition_edits,
                targets=definition_targets,
                draft=bare,
            )
            tried = journal.tried(path, revision)
            why = "" if is_offline(model) else ask_again_because(outcome, state, tried)
            focus = state.get("focus") if stuck(why) and not bare_revisions else None
            if focus:  # shown only the lines that reject the test's inputs, it changes them
                again = await write_focused(write_file, model, tools, state, focus, tried)
                outcome = again.model_copy(update={"tokens": outcome.tokens + again.tokens})
            elif why:
                # The same prompt gives the same answer, and a small model sure of its code
                # gives it again even warmer: the prompt says why it cannot stand.
                noted = with_note(drafting if bare_revisions else state, why)
                again = await write_file(
                    warmer(model),
                    tools,
                    noted,
                    definitions=definition_edits,
                    targets=definition_targets,
                    draft=bare_revisions,
                )
                outcome = again.model_copy(update={"tokens": outcome.tokens + again.tokens})
            if not is_offline(model):
                outcome = await add_missing_functions(model, tools, state, outcome)
            journal.record_worker(outcome)
        return outcome_update(outcome)

    return worker


async def write_file(
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    state: WorkerState,
    focus: tuple[int, int] | None = None,
    *,
    definitions: bool = False,
    targets: bool = False,
    draft: bool = False,
) -> WorkerOutcome:
    """Ask the model for the whole new content of one file (or the window it is shown: the
    `focus` lines when given and still there); with `definitions`, for the definitions it
    adds or changes when the file is long enough to be answered so, and with `targets` shown
    only the definitions it chose to change first; with `draft`, a file short enough is
    asked for in one bare call (worker/draft.py), told the state's feedback."""
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
    if draft and drafted(path, current):
        answers = answers_text(state["requirements"])
        text, tokens = await write_draft(
            model, state["ticket"], answers, path, current, state["feedback"]
        )
        if text is None or not text.strip():
            return outcome(f"{path}: unchanged, the draft had no code block", tokens=tokens)
        return finished(state, current, text, tokens, outcome, " (a bare draft)")
    query = f"{planned.purpose} {state['feedback']} {state['plan'].summary}"
    window = (focus and focus_window(current, focus)) or choose_window(current, query)
    by_definitions = definitions and focus is None and answered_by_definitions(path, current)
    if by_definitions:  # whole statements, as many as fit: a statement too long is windowed
        shown = statement_window(current, choose_window(current, query, DEFINITIONS_WINDOW_CHARS))
        by_definitions = len(shown.text) <= 2 * DEFINITIONS_WINDOW_CHARS
        window = shown if by_definitions else window
    found: list[DefinitionSpan] = []
    names: list[str] = []
    shown_as: str | None = None
    spent = 0
    if by_definitions and targets and not is_offline(model):
        found = definitions_of(current)
        if len(found) >= MIN_DEFINITIONS:
            names, spent = await ask_targets(model, state, path, found)
            chosen = shown_targets(current, found, names)
            if chosen is not None:
                window, shown_as = chosen, others_note(found, names, chosen.total)
    if len(window.text) > MAX_WINDOW_CHARS and not by_definitions:  # generated code
        return outcome(f"{path}: unchanged, its lines are too long to rewrite (minified?)")
    worker_tools = list(tools)
    if find_tool(worker_tools, CONTEXT_QUERY) is None:
        worker_tools.append(make_context_query_tool(state["index"]))
    messages = worker_messages(
        state, window, current, shown_as=shown_as, definitions=by_definitions
    )
    # Bounded by the repository's file, not a previous version: a looping answer cut at its
    # bound and shown back as the file to fix would raise the bound revision after revision.
    basis = window.text if state["current"] is None else (read_current(target) or "")
    # Definitions are at most the statements shown: an answer longer than them is a loop.
    answer_model = bounded(model, window.text, 1) if by_definitions else bounded(model, basis)
    new_text, tokens, problem = await ask_for_file(
        answer_model, messages, worker_tools, path, window.text
    )
    tokens += spent
    left_out: list[str] = []
    if new_text and shown_as is not None:
        new_text, left_out = only_targets(new_text, found, names)
    if new_text is None:
        why = problem or "the answer had no code block"
        return outcome(f"{path}: unchanged, {why}", tokens=tokens)
    if not new_text.strip():
        return outcome(f"{path}: unchanged, the answer was empty", tokens=tokens)
    if by_definitions:
        try:
            content = splice_definitions(current, new_text).content
        except SpliceError as error:
            return outcome(f"{path}: unchanged, {NOT_SPLICED}: {error}", tokens=tokens)
    else:
        content = splice(current, window, new_text)
    told = ""
    if shown_as is not None:
        told += " (shown " + ", ".join(f"`{n}`" for n in names) + ")"
    if left_out:
        told += " (kept as they were: " + ", ".join(f"`{n}`" for n in left_out) + ")"
    return finished(state, current, content, tokens, outcome, told)


def finished(
    state: WorkerState,
    current: str,
    content: str,
    tokens: int,
    outcome: Callable[..., WorkerOutcome],
    told: str = "",
) -> WorkerOutcome:
    """The outcome of a file's new content, after the repairs that hold for any answer: a
    kept test file's own tests, forgotten imports, methods written outside their class."""
    path = state["assignment"]["file"].path
    target = state["repo_dir"] / path
    restored: list[str] = []
    if path in state["plan"].kept_tests:
        content, restored = with_existing_tests(read_current(target) or "", content)
    if same_text(current, content):
        return outcome(f"{path}: unchanged", tokens=tokens)
    content, added = add_forgotten_imports(path, content)
    content, placed = place_methods(path, current, content, state["plan"].contracts)
    verb = "created" if not current else "rewritten"
    if restored:
        kept = ", ".join(f"`{name}`" for name in restored)
        verb = f"added to (its tests {kept} kept as they were)"
    if added:
        verb += " (added the missing " + ", ".join(f"`{m}`" for m in added) + ")"
    if placed:
        verb += " (moved into their class: " + ", ".join(f"`{m}`" for m in placed) + ")"
    return outcome(f"{path}: {verb}{told}", FileChange(path=path, content=content), tokens)
