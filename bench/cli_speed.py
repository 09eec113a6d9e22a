"""How long `starter.py status`, `list` and `watch`'s first frame take, beside Python's own
start-up and `temporal workflow describe`'s, for a ticket in each state a run can be in.

    python -m bench.cli_speed [--runs N] [--starter PATH]

It starts the embedded stack on free ports with the instant scripted model and puts a ticket
in each state: DEMO-1 running (waiting for approval), DEMO-2 completed (--auto), DEMO-3 failed
(its plan rejected), DEMO-4 cancelled, DEMO-5 terminated; DEMO-6 is never started. Each command
runs `--runs` times as a person runs it, in a process of its own; the figure is the median wall
time (the CPU time beside it is what an idle machine's wall time comes to). The bytecode cache
is written and used (this machine sets PYTHONDONTWRITEBYTECODE; the commands run without it),
as after `make install`. The minimum is what a command costs on a core of its own: on two cores
the stack's own services (the server, the worker) slow a run that shares a core with them.
`--starter` times another checkout's starter.py on the same stack.
"""

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from temporalio.client import Client, WorkflowFailureError, WorkflowHandle

from bench.support.figures import CannotMeasureError, Report, run_main
from bench.support.stack import bench_stack, client_for, run_ticket, scripted_model
from config import ROOT, Settings
from embedded.stack import child_env
from tickets.launch import ticket_input
from workflows.ticket.messages import RejectionInput, Status, TicketStatus

TARGET_S = 0.3
STATES = {
    "DEMO-1": "running",
    "DEMO-2": "completed",
    "DEMO-3": "failed",
    "DEMO-4": "cancelled",
    "DEMO-5": "terminated",
    "DEMO-6": "never started",
}
DEADLINE_S = 120.0


def cpu_seconds() -> float:
    """User and system CPU time of every child process that ended so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command_env(settings: Settings, starter: Path) -> dict[str, str]:
    """The stack's settings, `starter`'s checkout first on the path (and the working directory),
    and the bytecode cache written and read as after `make install`."""
    env = child_env(settings) | {"PYTHONPATH": str(starter.parent)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def timed(argv: list[str], env: dict[str, str], first_line: bool = False) -> tuple[float, float]:
    """Wall and CPU seconds of one run; with `first_line`, until its first line of output (then
    it is stopped: `watch` of a running ticket goes on)."""
    cpu_before, began = cpu_seconds(), time.perf_counter()
    process = subprocess.Popen(
        argv, cwd=env["PYTHONPATH"], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stdout is not None
    if first_line:
        line = process.stdout.readline()
        elapsed = time.perf_counter() - began
        process.kill()
        process.communicate()
        if not line:
            raise CannotMeasureError(f"{' '.join(argv[1:])} printed nothing")
        return elapsed, cpu_seconds() - cpu_before
    _, err = process.communicate()
    elapsed = time.perf_counter() - began
    if process.returncode not in (0, 1) or (process.returncode == 1 and "error:" not in err):
        raise CannotMeasureError(f"{' '.join(argv[1:])} failed: {err.strip()[-500:]}")
    return elapsed, cpu_seconds() - cpu_before


def measure(
    report: Report, name: str, run: Callable[[], tuple[float, float]], runs: int, target: bool
) -> None:
    """Run it `runs` times and print the median wall time, its spread and the median CPU time."""
    samples = [run() for _ in range(runs + 1)][1:]  # the first run writes the bytecode cache
    walls = sorted(wall for wall, _ in samples)
    wall, cpu = statistics.median(walls), statistics.median(c for _, c in samples)
    value = (
        f"{wall * 1000:4.0f} ms (min {walls[0] * 1000:.0f}, max {walls[-1] * 1000:.0f};"
        f" CPU {cpu * 1000:.0f} ms)"
    )
    if target:
        report.figure(name, value, f"< {TARGET_S * 1000:.0f} ms", wall < TARGET_S)
    else:
        report.figure(name, value)


async def until(
    handle: WorkflowHandle[Any, Any], wanted: Callable[[TicketStatus], bool], what: str
) -> None:
    """Query the ticket's status until `wanted` holds, failing after a deadline."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if wanted(await handle.query("status", result_type=TicketStatus)):
            return
        await asyncio.sleep(0.2)
    raise CannotMeasureError(f"{handle.id} never reached {what}")


async def ended(work: Awaitable[Any]) -> None:
    """Wait for a run that ends without completing."""
    try:
        await asyncio.wait_for(work, DEADLINE_S)
    except WorkflowFailureError:
        return
    raise CannotMeasureError("a run meant to fail completed")


async def tickets_in_every_state(client: Client, settings: Settings) -> None:
    """DEMO-1 to DEMO-5 in the states of STATES."""
    await run_ticket(client, settings, "DEMO-2")
    handles = {}
    for key in ("DEMO-1", "DEMO-3", "DEMO-4", "DEMO-5"):
        handles[key] = await client.start_workflow(
            "TicketWorkflow",
            ticket_input(key, settings),
            id=f"ticket-{key}",
            task_queue=settings.task_queue,
        )
    for handle in handles.values():
        await until(handle, lambda s: s.status == Status.AWAITING_APPROVAL, "awaiting approval")
    rejection = RejectionInput(reason="not this way", author="bench")
    await handles["DEMO-3"].execute_update("reject_plan", rejection)  # max_plan_rejections = 1
    await ended(handles["DEMO-3"].result())
    await handles["DEMO-4"].cancel()
    await ended(handles["DEMO-4"].result())
    await handles["DEMO-5"].terminate(reason="stopped by the bench")
    await ended(handles["DEMO-5"].result())


async def main() -> int:
    """Measure, print the figures, return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m bench.cli_speed", description=__doc__)
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default 15)")
    parser.add_argument("--starter", type=Path, default=ROOT / "starter.py")
    args = parser.parse_args()
    starter = args.starter.resolve()
    report = Report(f"cli_speed: {starter}, {args.runs} runs each, median wall time")
    report.note("bytecode cache written and read (PYTHONDONTWRITEBYTECODE cleared)")
    model = scripted_model()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
            project = "max_plan_rejections = 1\n"
            async with bench_stack(Path(tmp), model, tickets=6, project=project) as stack:
                settings = stack.settings
                await tickets_in_every_state(await client_for(settings), settings)
                env = command_env(settings, starter)
                python = [sys.executable]
                temporal = str(Path(sys.executable).parent / "temporal")
                describe = [temporal, "workflow", "describe", "-w", "ticket-DEMO-1"]
                describe += ["--address", settings.temporal_address]
                for name, argv in (
                    ("python -c pass (Python's own start-up)", [*python, "-c", "pass"]),
                    ("temporal workflow describe (running)", describe),
                    ("starter.py --help", [*python, str(starter), "--help"]),
                ):
                    measure(report, name, partial(timed, argv, env), args.runs, False)
                for key, state in STATES.items():
                    run = partial(timed, [*python, str(starter), "status", key], env)
                    measure(report, f"starter.py status ({state})", run, args.runs, True)
                for name, argv, first in (
                    ("starter.py list", [*python, str(starter), "list"], False),
                    ("starter.py watch, first frame (running)",
                     [*python, str(starter), "watch", "DEMO-1"], True),
                    ("starter.py watch (completed: one frame)",
                     [*python, str(starter), "watch", "DEMO-2"], False),
                ):  # fmt: skip
                    measure(report, name, partial(timed, argv, env, first), args.runs, True)
    finally:
        model.stop()
    return report.done()


if __name__ == "__main__":
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)  # this process writes the cache it reads too
    run_main(main())
