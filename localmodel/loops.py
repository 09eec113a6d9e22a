"""Telling an answer that loops while it is written: the same lines over and over.

A small model at temperature zero that starts repeating a line (with a number counting up,
`assert truncate("abc", -13)`, `-14`, ...) keeps at it until its token bound, minutes of a
slow machine for an answer that cannot be used. Seen as it streams, it is stopped early.
"""

import re

MAX_PERIOD = 6  # the longest block of lines whose repetition counts as a loop
MIN_LOOP_LINES = 12  # lines of one repeating block before it is called a loop
MIN_REPEATS = 4  # times a longer block repeats before it is called a loop
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


LOOPED = "loop"  # the finish reason of an answer stopped because it looped
CUT_REASONS = {"length", LOOPED}
