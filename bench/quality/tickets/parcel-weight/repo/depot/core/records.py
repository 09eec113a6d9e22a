"""Records as the depot's systems exchange them: plain dictionaries."""

from typing import Any

Record = dict[str, Any]


def field_of(record: Record, name: str, default: float = 0) -> float:
    """A numeric field of a record; missing, empty or non-numeric values count as `default`."""
    value = record.get(name)
    if value in (None, ""):
        return default
    try:
        return float(value)
    except (TypeError, ValueError):
        return default
