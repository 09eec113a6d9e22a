"""The tool server's record of recent tool calls: which tool, with what arguments, for which task.

Read at `GET /_calls` (and cleared with `DELETE /_calls`), as the emulators' request log is, so
tests and benches can check that a step's retry did not call a tool again.
"""

from collections import deque
from datetime import UTC, datetime
from typing import Any

MAX_ENTRIES = 10_000
TASK_HEADER = "x-ticketsmith-task"


class CallLog:
    """The latest tool calls, oldest first, at most MAX_ENTRIES of them."""

    def __init__(self, limit: int = MAX_ENTRIES) -> None:
        self._entries: deque[dict[str, Any]] = deque(maxlen=limit)

    def record(self, tool: str, arguments: Any, task: str, status: int) -> None:
        """One answered call (an injected fault included: the caller saw its status)."""
        self._entries.append(
            {
                "tool": tool,
                "arguments": arguments if isinstance(arguments, dict) else {},
                "task": task,
                "status_code": status,
                "at": datetime.now(UTC).isoformat(),
            }
        )

    def entries(self) -> list[dict[str, Any]]:
        """Every call kept, oldest first."""
        return list(self._entries)

    def clear(self) -> None:
        """Forget every call."""
        self._entries.clear()
