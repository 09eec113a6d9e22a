"""Tickets on several workers: one killed (SIGKILL) mid-loop, one started late, the rest stopped
with SIGTERM; every ticket ends with its pull request, and each side effect happens once.

The embedded stack runs three workers (`Stack(workers=3)`), each with its own data directory;
the fake model server holds every ticket's second file until released, which freezes each
implementation at a known step with its first file checkpointed on the server.
"""

import asyncio
import os
import signal
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from temporalio.client import Client

from bench.support.stack import run_ticket, seed_emulators
from embedded.services import Service
from embedded.stack import Stack, StackError, child_env
from embedded.workers import polls_as, worker_env
from harness.failover import (
    branch_of,
    implementation_worker,
    of_ticket,
    repeated_calls,
    ticket_effects,
)
from harness.model_server import FakeModelServer
from harness.processes import kill, start_worker, until
from harness.recovery import OPERATIONS, POWER, TEST_POWER, TESTS, held, progress
from harness.stacks import stack_settings
from harness.team import TeamBrain
from temporal.client import connect_temporal
from workflows.policies import LLM_HEARTBEAT, LLM_RETRY

pytestmark = pytest.mark.e2e
WORKERS = 3
GRACE_S = 30.0  # the workers' TICKETSMITH_GRACEFUL_SHUTDOWN_SECONDS (the default)
# After a kill, the server retries the activity once its heartbeat timeout has passed.
RESUME_WAIT_S = LLM_HEARTBEAT.total_seconds() + LLM_RETRY.initial_interval.total_seconds() + 60
HELD_STEP = f"implement_file {TESTS}"


@pytest.fixture(scope="module")
def model() -> Iterator[FakeModelServer]:
    with FakeModelServer(
        TeamBrain(additions={OPERATIONS: POWER, TESTS: TEST_POWER}), hold=held
    ) as server:
        yield server


@pytest.fixture(scope="module")
async def stack(
    tmp_path_factory: pytest.TempPathFactory, model: FakeModelServer
) -> AsyncIterator[Stack]:
    """The embedded stack with three workers, five DEMO tickets and the fake model."""
    settings = stack_settings(
        tmp_path_factory.mktemp("failover"), model_provider="openai", metrics_port=0
    )
    seed_emulators(settings.emulator_state_dir, 5)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OPENAI_BASE_URL", model.base_url)
        env.setenv("TICKETSMITH_OPENAI_MODEL", "fake")
        # No acceptance tests: the first revision writes both files, the second one held.
        env.setenv("TICKETSMITH_IMPLEMENTATION_EXAMPLE_TESTS", "false")
        env.setenv("TICKETSMITH_GRACEFUL_SHUTDOWN_SECONDS", str(GRACE_S))
        started = Stack(settings, workers=WORKERS)
        try:
            try:
                await started.start()
            except StackError as err:
                pytest.fail(f"the stack did not start: {err}", pytrace=False)
            yield started
        finally:
            started.stop()


async def all_held(client: Client, model: FakeModelServer, keys: list[str]) -> dict[str, str]:
    """Once every ticket's first file is checkpointed and its second file's call is held: the
    worker running each ticket's implementation."""

    async def check() -> dict[str, str] | None:
        where = {}
        for key in keys:
            found = await progress(client, f"ticket-{key}-implementation")
            if not found or not any(w.path == OPERATIONS for w in found.workers):
                return None
            if not any(c.held and of_ticket(c, key) for c in list(model.calls)):
                return None
            if (worker := await implementation_worker(client, key)) is None:
                return None
            where[key] = worker
        return where

    return await until(check, 240, f"{', '.join(keys)} to hold their second file's model call")


def running_workers(stack: Stack) -> list[Service]:
    """The stack's worker services still running."""
    return [
        s
        for s in stack.services
        if s.name.startswith("worker") and s.process is not None and s.process.poll() is None
    ]


def service_of(stack: Stack, identity: str) -> Service:
    """The worker service whose process polls as `identity` (`<pid>@<host>`)."""
    pid = int(identity.split("@", 1)[0])
    found = [s for s in running_workers(stack) if s.process is not None and s.process.pid == pid]
    assert found, f"no running worker of the stack is {identity}"
    return found[0]


async def assert_once_each(client: Client, stack: Stack, keys: list[str]) -> dict[str, Any]:
    """Every ticket has one pull request, and no comment, commit or message twice; returns the
    counts."""
    counts = {}
    for key in keys:
        effects = await ticket_effects(stack.settings, key, await branch_of(client, key))
        assert effects.pull_requests == 1, f"{key}: {effects.pull_requests} pull requests"
        assert effects.commits, f"{key}: no commit on its branch"
        assert effects.discord, f"{key}: no Discord message"
        assert not effects.duplicated(), f"{key} did this twice: {effects.duplicated()}"
        counts[key] = (
            len(effects.comments),
            effects.pull_requests,
            len(effects.commits),
            len(effects.discord),
        )
    assert len(set(counts.values())) == 1, f"tickets differ in side effects: {counts}"
    return counts


async def test_a_worker_killed_mid_loop_hands_its_tickets_to_the_others(
    stack: Stack, model: FakeModelServer
) -> None:
    client = await connect_temporal(stack.settings)
    keys = ["DEMO-1", "DEMO-2", "DEMO-3"]
    model.released.clear()
    tickets = [
        asyncio.create_task(run_ticket(client, stack.settings, key, RESUME_WAIT_S + 240))
        for key in keys
    ]
    where = await all_held(client, model, keys)
    victim, _ = Counter(where.values()).most_common(1)[0]
    doomed = service_of(stack, victim)
    assert doomed.process is not None
    kill(doomed.process, signal.SIGKILL)
    model.released.set()  # the killed worker's held answers go nowhere; the others' go on
    results = await asyncio.gather(*tickets)

    for key, result in zip(keys, results, strict=True):
        assert result.pr_url, f"{key}: {result.message}"
    counts = await assert_once_each(client, stack, keys)
    killed = sorted(key for key, worker in where.items() if worker == victim)
    repeated = {key: repeated_calls(model, key) for key in keys}
    print(f"killed {doomed.name} holding {killed}; effects {counts}; repeated {repeated}")  # noqa: T201
    for key in keys:
        # Only the call in flight at the kill is asked again: the journal replays the rest.
        assert repeated[key] == ({HELD_STEP: 1} if key in killed else {}), repeated


async def test_a_late_worker_takes_the_work_of_workers_stopped_with_sigterm(
    stack: Stack, model: FakeModelServer
) -> None:
    client = await connect_temporal(stack.settings)
    keys = ["DEMO-4", "DEMO-5"]
    model.released.clear()
    tickets = [
        asyncio.create_task(run_ticket(client, stack.settings, key, GRACE_S + 300)) for key in keys
    ]
    where = await all_held(client, model, keys)
    late_name = f"worker-{WORKERS + 1}"
    env = child_env(stack.settings) | worker_env(stack.settings, late_name, WORKERS + 1)
    late = start_worker(env, stack.log_dir / f"{late_name}.log")
    try:
        await until(lambda: polls_as(client, stack.settings, late.pid), 120, "the late worker")
        draining = running_workers(stack)
        for service in draining:
            assert service.process is not None
            os.killpg(service.process.pid, signal.SIGTERM)

        async def shutting_down() -> bool:
            logs = [stack.log_path(s).read_text(errors="replace") for s in draining]
            return all("Beginning worker shutdown" in log for log in logs)

        await until(shutting_down, 30, "the SIGTERMed workers to begin their graceful shutdown")
        model.released.set()  # the draining workers' held calls answer within their grace

        async def all_exited() -> bool:
            return all(s.process is not None and s.process.poll() is not None for s in draining)

        await until(all_exited, GRACE_S + 30, "the SIGTERMed workers to exit")
        results = await asyncio.gather(*tickets)
        codes = {s.name: s.process.returncode for s in draining if s.process is not None}
        assert set(codes.values()) == {0}, f"SIGTERMed workers' exit codes: {codes}"
        for key, result in zip(keys, results, strict=True):
            assert result.pr_url, f"{key}: {result.message}"
        # The status queries that name each branch need a worker: the late one still runs.
        await assert_once_each(client, stack, keys)
    finally:
        model.released.set()
        kill(late, signal.SIGTERM)
    repeated = {key: repeated_calls(model, key) for key in keys}
    # Finished within the grace period, on the worker that had it: nothing asked again.
    assert repeated == {key: {} for key in keys}, repeated
    # After the implementation, only the late worker was left: it committed and tested.
    late_workspaces = stack.settings.data_dir / "workers" / str(WORKERS + 1) / "workspaces"
    for key in keys:
        assert list(late_workspaces.glob(f"*{key}*")), f"the late worker never worked on {key}"
    print(f"SIGTERM to {sorted(codes)}; implementations on {sorted(set(where.values()))}")  # noqa: T201
