"""What a crash costs: the worker killed (SIGKILL) mid-implementation, and separately the dev
server killed and restarted on its SQLite file mid-ticket.

The scripted model holds the second file's call until the first file's step is checkpointed
(as tests/e2e/test_worker_crash.py does); then the disruption, then the hold is released.
Printed per scenario: time to resume (disruption -> the next model call), model calls
repeated, and each side effect counted from the emulators' request log and git, against an
undisturbed ticket run first.
Usage: python -m bench.recovery
"""

import asyncio
import json
import os
import signal
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from temporalio.client import Client

from bench.support.figures import CannotMeasureError, Report, run_main
from bench.support.stack import bench_stack, client_for, restart, run_ticket, scripted_model
from config import Settings
from embedded.stack import Stack
from harness.model_server import FakeModelServer
from harness.processes import until
from harness.recovery import OPERATIONS, held, progress
from workflows.ticket.messages import TicketStatus

SIDE_EFFECTS = ("Jira comments", "pull requests", "Discord messages", "commits")


async def side_effects(settings: Settings, key: str, branch: str) -> Counter[str]:
    """Each side effect of one ticket: successful POSTs in the request log, commits on git."""
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30) as http:
        log = (await http.get("/_emulator/requests")).json()
    found: Counter[str] = Counter()
    for entry in log:
        if entry["method"] != "POST" or not 200 <= entry["status_code"] < 300:
            continue
        path, body = entry["path"], str(entry.get("body"))
        if path == f"/rest/api/3/issue/{key}/comment":
            found["Jira comments"] += 1
        elif path.endswith("/pulls") and f"{key}:" in body:
            found["pull requests"] += 1
        elif path.startswith("/api/webhooks/") and f"{key} " in body:
            found["Discord messages"] += 1
    bare = settings.emulator_state_dir / "git" / "demo" / "calc.git"
    count = subprocess.run(
        ["git", "-C", str(bare), "rev-list", "--count", f"main..{branch}"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found["commits"] = int(count.stdout)
    return found


async def branch_of(client: Client, key: str) -> str:
    """The ticket branch, from the status query."""
    handle = client.get_workflow_handle(f"ticket-{key}")
    status = await handle.query("status", result_type=TicketStatus)
    return str(status.branch)


def repeated_calls(model: FakeModelServer, first: int) -> int:
    """Model calls from index `first` on whose prompt had been sent before (same messages)."""
    seen: Counter[str] = Counter()
    for call in model.calls[first:]:
        seen[json.dumps(call.body.get("messages"), sort_keys=True)] += 1
    return sum(n - 1 for n in seen.values())


async def disrupted(
    stack: Stack, client: Client, model: FakeModelServer, key: str, service_name: str
) -> tuple[float, int, str, float]:
    """Run a ticket, kill `service_name` mid-implementation, restart it.

    Returns seconds to resume, model calls repeated, the branch, and the ticket's seconds.
    """
    model.released.clear()
    first = len(model.calls)
    started = time.monotonic()
    ticket = asyncio.create_task(run_ticket(client, stack.settings, key))
    child = f"ticket-{key}-implementation"

    async def checkpointed() -> bool:
        found = await progress(client, child)
        done = found and any(w.path == OPERATIONS for w in found.workers)
        return bool(done and any(c.held for c in model.calls[first:]))

    await until(checkpointed, 180, f"{key}'s first file to be checkpointed")
    before = len(model.calls)
    killed = time.monotonic()
    if service_name == "worker":
        model.released.set()  # the held answer goes to a dead worker
        await restart(stack, "worker", signal.SIGKILL)
    else:
        await restart(stack, "temporal", signal.SIGKILL)
        model.released.set()

    async def resumed() -> bool:
        return len(model.calls) > before

    await until(resumed, 300, f"{key} to resume after the {service_name} restart")
    resume = time.monotonic() - killed
    result = await ticket
    if not result.pr_url:
        raise CannotMeasureError(f"{key} did not open a pull request: {result.message}")
    return (
        resume,
        repeated_calls(model, first),
        await branch_of(client, key),
        time.monotonic() - started,
    )


async def main() -> int:
    """Measure, print the figures, return the exit code."""
    report = Report("recovery: worker SIGKILL and server restart mid-ticket")
    model = scripted_model(hold=held)
    model.released.set()
    # No acceptance tests: the first revision then writes both files at once, one held.
    os.environ["TICKETSMITH_IMPLEMENTATION_EXAMPLE_TESTS"] = "false"
    try:
        with tempfile.TemporaryDirectory(prefix="bench-recovery-") as tmp:
            async with bench_stack(Path(tmp), model, tickets=3) as stack:
                client = await client_for(stack.settings)
                started = time.monotonic()
                calm = await run_ticket(client, stack.settings, "DEMO-1")
                calm_s = time.monotonic() - started
                branch = await branch_of(client, "DEMO-1")
                expected = await side_effects(stack.settings, "DEMO-1", branch)
                if not calm.pr_url:
                    raise CannotMeasureError(f"the undisturbed ticket failed: {calm.message}")
                report.note(f"undisturbed ticket: {calm_s:.1f} s; side effects {dict(expected)}")
                for key, name in (("DEMO-2", "worker"), ("DEMO-3", "temporal")):
                    resume, repeated, branch, took = await disrupted(
                        stack, client, model, key, name
                    )
                    got = await side_effects(stack.settings, key, branch)
                    what = "worker SIGKILL" if name == "worker" else "server kill + restart"
                    report.figure(f"{what}: resumed after", f"{resume:.1f} s", "resumes", True)
                    report.figure(f"{what}: ticket took", f"{took:.1f} s")
                    report.figure(f"{what}: model calls repeated", str(repeated), "<= 1",
                                  repeated <= 1)  # fmt: skip
                    for effect in SIDE_EFFECTS:
                        report.figure(
                            f"{what}: {effect}", f"{got[effect]} (undisturbed {expected[effect]})",
                            "exactly once each", got[effect] == expected[effect],
                        )  # fmt: skip
    finally:
        model.stop()
    return report.done()


if __name__ == "__main__":
    run_main(main())
