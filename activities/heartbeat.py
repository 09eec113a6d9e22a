"""Keep a long activity visibly alive while it awaits slow work, and checkpoint its progress.

Every heartbeat carries the latest checkpoint: a heartbeat without details would erase the
one the server holds, and a retried attempt reads it back to resume.
"""

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from temporalio import activity

T = TypeVar("T")

MAX_INTERVAL_SECONDS = 5.0


class Checkpoint:
    """The latest progress of this activity attempt, sent with every heartbeat."""

    def __init__(self) -> None:
        self.details: tuple[Any, ...] = ()

    @staticmethod
    def previous() -> Any | None:
        """The progress an earlier attempt last heartbeated, or None on a first attempt."""
        details = activity.info().heartbeat_details
        return details[0] if details else None

    def save(self, progress: Any) -> None:
        """Record progress and heartbeat it at once."""
        self.details = (progress,)
        activity.heartbeat(*self.details)


def heartbeat_interval() -> float:
    """How often to heartbeat: a third of the heartbeat timeout, at most every five seconds."""
    timeout = activity.info().heartbeat_timeout
    if timeout is None or timeout.total_seconds() <= 0:
        return MAX_INTERVAL_SECONDS
    return min(MAX_INTERVAL_SECONDS, timeout.total_seconds() / 3)


async def heartbeating(
    work: Awaitable[T],
    interval_seconds: float | None = None,
    checkpoint: Checkpoint | None = None,
) -> T:
    """Await `work`, heartbeating the checkpoint so the server sees it alive and can cancel."""
    interval = interval_seconds or heartbeat_interval()
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=interval)
            if done:
                return task.result()
            activity.heartbeat(*(checkpoint.details if checkpoint else ()))
    finally:
        if not task.done():
            task.cancel()
