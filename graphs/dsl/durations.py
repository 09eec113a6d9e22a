"""Durations as people write them in definitions: `30s`, `5m`, `2h`, `7d`, or seconds."""

import re
from datetime import timedelta
from typing import Annotated, Any

from pydantic import BeforeValidator, PlainSerializer

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$")
_UNITS = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400, None: 1}


def parse_duration(value: Any) -> Any:
    """`90`, `90s`, `5m`, `2h` or `7d` as a timedelta; anything else is left to pydantic."""
    if isinstance(value, bool):
        raise ValueError("a duration is a number of seconds or text like 30s, 5m, 2h, 7d")
    if isinstance(value, int | float):
        return timedelta(seconds=value)
    if isinstance(value, str):
        match = _DURATION.match(value)
        if match is None:
            raise ValueError(f"{value!r} is not a duration; write it like 30s, 5m, 2h or 7d")
        return timedelta(seconds=float(match.group(1)) * _UNITS[match.group(2)])
    return value


def format_duration(value: timedelta) -> str:
    """A timedelta as the shortest exact text `parse_duration` reads back."""
    seconds = value.total_seconds()
    for unit in ("d", "h", "m", "s"):
        size = _UNITS[unit]
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds}s"


Duration = Annotated[
    timedelta, BeforeValidator(parse_duration), PlainSerializer(format_duration, return_type=str)
]
