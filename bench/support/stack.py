"""The embedded stack for a bench: free ports, a private data directory, the scripted model.

The worker talks to an in-process OpenAI-compatible server that plays every agent instantly
(the tests' `TeamBrain`), so what is measured is ticketsmith, not a model.
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from temporalio.client import Client

from bench.support.figures import CannotMeasureError
from config import Settings
from embedded.stack import Stack, StackError, child_env
from emulators.app import DEFAULT_SEED
from emulators.state import seed_data
from harness.model_server import FakeModelServer
from harness.stacks import stack_settings
from harness.team import TeamBrain
from temporal.client import connect_temporal
from tickets.launch import ticket_input
from workflows.ticket.messages import TicketResult

OPERATIONS, TESTS = "calc/operations.py", "tests/test_operations.py"
ADDITIONS = {
    OPERATIONS: (
        "\n\ndef power(base: float, exponent: int) -> float:\n"
        '    """Return base raised to exponent."""\n    return base**exponent\n'
    ),
    TESTS: (
        "\n\ndef test_power() -> None:\n    from calc.operations import power\n\n"
        "    assert power(2, 3) == 8\n"
    ),
}


def ticket_keys(count: int) -> list[str]:
    """DEMO-1, DEMO-2, ... DEMO-<count>."""
    return [f"DEMO-{n}" for n in range(1, count + 1)]


def seed_emulators(state_dir: Path, tickets: int) -> None:
    """Emulator state with `tickets` issues like DEMO-1 (the seed has two)."""
    seed = json.loads(DEFAULT_SEED.read_text())
    template = next(i for i in seed["issues"] if i["key"] == "DEMO-1")
    known = {i["key"] for i in seed["issues"]}
    for key in ticket_keys(tickets):
        if key not in known:
            number = key.split("-")[1]
            summary = f"{template['summary']} ({number})"
            seed["issues"].append({**template, "key": key, "summary": summary})
    state_dir.mkdir(parents=True, exist_ok=True)
    (state_dir / "state.json").write_text(json.dumps(seed_data(seed)))


def scripted_model(**kwargs: Any) -> FakeModelServer:
    """The instant model every bench uses: plans one function and its test, writes them."""
    model = FakeModelServer(TeamBrain(additions=ADDITIONS), **kwargs)
    model.start()
    return model


@asynccontextmanager
async def bench_stack(
    data: Path, model: FakeModelServer, tickets: int = 2, *, workers: int = 1, **overrides: Any
) -> AsyncIterator[Stack]:
    """Server, emulators (with `tickets` issues), webhook app and `workers` workers, stopped at
    the end."""
    os.environ["OPENAI_BASE_URL"] = model.base_url
    os.environ["TICKETSMITH_OPENAI_MODEL"] = "fake"
    defaults: dict[str, Any] = {"model_provider": "openai", "metrics_port": 0}
    settings = stack_settings(data, **(defaults | overrides))
    seed_emulators(settings.emulator_state_dir, tickets)
    stack = Stack(settings, workers=workers)
    try:
        try:
            await stack.start()
        except StackError as err:
            raise CannotMeasureError(f"the stack did not start: {err}") from err
        yield stack
    finally:
        stack.stop()


def service(stack: Stack, name: str) -> subprocess.Popen[bytes]:
    """The running process of one service of the stack."""
    process = stack.service(name).process
    if process is None:
        raise RuntimeError(f"{name} is not running")
    return process


async def restart(stack: Stack, name: str, sig: signal.Signals = signal.SIGKILL) -> None:
    """Stop one service with a signal and start it again, waiting until it is ready."""
    process = service(stack, name)
    if process.poll() is None:
        os.killpg(process.pid, sig)
    process.wait(timeout=30)
    await stack.start_service(name)


async def client_for(settings: Settings) -> Client:
    """A Temporal client with the worker's converter."""
    return await connect_temporal(settings)


async def run_ticket(client: Client, settings: Settings, key: str, timeout_s: float = 300) -> Any:
    """Start one ticket in auto mode and wait for its result."""
    handle = await client.start_workflow(
        "TicketWorkflow",
        ticket_input(key, settings, auto=True),
        id=f"ticket-{key}",
        task_queue=settings.task_queue,
        result_type=TicketResult,
    )
    return await asyncio.wait_for(handle.result(), timeout_s)


async def pollers(client: Client, task_queue: str) -> int:
    """How many workers poll a task queue for workflow tasks."""
    from temporalio.api.enums.v1 import TaskQueueType
    from temporalio.api.taskqueue.v1 import TaskQueue
    from temporalio.api.workflowservice.v1 import DescribeTaskQueueRequest

    response = await client.workflow_service.describe_task_queue(
        DescribeTaskQueueRequest(
            namespace=client.namespace,
            task_queue=TaskQueue(name=task_queue),
            task_queue_type=TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        )
    )
    return len(response.pollers)


@asynccontextmanager
async def trivial_worker(
    client: Client, settings: Settings, task_queue: str = "trivial"
) -> AsyncIterator[subprocess.Popen[bytes]]:
    """The trivial workflow's worker as its own process, polling `task_queue`."""
    from harness.processes import kill, spawn, until

    argv = [sys.executable, "-m", "bench.support.trivial", settings.temporal_address, task_queue]
    process = spawn(argv, child_env(settings), settings.data_dir / "logs" / "trivial.log")
    try:
        await until(lambda: pollers(client, task_queue), 60, "the trivial workflow's worker")
        yield process
    finally:
        kill(process, signal.SIGTERM)


async def reset_emulators(stack: Stack, tickets: int) -> None:
    """Put the emulators back to their seeded state (issues, repositories, pull requests)."""
    import shutil

    stack.stop_service("emulators")
    shutil.rmtree(stack.settings.emulator_state_dir, ignore_errors=True)
    seed_emulators(stack.settings.emulator_state_dir, tickets)
    await stack.start_service("emulators")
