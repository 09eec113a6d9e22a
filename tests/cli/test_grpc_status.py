"""A ticket's status: a closed one answers from the server alone, a running one needs a worker."""

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from temporalio import activity, workflow
from temporalio.client import Client, WorkflowFailureError
from temporalio.common import RetryPolicy, SearchAttributeKey
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.exceptions import ApplicationError
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from cli.status.over_grpc import StatusUnreadable, read_status
from harness.processes import guard_children
from tests.conftest import SEARCH_ATTRIBUTES, venv_binary
from workflows.ticket.messages import Phase, Status, TicketResult, TicketStatus

PHASE = SearchAttributeKey.for_keyword("Phase")
STATUS = SearchAttributeKey.for_keyword("Status")


@activity.defn(name="run_tests")
async def slow_tests() -> None:
    """A step that outlasts its time limit (cancelled when the worker stops)."""
    await asyncio.Event().wait()


@workflow.defn(name="TicketWorkflow")
class ScriptedTicket:
    """Ends as its key says: completed, failed, failed in a step that timed out (SLOW, with
    `slow_tests` registered), or waits (running)."""

    @workflow.run
    async def run(self, key: str) -> TicketResult:
        if key.startswith("WAIT"):
            await workflow.wait_condition(lambda: False)
        if key.startswith("SLOW"):
            await workflow.execute_activity(
                "run_tests",
                start_to_close_timeout=timedelta(milliseconds=300),
                retry_policy=RetryPolicy(maximum_attempts=1),
            )
        if key.startswith("FAIL"):
            workflow.upsert_search_attributes(
                [PHASE.value_set("planning"), STATUS.value_set("failed")]
            )
            raise ApplicationError("The plan was rejected 5 times", non_retryable=True)
        final = TicketStatus(key=key, phase=Phase.DONE, status=Status.COMPLETED, plan_version=2)
        return TicketResult(key=key, status=Status.COMPLETED, final_status=final)

    @workflow.query
    def status(self) -> TicketStatus:
        return TicketStatus(key="x", phase=Phase.REFINEMENT, status=Status.RUNNING)


@pytest.fixture(scope="module")
async def client() -> AsyncIterator[Client]:
    env = await WorkflowEnvironment.start_local(
        data_converter=pydantic_data_converter,
        dev_server_existing_path=venv_binary("temporal"),
        dev_server_extra_args=["--headless"],
        search_attributes=[SearchAttributeKey.for_keyword(n) for n in SEARCH_ATTRIBUTES],
    )
    guard_children()
    async with env:
        yield env.client


async def test_closed_tickets_answer_without_a_worker_and_running_ones_say_why_not(
    client: Client,
) -> None:
    queue = f"status-{uuid.uuid4()}"
    async with Worker(
        client, task_queue=queue, workflows=[ScriptedTicket],
        workflow_runner=UnsandboxedWorkflowRunner(),
    ):  # fmt: skip
        done = await client.execute_workflow(
            "TicketWorkflow", "DONE-1", id="ticket-DONE-1", task_queue=queue
        )
        assert done
        failed = await client.start_workflow(
            "TicketWorkflow", "FAIL-1", id="ticket-FAIL-1", task_queue=queue
        )
        with pytest.raises(WorkflowFailureError):
            await failed.result()
    # The worker is gone: nothing can replay these histories now.
    await client.start_workflow("TicketWorkflow", "WAIT-1", id="ticket-WAIT-1", task_queue=queue)
    wait = timedelta(seconds=2)

    completed = await read_status(client, "DONE-1", wait)
    assert (completed.status, completed.plan_version) == (Status.COMPLETED, 2)
    stopped = await read_status(client, "FAIL-1", wait)
    assert (stopped.phase, stopped.status) == (Phase.PLANNING, Status.FAILED)
    assert stopped.message == "Work on this ticket stopped. The plan was rejected 5 times."
    with pytest.raises(StatusUnreadable) as unreadable:
        await read_status(client, "WAIT-1", wait)
    assert "no worker answered its status query within 2 s" in str(unreadable.value)
    with pytest.raises(StatusUnreadable, match="has never been started"):
        await read_status(client, "NEVER-1", wait)
