"""A worker killed (SIGKILL) in the middle of the implementation graph loses no finished step.

Dev server, emulators and the real worker as a separate process, with the `openai` provider
pointed at a local fake model server that counts calls. The second file's worker call is held
until the first file's step is checkpointed on the server; then the worker is killed, a new one
starts, and the ticket completes with only the held call asked again.
"""

import asyncio
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment

from graphs.implementation.journal import Progress
from harness.model_server import FakeModelServer
from harness.processes import (
    clean_env,
    dev_server,
    free_port,
    kill,
    start_emulators,
    start_worker,
    until,
)
from harness.recovery import OPERATIONS, POWER, TEST_POWER, TESTS, held, progress
from harness.team import TeamBrain
from workflows.policies import LLM_HEARTBEAT, LLM_RETRY
from workflows.review.messages import ReviewPolicy
from workflows.ticket.messages import ImplementationResult, TicketInput, TicketProject, TicketResult

pytestmark = pytest.mark.e2e
KEY = "DEMO-1"
QUEUE = "crash-test"
# After the kill, the server retries the activity once its heartbeat timeout has passed.
RESUME_WAIT_S = LLM_HEARTBEAT.total_seconds() + LLM_RETRY.initial_interval.total_seconds() + 60


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[WorkflowEnvironment]:
    """A dev server with our search attributes, on a free port."""
    async with dev_server(pydantic_data_converter) as server:
        yield server


async def test_a_killed_worker_resumes_from_the_last_step(
    env: WorkflowEnvironment, tmp_path: Path
) -> None:
    model = FakeModelServer(TeamBrain(additions={OPERATIONS: POWER, TESTS: TEST_POWER}), hold=held)
    model.start()
    emulator_port = free_port()
    emulators = await start_emulators(emulator_port, tmp_path / "emulators", tmp_path / "emu.log")
    projects = tmp_path / "projects.toml"
    projects.write_text('[projects.DEMO]\nrepository = "demo/calc"\n')
    worker_env = clean_env(
        TICKETSMITH_TEMPORAL_ADDRESS=env.client.service_client.config.target_host,
        TICKETSMITH_TASK_QUEUE=QUEUE,
        TICKETSMITH_AGENT_TASK_QUEUE=QUEUE,
        TICKETSMITH_DATA_DIR=str(tmp_path / "data"),
        TICKETSMITH_PROJECTS_FILE=str(projects),
        TICKETSMITH_EMULATOR_PORT=str(emulator_port),
        TICKETSMITH_METRICS_PORT="0",
        TICKETSMITH_MODEL_PROVIDER="openai",
        TICKETSMITH_OPENAI_MODEL="fake",
        OPENAI_BASE_URL=model.base_url,
        # No acceptance tests: the first revision then writes both files at once, one held.
        TICKETSMITH_IMPLEMENTATION_EXAMPLE_TESTS="false",
    )
    workers = [start_worker(worker_env, tmp_path / "worker-1.log")]
    try:
        project = TicketProject(
            jira_project="DEMO",
            repository="demo/calc",
            clone_url=f"http://127.0.0.1:{emulator_port}/demo/calc.git",
            implement_after_approval=True,
        )
        handle = await env.client.start_workflow(
            "TicketWorkflow",
            TicketInput(
                key=KEY,
                project=project,
                auto=True,
                review=ReviewPolicy(follow_pull_request=False),  # ends when the PR opens
            ),
            id=f"ticket-{KEY}",
            task_queue=QUEUE,
            result_type=TicketResult,
        )
        child = f"ticket-{KEY}-implementation"

        async def first_file_checkpointed() -> Progress | None:
            found = await progress(env.client, child)
            done = found and any(w.path == OPERATIONS for w in found.workers)
            return found if done and model.count("implement_file", path=TESTS) else None

        saved = await until(first_file_checkpointed, 120, "the first file's checkpoint")
        assert {w.path for w in saved.workers} == {OPERATIONS}
        kill(workers[0])
        model.released.set()
        workers.append(start_worker(worker_env, tmp_path / "worker-2.log"))

        result = await asyncio.wait_for(handle.result(), RESUME_WAIT_S + 120)
    finally:
        for process in [*workers, emulators]:
            kill(process)
        model.stop()
        shutil.rmtree(tmp_path / "data", ignore_errors=True)

    assert result.pr_url, result.message
    child_handle = env.client.get_workflow_handle(child, result_type=ImplementationResult)
    implemented = await child_handle.result()
    assert implemented.tests_passed
    assert model.count("implement_file", path=OPERATIONS) == 1  # checkpointed: not asked again
    assert model.count("implement_file", path=TESTS) == 2  # in flight at the kill: asked again
    per_step: dict[tuple[str, str], int] = {}
    for call in model.calls:
        step = (call.task, str(call.inputs.get("path", "")))
        per_step[step] = per_step.get(step, 0) + 1
    repeated = {step: n - 1 for step, n in per_step.items() if n > 1}
    assert repeated == {("implement_file", TESTS): 1}, per_step
