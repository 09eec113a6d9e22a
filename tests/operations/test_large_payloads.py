"""A ticket with 300 KB of changes on the dev server: its history holds references, not files."""

import asyncio
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from pydantic import SecretStr
from temporalio import activity
from temporalio.api.enums.v1 import EventType
from temporalio.client import Client, WorkflowHandle
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Replayer, Worker

from bench.support.histories import events, payloads_in, size
from cli.status.over_grpc import read_status
from config import Settings
from encryption.codec import new_key
from encryption.store import SETTING, PayloadStoreError, reference_in
from graphs.schemas import FileChange, Implementation, Plan, TicketContext
from temporal.client import converter_for
from tests.conftest import register_search_attributes
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import ticket_input
from workflows.registry import WORKFLOWS
from workflows.ticket.messages import ImplementationInput, Status, TicketResult
from workflows.ticket.workflow import TicketWorkflow

THRESHOLD = 32 * 1024
DEADLINE_S = 120
ENCRYPTION_KEY = new_key("k1")
CHANGES = [
    FileChange(path=f"calc/generated_{n}.py", content=f"VALUE_{n} = {n}  # marker-line\n" * 4000)
    for n in range(3)
]  # about 300 KB of file contents


class LargeChanges(FakeActivities):
    """The fakes, with an implementation that writes three 100 KB files."""

    @activity.defn(name="implement_changes")
    async def implement_changes(self, inp: object) -> Implementation:
        self.calls["implement_changes"].append(inp)
        return Implementation(changes=CHANGES, notes="generated", tokens=20)


def config(store: Path, encrypted: bool) -> Settings:
    """The settings a worker and its clients share: the store folder, maybe a key ring."""
    return Settings(
        payload_store_dir=store,
        encryption_keys=SecretStr(ENCRYPTION_KEY) if encrypted else None,
        _env_file=None,  # type: ignore[call-arg]
    )


@pytest.fixture(scope="module")
async def server(dev_server: WorkflowEnvironment) -> WorkflowEnvironment:
    """The dev server, knowing the ticket workflow's search attributes."""
    await register_search_attributes(dev_server.client)
    return dev_server


def client_for(env: WorkflowEnvironment, settings: Settings) -> Client:
    """A client of the dev server with the converter `connect_temporal` would build."""
    base, converter = env.client, converter_for(settings)
    return Client(base.service_client, namespace=base.namespace, data_converter=converter)


async def implement_result(client: Client, child_id: str) -> Implementation:
    """The implementation activity's result, read back from the child's history."""
    for event in await events(client, child_id):
        if event.event_type == EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
            payloads = event.activity_task_completed_event_attributes.result.payloads
            [value] = await client.data_converter.decode(payloads, [Implementation])
            if isinstance(value, Implementation) and value.notes == "generated":
                return value
    raise AssertionError(f"no implement_changes result in {child_id}")


@pytest.mark.parametrize("encrypted", [False, True], ids=["plain", "encrypted"])
async def test_large_changes_travel_by_reference(
    server: WorkflowEnvironment, tmp_path: Path, encrypted: bool
) -> None:
    settings = config(tmp_path / "payloads", encrypted)
    client = client_for(server, settings)
    fakes, queue = LargeChanges(questions=False), f"large-{uuid.uuid4()}"
    key = "DEMO-92" if encrypted else "DEMO-91"
    inp = ticket_input(key).model_copy(update={"auto": True})
    ticket_id = f"ticket-{key}"  # as `starter.py status` finds it
    async with Worker(client, task_queue=queue, workflows=WORKFLOWS, activities=fakes.all()):
        handle = await client.start_workflow(
            TicketWorkflow.run, inp, id=ticket_id, task_queue=queue
        )
        result = await asyncio.wait_for(handle.result(), DEADLINE_S)

    assert result.status == Status.COMPLETED and result.pr_url
    # What `starter.py status` shows for the finished ticket.
    status = await read_status(client, key, timedelta(seconds=10))
    assert (status.status, status.pr_url) == (Status.COMPLETED, result.pr_url)
    # The activities were handed the files whole.
    assert fakes.calls["run_tests"][-1].changes == CHANGES
    assert fakes.calls["commit_files"][-1].files == CHANGES

    found = await size(client, ticket_id)
    assert found.largest_payload < THRESHOLD, found.largest_payload_where
    # implement_changes' result, run_tests' input and commit_files' input
    assert found.stored >= 3 and found.stored_bytes > 3 * 300_000
    child_id = f"{ticket_id}-implementation"
    assert await implement_result(client, child_id) == Implementation(
        changes=CHANGES, notes="generated", tokens=20
    )
    stored_files = [p for p in (tmp_path / "payloads").rglob("*") if p.is_file()]
    assert all((b"marker-line" in p.read_bytes()) is not encrypted for p in stored_files)

    # Both histories replay with the worker's converter, the references read from the store.
    replayer = Replayer(workflows=WORKFLOWS, data_converter=client.data_converter)
    for workflow_id in (ticket_id, child_id):
        history = await client.get_workflow_handle(workflow_id).fetch_history()
        assert (await replayer.replay_workflow(history)).replay_failure is None

    # A client whose folder is not the shared one says which file and setting to look at.
    elsewhere = client_for(server, config(tmp_path / "elsewhere", encrypted))
    with pytest.raises(PayloadStoreError) as missing:
        await implement_result(elsewhere, child_id)
    assert str(tmp_path / "elsewhere") in str(missing.value) and SETTING in str(missing.value)


async def first_task_failure(handle: WorkflowHandle[object, object]) -> str:
    """The message of the run's first failed workflow task, waited for with a deadline."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        async for event in handle.fetch_history_events():
            if event.event_type == EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED:
                return event.workflow_task_failed_event_attributes.failure.message
        await asyncio.sleep(0.2)
    raise AssertionError(f"{handle.id} never failed a workflow task")


async def test_a_worker_without_the_shared_folder_fails_the_task_clearly(
    server: WorkflowEnvironment, tmp_path: Path
) -> None:
    starter = client_for(server, config(tmp_path / "shared", encrypted=False))
    stranger = client_for(server, config(tmp_path / "local", encrypted=False))
    markdown = "# Plan\n" + "- step\n" * 20_000
    plan = Plan(version=1, summary="Big", files=[], test_plan=[], risks=[], markdown=markdown)
    inp = ImplementationInput(
        key="DEMO-10",
        project=ticket_input("DEMO-10").project,
        branch="ticketsmith/DEMO-10",
        ticket=TicketContext(key="DEMO-10", summary="Add power", description="Add power(a, b)."),
        plan=plan,
    )
    queue = f"stranger-{uuid.uuid4()}"
    activities = FakeActivities().all()
    async with Worker(stranger, task_queue=queue, workflows=WORKFLOWS, activities=activities):
        handle = await starter.start_workflow(
            "ImplementationWorkflow",
            inp,
            id=f"implementation-DEMO-10-{uuid.uuid4()}",
            task_queue=queue,
            result_type=TicketResult,
            execution_timeout=timedelta(minutes=5),
        )
        try:
            message = await first_task_failure(handle)
        finally:
            await handle.terminate("test over")
    history = await events(starter, handle.id)
    started = payloads_in(history[0].workflow_execution_started_event_attributes)
    assert [reference_in(payload) is not None for _, payload in started] == [True]
    assert str(tmp_path / "local") in message and SETTING in message
