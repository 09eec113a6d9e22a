"""Parse durations such as 1h30m."""

import re

_PART = re.compile(r"(\d+)([dhms])")
_SECONDS = {"d": 86400, "h": 3600, "m": 60, "s": 1}


def parse_duration(text: str) -> int:
    """The number of seconds in a duration like `2d`, `1h30m` or `45s`."""
    if not text:
        raise ValueError("empty duration")
    total = 0
    position = 0
    for match in _PART.finditer(text):
        if match.start() != position:
            raise ValueError(f"cannot parse duration {text!r}")
        total += int(match.group(1)) * _SECONDS[match.group(2)]
        position = match.end()
    if position != len(text):
        raise ValueError(f"cannot parse duration {text!r}")
    return total
