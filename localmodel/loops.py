"""Telling an answer that loops while it is written: the same lines over and over, or one
line that goes on repeating a few characters.

A small model at temperature zero that starts repeating a line (with a number counting up,
`assert truncate("abc", -13)`, `-14`, ...) keeps at it until its token bound, minutes of a
slow machine for an answer that cannot be used. So does one that writes a list on one line
(`[[1, 2], [3], [4], [5], ...`). Seen as it streams, it is stopped early.
"""

import re

MAX_PERIOD = 6  # the longest block of lines whose repetition counts as a loop
MIN_LOOP_LINES = 12  # lines of one repeating block before it is called a loop
MIN_REPEATS = 4  # times a longer block repeats before it is called a loop
MAX_UNIT = 40  # the longest piece of a line whose repetition counts as a loop
MIN_RUN_CHARS = 240  # characters at the end of a line that repeat one piece before it is a loop
_NUMBER = re.compile(r"\d+")


def line_shape(line: str) -> str:
    """A line with its numbers blanked: a loop that counts still has one shape."""
    return _NUMBER.sub("0", line.strip())


def repeating_block(text: str) -> str:
    """The block of lines the text's complete lines end repeating, or "" when they do not.

    A block of `p` lines counts when the last `max(MIN_LOOP_LINES, MIN_REPEATS * p)` complete
    lines all have the shape of the line `p` before them and are not all blank.
    """
    shapes = [line_shape(line) for line in text.split("\n")[:-1]]  # the last is unfinished
    for period in range(1, MAX_PERIOD + 1):
        window = max(MIN_LOOP_LINES, MIN_REPEATS * period)
        if len(shapes) < window + period:
            break
        tail = shapes[-window - period :]
        if any(tail[i] != tail[i + period] for i in range(window)):
            continue
        block = tail[-period:]
        if any(block):
            return "\n".join(text.split("\n")[:-1][-period:])
    return ""


def repeating_run(text: str) -> str:
    """The piece the text's last line ends repeating, or "" when it does not.

    A piece of `u` characters counts when the last `MIN_RUN_CHARS` characters of the line,
    numbers blanked, all equal the character `u` before them and are not all blank.
    """
    # Only the line's end is read: it is checked as every piece of an answer streams in.
    start = max(text.rfind("\n") + 1, len(text) - 4 * (MIN_RUN_CHARS + MAX_UNIT))
    shape = line_shape(text[start:])
    if len(shape) < MIN_RUN_CHARS + MAX_UNIT:
        return ""
    tail = shape[-MIN_RUN_CHARS - MAX_UNIT :]
    for unit in range(1, MAX_UNIT + 1):
        window = tail[-MIN_RUN_CHARS - unit :]
        if all(window[i] == window[i + unit] for i in range(MIN_RUN_CHARS)):
            piece = window[-unit:]
            if piece.strip():
                return piece
    return ""


LOOPED = "loop"  # the finish reason of an answer stopped because it looped
CUT_REASONS = {"length", LOOPED}
