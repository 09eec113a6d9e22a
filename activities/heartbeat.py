"""Keep a long activity visibly alive while it awaits slow work."""

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from temporalio import activity

T = TypeVar("T")


async def heartbeating(work: Awaitable[T], interval_seconds: float = 5.0) -> T:
    """Await `work`, heartbeating every interval so the server sees progress and can cancel."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=interval_seconds)
            if done:
                return task.result()
            activity.heartbeat()
    finally:
        if not task.done():
            task.cancel()
