"""Where in the worker's own file a failing test goes wrong, from the test's traceback."""

import re

from graphs.implementation.diagnose.values_read import names_read
from graphs.schemas import FailedTest

LINE_CHARS = 160
# pytest prints each frame's arguments as "name = value" lines before the frame's source.
ARGUMENT = re.compile(r"^[A-Za-z_]\w* = .+$")
COMPARISON = re.compile(r"^E\s+(?:AssertionError: )?assert (.+) == (.+)$", re.MULTILINE)


def failing_line(failure: FailedTest, path: str) -> int | None:
    """The line of `path` where the traceback last passes, if it names one ("path:7: Error")."""
    found = re.findall(rf"^{re.escape(path)}:(\d+): ", failure.details, re.MULTILINE)
    return int(found[-1]) if found else None


def frame_arguments(failure: FailedTest, path: str) -> str:
    """The arguments pytest shows for the last frame in `path` ("value = 0, source = 'C'")."""
    details = failure.details
    end = details.rfind(f"\n{path}:")
    if end < 0:
        return ""
    frame = details[details.rfind("\n_ _ _", 0, end) + 1 : end]
    # The arguments start their lines; the frame's source below them is indented.
    names = [line for line in frame.splitlines() if ARGUMENT.match(line)]
    return ", ".join(names)[:LINE_CHARS]


def guard_index(lines: list[str], index: int) -> int | None:
    """The index of the `if`/`elif`/`else` line the line at `index` sits under, if any."""
    indent = len(lines[index]) - len(lines[index].lstrip())
    for above in range(index - 1, -1, -1):
        line = lines[above]
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(line) - len(line.lstrip()) < indent:
            return above if stripped.startswith(("if ", "elif ", "else")) else None
    return None


def guard(lines: list[str], index: int) -> str:
    """The `if`/`elif`/`else` line the line at `index` sits under, if any."""
    above = guard_index(lines, index)
    return "" if above is None else lines[above].strip()


def shown_failing_line(failure: FailedTest, path: str, lines: list[str]) -> int | None:
    """The line of `path` where the traceback ends, when the file shown still holds the code
    the traceback shows there (else it is another version than the one tested)."""
    number = failing_line(failure, path)
    if number is None or not 0 < number <= len(lines):
        return None
    code = " ".join(lines[number - 1].split())
    return number if code and f"> {code}" in " ".join(failure.details.split()) else None


def raising_line(failure: FailedTest, path: str, lines: list[str]) -> int | None:
    """The line of `path` (as shown) whose own `raise` the failing test ran into, if any."""
    number = shown_failing_line(failure, path, lines)
    return number if number and lines[number - 1].strip().startswith("raise ") else None


def where_it_fails(failure: FailedTest, path: str, text: str) -> str:
    """A sentence pointing at the line of the worker's file (as shown) where the test fails.

    Empty when the traceback does not end in the file or the line no longer holds the code
    the traceback shows (the file shown is another version than the one tested).
    """
    lines = text.splitlines()
    if failing_line(failure, path) is None:
        return where_it_returned(failure, path, lines)
    number = shown_failing_line(failure, path, lines)
    if number is None:
        return ""
    code = " ".join(lines[number - 1].split())
    arguments = frame_arguments(failure, path)
    reached = f" (called with {arguments})" if arguments else ""
    sentence = f"This test fails in your file at line {number}{reached}: `{code[:LINE_CHARS]}`"
    condition = guard(lines, number - 1)
    if condition:
        sentence += f", inside `{condition[:LINE_CHARS]}`"
    if code.startswith("raise "):
        sentence += (
            ". Your code raises this error itself for these arguments, but the test does not"
            " expect it: change the check, or the values it uses, so that they are accepted"
        )
    else:
        sentence += ". Change the code there so the test's inputs give what it expects"
    return sentence + reads_note(text, number)


def reads_note(text: str, line: int) -> str:
    """A sentence naming the module-level values the failing function reads, if any."""
    read = names_read(text, line)
    return f". The function reads {', '.join(read)}." if read else "."


def where_it_returned(failure: FailedTest, path: str, lines: list[str]) -> str:
    """A sentence pointing at the line of the worker's file where the test's call returned
    the value the test rejected (from a traced rerun), when that line is as shown."""
    returned = failure.returned
    if returned is None or returned.path != path or not 0 < returned.line <= len(lines):
        return ""
    code = lines[returned.line - 1].strip()
    if not code or " ".join(code.split()) != " ".join(returned.code.split()):
        return ""
    called = f" (called with {returned.arguments[:LINE_CHARS]})" if returned.arguments else ""
    sentence = (
        f"This test's call returned {returned.value[:LINE_CHARS]} from your file at line"
        f" {returned.line}{called}: `{code[:LINE_CHARS]}`"
    )
    condition = guard(lines, returned.line - 1)
    if condition:
        sentence += f", inside `{condition[:LINE_CHARS]}`"
    expected = expected_value(failure, returned.value)
    if expected:
        sentence += f"; the test expects {expected[:LINE_CHARS]}"
    sentence += ". Change the code there so the test's inputs give what it expects"
    return sentence + reads_note("\n".join(lines), returned.line)


def expected_value(failure: FailedTest, value: str) -> str:
    """The value the test compared the returned one with ("assert 3 == 2.5" gives "2.5")."""
    for returned, expected in COMPARISON.findall(failure.details):
        if returned.strip() == value.strip():
            return expected.strip()
    return ""
