"""The graph's state: a JSON object read and written through dotted paths (`plan.files.0`)."""

from typing import Any

MISSING = object()


def get_path(state: Any, path: str) -> Any:
    """The value at a dotted path, or MISSING when any part is absent."""
    current = state
    for part in path.split("."):
        if isinstance(current, dict) and part in current:
            current = current[part]
        elif (
            isinstance(current, list)
            and part.lstrip("-").isdigit()
            and -len(current) <= int(part) < len(current)
        ):
            current = current[int(part)]
        else:
            return MISSING
    return current


def set_path(state: dict[str, Any], path: str, value: Any) -> None:
    """Set the value at a dotted path, creating objects on the way."""
    *parents, last = path.split(".")
    current = state
    for part in parents:
        child = current.get(part)
        if not isinstance(child, dict):
            child = current[part] = {}
        current = child
    current[last] = value


def merge_branches(before: dict[str, Any], branches: list[dict[str, Any]]) -> dict[str, Any]:
    """The state after parallel branches: each branch's new or changed keys, in branch order."""
    merged = dict(before)
    for branch in branches:
        for key, value in branch.items():
            if key not in before or before[key] != value:
                merged[key] = value
    return merged
