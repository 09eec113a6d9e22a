"""Why a worker's answer is asked for again, the note that tells it why, and the focused ask."""

from collections.abc import Awaitable, Callable, Sequence
from typing import cast

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from graphs.implementation.journal import WorkerOutcome
from graphs.implementation.revision import read_current
from graphs.implementation.state import WorkerState
from graphs.implementation.worker.cut_short import LOOPED_PROBLEM
from graphs.implementation.worker.definitions import NOT_SPLICED
from graphs.implementation.worker.named_functions import added_beside, beside_note
from graphs.implementation.worker.undefined_names import new_undefined_names

WARM_TEMPERATURE = 0.7
# A focused answer given back as it was is asked for this many times more, warmer.
WARM_TRIES = 2
REPEATED = (
    "Your answer for this file was a version already tried, and it failed as described"
    " above. Write a different version: change the code the failing tests or the ticket"
    " name."
)
LOOPED_AGAIN = (
    "Your answer was not used: {note}. Write it once more, and short: each test and each"
    " statement once, no long runs of similar lines."
)
UNSPLICED = (
    "Your answer was not used: {why}. Write it again as Python that parses: only the"
    " functions, methods or classes you add or change, each complete."
)
FOCUSED = (
    "Your answer for this file gave back a version already tried, which fails as described"
    " above. You are shown only the lines where your code rejects what the failing test"
    " passes: rewrite them so that the test's inputs are accepted."
)
UNDEFINED = (
    "Your answer was not used: it reads {names}, which nothing defines there, and Python"
    " stops at such a name with a NameError. Write the file again with every name it reads"
    " defined first (a parameter, a variable of the same function, an import, a function of"
    " the file) or spelled as the file spells it."
)
UNCHANGED = (
    "Your answer gave this file back unchanged, but the plan asks you to change it: {purpose}"
    " Write the changed file: make the change the ticket and its acceptance criteria ask for."
)


def warmer(model: BaseChatModel, temperature: float = WARM_TEMPERATURE) -> BaseChatModel:
    """The model sampling above temperature zero, when it has a temperature to set."""
    if "temperature" in type(model).model_fields:
        return model.model_copy(update={"temperature": temperature})
    return model


def ask_again_because(outcome: WorkerOutcome, state: WorkerState, tried: set[str]) -> str:
    """Why a worker's answer is asked for again: it left the file as the checkout has it, it
    repeated a version already tried, it reads a name nothing defines, it left the function
    the ticket names as it was and added another beside it, or it looped; "" when it stands."""
    if LOOPED_PROBLEM in outcome.note:
        return LOOPED_AGAIN.format(note=outcome.note)
    if NOT_SPLICED in outcome.note:
        return UNSPLICED.format(why=outcome.note.split(f"{NOT_SPLICED}: ", 1)[-1])
    asked = outcome.tokens > 0  # a binary or deleted file is never asked for
    if outcome.change is None and asked and as_checked_out(state):
        if state["assignment"]["file"].action != "delete":
            return UNCHANGED.format(purpose=state["assignment"]["file"].purpose.strip())
    elif state["revision"] > 1 and repeats(outcome, tried):
        return REPEATED
    return undefined_because(outcome, state) or beside_because(outcome, state)


def stuck(why: str) -> bool:
    """Whether a note asks again because the worker gave back its file or a tried version."""
    return why == REPEATED or why.startswith(UNCHANGED.split("{", 1)[0])


def as_checked_out(state: WorkerState) -> bool:
    """Whether the worker was shown its file as the checkout has it (no change kept yet)."""
    current = state["current"]
    path = state["assignment"]["file"].path
    return current is None or current == read_current(state["repo_dir"] / path)


def python_written(outcome: WorkerOutcome, state: WorkerState) -> tuple[str, str] | None:
    """The Python file an answer wrote, as it was before and as written; None for other files."""
    if outcome.change is None or outcome.change.delete or not outcome.path.endswith(".py"):
        return None
    before = state["current"]
    if before is None:
        before = read_current(state["repo_dir"] / outcome.path) or ""
    return before, outcome.change.content


def undefined_because(outcome: WorkerOutcome, state: WorkerState) -> str:
    """The note for an answer that reads names nothing defines (new in it); else ""."""
    written = python_written(outcome, state)
    undefined = [] if written is None else new_undefined_names(*written)
    return UNDEFINED.format(names=", ".join(u.describe() for u in undefined)) if undefined else ""


def beside_because(outcome: WorkerOutcome, state: WorkerState) -> str:
    """The note for an answer that added functions beside the ones the ticket names; else ""."""
    written = python_written(outcome, state)
    if written is None:
        return ""
    ticket = state["ticket"]
    text = f"{ticket.summary}\n{ticket.description}\n{ticket.acceptance_criteria or ''}"
    named, added = added_beside(text, *written)
    return beside_note(named, added) if named else ""


def with_note(state: WorkerState, note: str) -> WorkerState:
    """The worker's state with a note added to its feedback."""
    feedback = f"{state['feedback']}\n\n{note}".strip()
    return cast(WorkerState, {**state, "feedback": feedback})


def repeats(outcome: WorkerOutcome, tried: set[str]) -> bool:
    """Whether a worker changed nothing, or wrote a version an earlier revision tried."""
    return outcome.change is None or outcome.change.content in tried


FocusedWriter = Callable[
    [BaseChatModel, Sequence[BaseTool], WorkerState, tuple[int, int]], Awaitable[WorkerOutcome]
]


async def write_focused(
    write: FocusedWriter,
    model: BaseChatModel,
    tools: Sequence[BaseTool],
    state: WorkerState,
    focus: tuple[int, int],
    tried: set[str],
) -> WorkerOutcome:
    """The focused lines asked for, then warmer while they come back as they were: whether the
    small model changes them is a close call, which its server's batching alone can tip."""
    focused = with_note(state, FOCUSED)
    outcome = await write(model, tools, focused, focus)
    tokens = outcome.tokens
    for _ in range(WARM_TRIES):
        if not repeats(outcome, tried):
            break
        outcome = await write(warmer(model), tools, focused, focus)
        tokens += outcome.tokens
    return outcome.model_copy(update={"tokens": tokens})
