"""Work an emulator runs in the background (CI jobs), waited for in tests and cancelled at
shutdown."""

import asyncio
from collections.abc import Coroutine
from typing import Any


class BackgroundWork:
    """The tasks started and not finished yet."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def start(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run `work` in the background."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self, timeout: float = 120) -> None:
        """Wait until every task has finished (tests, shutdown)."""
        async with asyncio.timeout(timeout):
            while self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def aclose(self) -> None:
        """Stop the tasks still going."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
