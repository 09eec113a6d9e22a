"""The few lines a stuck worker is shown: where its code rejects what a failing test passes.

Asked for a whole file, the small model gives it back as it was, revision after revision;
shown only the check that raised (or the module values it reads), it changes them.
"""

from collections.abc import Awaitable, Callable, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from graphs.implementation.diagnose.failing_line import guard_index, raising_line
from graphs.implementation.diagnose.values_read import values_read
from graphs.implementation.journal import WorkerOutcome
from graphs.implementation.state import WorkerState
from graphs.implementation.worker.candidates import warmer
from graphs.implementation.worker.retries import FOCUSED, repeats, with_note
from graphs.implementation.worker.window import Window
from graphs.schemas import FailedTest

MAX_FOCUS_LINES = 12
WARM_TRIES = 2

FocusedWriter = Callable[
    [BaseChatModel, Sequence[BaseTool], WorkerState, tuple[int, int]], Awaitable[WorkerOutcome]
]


def focus_lines(failures: list[FailedTest], path: str, text: str) -> tuple[int, int] | None:
    """The first and last line (from 1) to show: the module values the raising function
    reads, else the raising line with the `if` it sits under; None when no test ran into a
    `raise` of the file."""
    lines = text.splitlines()
    for failure in failures:
        number = raising_line(failure, path, lines)
        if number is None:
            continue
        values = values_read(text, number)
        if values:
            first = min(v.lineno for v in values)
            last = max(v.end_lineno or v.lineno for v in values)
            if last - first < MAX_FOCUS_LINES:
                return first, last
        above = guard_index(lines, number - 1)
        return (number if above is None else above + 1), number
    return None


def focus_window(text: str, focus: tuple[int, int]) -> Window | None:
    """The window of those lines, if the text still has them."""
    lines = text.splitlines(keepends=True)
    first, last = focus
    if not 0 < first <= last <= len(lines):
        return None
    return Window(first - 1, last, len(lines), "".join(lines[first - 1 : last]))


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
