"""One line for a test run's counts, from `TestCounts`'s fields as JSON (the command line reads
the status's JSON without building its models)."""

from collections.abc import Mapping
from typing import Any


def tests_line(counts: Mapping[str, Any]) -> str:
    """`3 passed, 1 failed` (or the exit code when no counts were found), from `TestCounts`'s
    fields."""
    passed, failed = counts.get("passed_count", 0), counts.get("failed_count", 0)
    if passed or failed:
        return f"{passed} passed, {failed} failed"
    return "passed" if counts.get("passed") else f"failed (exit code {counts.get('exit_code', 0)})"
