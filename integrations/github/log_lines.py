"""A line of a CI log as it reads: without the Actions timestamp and the terminal escapes."""

import re

_TIMESTAMP = re.compile(r"^\ufeff?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ")
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|[\x00-\x08\x0b-\x1f\x7f]")


def clean_line(line: str) -> str:
    """A log line without its Actions timestamp and terminal escapes."""
    return _CONTROL.sub("", _TIMESTAMP.sub("", line))
