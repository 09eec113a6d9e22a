"""The few lines a stuck worker is shown: where its code rejects what a failing test passes.

Asked for a whole file, the small model gives it back as it was, revision after revision;
shown only the check that raised (or the module values it reads), it changes them.
"""

from graphs.implementation.diagnose.failing_line import guard_index, raising_line
from graphs.implementation.diagnose.values_read import values_read
from graphs.schemas import FailedTest

MAX_FOCUS_LINES = 12


def focus_lines(failures: list[FailedTest], path: str, text: str) -> tuple[int, int] | None:
    """The first and last line (from 1) a stuck worker is shown: the module values the raising
    function reads, else the raising line with the `if` it sits under; None when no test ran
    into a `raise` of the file."""
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
