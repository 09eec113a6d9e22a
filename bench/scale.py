"""How many tickets one worker carries: N tickets at once in --auto mode, instant scripted model.

For each N: tickets/s, p50/p95 time per ticket, peak worker and server RSS, and the
throughput of a trivial workflow with as many activities, N at once, on the same server.
Usage: python -m bench.scale [--sizes 10,50,200]
"""

import argparse
import asyncio
import functools
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from temporalio.client import Client

from bench.support.figures import CannotMeasureError, Report, mib, percentile, rss_bytes, run_main
from bench.support.histories import activity_calls
from bench.support.stack import (
    bench_stack,
    client_for,
    run_ticket,
    scripted_model,
    service,
    ticket_keys,
    trivial_worker,
)
from config import Settings

GIB = 2**30
# Tickets queue for the cores: the deadline grows with the batch.
TICKET_TIMEOUT_S = 600.0
TIMEOUT_PER_TICKET_S = 20.0


class PeakRss:
    """Samples a process tree's resident memory while a run lasts and keeps the peak."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0
        self._task: asyncio.Task[None] | None = None

    async def _sample(self) -> None:
        while True:
            self.peak = max(self.peak, rss_bytes(self.pid))
            await asyncio.sleep(0.25)

    def __enter__(self) -> "PeakRss":
        self._task = asyncio.get_running_loop().create_task(self._sample())
        return self

    def __exit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()


async def all_at_once(
    runs: Sequence[Callable[[], Awaitable[Any]]],
) -> tuple[float, list[float], list[Any]]:
    """Start every run together: total seconds, each run's seconds, and their results."""
    started = time.monotonic()

    async def one(run: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
        begun = time.monotonic()
        result = await run()
        return time.monotonic() - begun, result

    done = await asyncio.gather(*(one(run) for run in runs))
    return time.monotonic() - started, [d for d, _ in done], [r for _, r in done]


async def tickets_at_once(
    client: Client, settings: Settings, keys: list[str]
) -> tuple[float, list[float], list[Any]]:
    """Run the tickets concurrently; a ticket that misses the deadline has no result (None)."""
    deadline = TICKET_TIMEOUT_S + TIMEOUT_PER_TICKET_S * len(keys)

    async def one(key: str) -> Any:
        try:
            return await run_ticket(client, settings, key, deadline)
        except TimeoutError:
            return None

    return await all_at_once([functools.partial(one, key) for key in keys])


async def trivial_at_once(client: Client, count: int, steps: int, tag: str) -> float:
    """Run `count` trivial workflows of `steps` activities concurrently: workflows per second."""

    async def one(n: int) -> Any:
        return await client.execute_workflow(
            "TrivialWorkflow", steps, id=f"trivial-{tag}-{n}", task_queue="trivial"
        )

    total, _, _ = await all_at_once([functools.partial(one, n) for n in range(count)])
    return count / total


async def main() -> int:
    """Measure, print the figures, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bench.scale", description=__doc__)
    parser.add_argument("--sizes", default="10,50,200", help="ticket counts (default 10,50,200)")
    args = parser.parse_args()
    try:
        sizes = [int(s) for s in args.sizes.split(",")]
    except ValueError:
        parser.error(f"--sizes takes comma-separated counts like 10,50,200, not {args.sizes!r}")
    report = Report("scale: N tickets at once, --auto, one worker, embedded server")
    model = scripted_model()
    keys = ticket_keys(1 + sum(sizes))
    try:
        with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
            async with bench_stack(Path(tmp), model, tickets=len(keys)) as stack:
                settings = stack.settings
                client = await client_for(settings)
                first = await run_ticket(client, settings, keys.pop(0))  # warms the worker up
                if not first.pr_url:
                    raise CannotMeasureError(f"the ticket did not open a pull request: {first}")
                steps = len(await activity_calls(client, "ticket-DEMO-1"))
                report.note(f"{steps} activities per ticket; the trivial workflow runs as many")
                async with trivial_worker(client, settings):
                    for size in sizes:
                        batch, keys = keys[:size], keys[size:]
                        await measure(report, stack, client, batch, steps)
    finally:
        model.stop()
    return report.done()


async def measure(report: Report, stack: Any, client: Client, keys: list[str], steps: int) -> None:
    """One size: the tickets, then the trivial workflows."""
    n = len(keys)
    worker, server = service(stack, "worker").pid, service(stack, "temporal").pid
    with PeakRss(worker) as worker_rss, PeakRss(server) as server_rss:
        total, each, results = await tickets_at_once(client, stack.settings, keys)
    completed = sum(1 for r in results if r is not None and r.pr_url)
    trivial = await trivial_at_once(client, n, steps, str(n))
    rate = n / total
    report.figure(f"N={n}: tickets completed", f"{completed}/{n}", "all", completed == n)
    report.figure(f"N={n}: tickets/s", f"{rate:.2f}")
    report.figure(
        f"N={n}: per ticket p50 / p95",
        f"{percentile(each, 50):.1f} s / {percentile(each, 95):.1f} s",
    )
    report.figure(f"N={n}: trivial workflows/s ({steps} activities)", f"{trivial:.2f}")
    ratio = rate / trivial
    report.figure(f"N={n}: tickets/s vs trivial", f"{ratio:.0%}", ">= 70%", ratio >= 0.7)
    big = n >= 200
    report.figure(
        f"N={n}: worker peak RSS",
        mib(worker_rss.peak),
        "< 1 GiB" if big else "",
        worker_rss.peak < GIB if big else None,
    )
    report.figure(f"N={n}: server peak RSS", mib(server_rss.peak))


if __name__ == "__main__":
    run_main(main())
