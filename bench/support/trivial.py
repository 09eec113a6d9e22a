"""A trivial workflow of N no-op activities in sequence, and its worker as a process.

`python -m bench.support.trivial ADDRESS TASK_QUEUE` polls until SIGTERM.
"""

import asyncio
import signal
import sys
from datetime import timedelta

from temporalio import activity, workflow
from temporalio.worker import Worker

with workflow.unsafe.imports_passed_through():  # the sandbox re-imports this module
    from config import get_settings
    from temporal.client import connect_temporal


@activity.defn
async def noop(step: int) -> int:
    """Do nothing."""
    return step


@workflow.defn
class TrivialWorkflow:
    """Run `steps` no-op activities one after the other."""

    @workflow.run
    async def run(self, steps: int) -> int:
        """The number of steps run."""
        for step in range(steps):
            await workflow.execute_activity(
                noop, step, start_to_close_timeout=timedelta(seconds=30)
            )
        return steps


async def serve(address: str, task_queue: str) -> None:
    """Poll the task queue until SIGTERM or SIGINT."""
    settings = get_settings().model_copy(update={"temporal_address": address})
    client = await connect_temporal(settings)
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set)
    worker = Worker(
        client, task_queue=task_queue, workflows=[TrivialWorkflow], activities=[noop],
        max_concurrent_activities=20,
    )  # fmt: skip
    async with worker:
        await stop.wait()


if __name__ == "__main__":
    asyncio.run(serve(sys.argv[1], sys.argv[2]))
