"""Failover: tickets on three workers, the worker holding the most implementations killed
(SIGKILL) in the middle of their loops.

The scripted model holds every ticket's second file until the agent slots of all workers are
full of held implementations; then the busiest worker is killed and the hold released.
Printed: tickets finished per state, each side effect counted against one per ticket (as the
tickets the kill spared did them), model calls repeated per killed ticket, and the seconds
from the kill until every killed ticket was running again and had finished.
Usage: python -m bench.failover [--tickets 20]
"""

import argparse
import asyncio
import os
import signal
import tempfile
import time
from collections import Counter
from pathlib import Path

from temporalio.client import Client

from bench.support.figures import CannotMeasureError, Report, run_main
from bench.support.stack import bench_stack, client_for, run_ticket, scripted_model, ticket_keys
from embedded.stack import Stack
from harness.failover import (
    TicketEffects,
    branch_of,
    implementation_worker,
    of_ticket,
    repeated_calls,
    ticket_effects,
)
from harness.model_server import FakeModelServer
from harness.processes import kill, until
from harness.recovery import TESTS, held

WORKERS = 3
HELD_STEP = f"implement_file {TESTS}"


async def held_implementations(
    client: Client, model: FakeModelServer, keys: list[str], slots: int
) -> dict[str, str]:
    """Once every agent slot (or every ticket) holds an implementation: who runs which."""
    want = min(len(keys), slots)

    async def check() -> dict[str, str] | None:
        calls = list(model.calls)
        holding = [k for k in keys if any(c.held and of_ticket(c, k) for c in calls)]
        if len(holding) < want:
            return None
        where = {k: w for k in holding if (w := await implementation_worker(client, k))}
        return where if len(where) >= want else None

    return await until(check, 600, f"{want} implementations to hold their second file's call")


def killed_worker(stack: Stack, identity: str) -> str:
    """SIGKILL the worker service whose process polls as `identity`; its name."""
    pid = int(identity.split("@", 1)[0])
    for service in stack.services:
        if service.name.startswith("worker") and service.process and service.process.pid == pid:
            kill(service.process, signal.SIGKILL)
            return service.name
    raise CannotMeasureError(f"no worker of the stack is {identity}")


def report_effects(report: Report, effects: dict[str, TicketEffects], spared: list[str]) -> None:
    """Each side effect summed over the tickets, against the spared tickets' count times N."""
    if not spared:
        raise CannotMeasureError("the kill spared no ticket to compare the side effects with")
    model = effects[spared[0]]
    n = len(effects)
    for name, each, expected in (
        ("Jira comments", lambda e: len(e.comments), len(model.comments)),
        ("pull requests", lambda e: e.pull_requests, 1),
        ("commits", lambda e: len(e.commits), len(model.commits)),
        ("Discord messages", lambda e: len(e.discord), len(model.discord)),
    ):
        got = sum(each(e) for e in effects.values())
        report.figure(f"side effects: {name}", f"{got} (expected {expected * n})",
                      "exactly once each", got == expected * n)  # fmt: skip
    twice = sum(len(e.duplicated()) for e in effects.values())
    report.figure("side effects done twice", str(twice), "0", twice == 0)


async def measure(report: Report, tickets: int) -> None:
    """Run the tickets, kill the busiest worker mid-loop, and report."""
    model = scripted_model(hold=held)
    # No acceptance tests: the first revision then writes both files at once, one held.
    os.environ["TICKETSMITH_IMPLEMENTATION_EXAMPLE_TESTS"] = "false"
    try:
        with tempfile.TemporaryDirectory(prefix="bench-failover-") as tmp:
            async with bench_stack(Path(tmp), model, tickets, workers=WORKERS) as stack:
                client = await client_for(stack.settings)
                keys = ticket_keys(tickets)
                started = time.monotonic()
                runs = [
                    asyncio.create_task(run_ticket(client, stack.settings, key, 1800))
                    for key in keys
                ]
                slots = WORKERS * stack.settings.max_concurrent_agent_activities
                where = await held_implementations(client, model, keys, slots)
                victim, most = Counter(where.values()).most_common(1)[0]
                killed = sorted(k for k, w in where.items() if w == victim)
                name = killed_worker(stack, victim)
                killed_at = time.monotonic()
                model.released.set()
                report.note(
                    f"{tickets} tickets on {WORKERS} workers; killed {name} holding {most} of "
                    f"{len(where)} held implementations ({', '.join(killed)})"
                )

                async def resumed() -> bool:
                    # A retry on another worker asks the held call again, with the same prompt.
                    return all(repeated_calls(model, k).get(HELD_STEP, 0) >= 1 for k in killed)

                await until(resumed, 300, "the killed worker's tickets to run again")
                recovered_s = time.monotonic() - killed_at
                results = await asyncio.gather(*runs)
                finished_s = time.monotonic() - killed_at
                total_s = time.monotonic() - started
                states = Counter(
                    f"{r.status.value}{' with PR' if r.pr_url else ''}" for r in results
                )
                done = sum(1 for r in results if r.pr_url)
                report.figure("tickets finished per state", ", ".join(
                    f"{state}: {n}" for state, n in sorted(states.items())
                ), f"{tickets} with PR", done == tickets)  # fmt: skip
                effects = {
                    k: await ticket_effects(stack.settings, k, await branch_of(client, k))
                    for k in keys
                }
                others = [k for k in keys if k not in killed]
                report_effects(report, effects, others)
                repeated = [sum(repeated_calls(model, k).values()) for k in killed]
                report.figure(
                    "model calls repeated per killed ticket",
                    f"max {max(repeated)}, total {sum(repeated)} over {len(killed)}",
                    "<= 1 (the call in flight)", max(repeated) <= 1,
                )  # fmt: skip
                spared = sum(sum(repeated_calls(model, k).values()) for k in others)
                report.figure("model calls repeated, spared tickets", str(spared), "0", spared == 0)
                report.figure("seconds from the kill to the retries",
                              f"{recovered_s:.1f} s")  # fmt: skip
                report.figure("seconds from the kill to all finished",
                              f"{finished_s:.1f} s ({total_s:.1f} s from the start)")  # fmt: skip
    finally:
        model.stop()


async def main(argv: list[str] | None = None) -> int:
    """Measure, print the figures, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bench.failover", description=__doc__)
    parser.add_argument("--tickets", type=int, default=20, help="how many tickets (default 20)")
    args = parser.parse_args(argv)
    if args.tickets < 2:
        parser.error("--tickets must be at least 2: one killed, one spared to compare with")
    report = Report(f"failover: {WORKERS} workers, the busiest killed mid-loop")
    await measure(report, args.tickets)
    return report.done()


if __name__ == "__main__":
    run_main(main())
