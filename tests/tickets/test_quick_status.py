"""`status` and `list` over Temporal's HTTP API answer as the gRPC path does, or hand over to it."""

import asyncio
import json
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
from temporalio.client import Client, WorkflowFailureError
from temporalio.common import SearchAttributeKey
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from config import ROOT, Settings
from tests.conftest import SEARCH_ATTRIBUTES, venv_binary
from tests.support.processes import free_port, guard_children
from tests.tickets.test_status import ScriptedTicket
from tickets import commands, quick
from tickets import temporal_http as api
from tickets.status import read_status
from tickets.terminal import CommandError
from workflows.messages import Status


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[tuple[Client, Settings]]:
    http_port = free_port()
    env = await WorkflowEnvironment.start_local(
        data_converter=pydantic_data_converter,
        dev_server_existing_path=venv_binary("temporal"),
        dev_server_extra_args=["--headless", "--http-port", str(http_port)],
        search_attributes=[SearchAttributeKey.for_keyword(n) for n in SEARCH_ATTRIBUTES],
    )
    guard_children()
    address = env.client.service_client.config.target_host
    settings = Settings(
        temporal_address=address, temporal_http_port=http_port, status_query_seconds=2
    )
    async with env:
        yield env.client, settings


async def test_statuses_read_over_http_equal_the_grpc_answers(
    server: tuple[Client, Settings],
) -> None:
    client, settings = server
    queue = f"quick-{uuid.uuid4()}"
    wait = timedelta(seconds=10)
    async with Worker(
        client, task_queue=queue, workflows=[ScriptedTicket],
        workflow_runner=UnsandboxedWorkflowRunner(),
    ):  # fmt: skip
        await client.execute_workflow(
            "TicketWorkflow", "DONE-1", id="ticket-DONE-1", task_queue=queue
        )
        failed = await client.start_workflow(
            "TicketWorkflow", "FAIL-1", id="ticket-FAIL-1", task_queue=queue
        )
        with pytest.raises(WorkflowFailureError):
            await failed.result()
        await client.start_workflow(
            "TicketWorkflow", "WAIT-1", id="ticket-WAIT-1", task_queue=queue
        )
        # Empty lists stay lists: the API's written-out payloads would turn them into nulls.
        running = await asyncio.to_thread(quick.ticket_status, settings, "WAIT-1")
        assert running == await read_status(client, "WAIT-1", wait)
        assert running.questions == [] and running.decisions == []
    completed = await asyncio.to_thread(quick.ticket_status, settings, "DONE-1")
    assert completed == await read_status(client, "DONE-1", wait)
    assert (completed.status, completed.plan_version) == (Status.COMPLETED, 2)
    with pytest.raises(api.Unreadable, match="FAILED"):  # its failure is worded over gRPC
        await asyncio.to_thread(quick.ticket_status, settings, "FAIL-1")
    with pytest.raises(api.Unreadable, match="404"):  # gRPC says how to start it
        await asyncio.to_thread(quick.ticket_status, settings, "NEVER-1")
    with pytest.raises(CommandError, match="no worker answered its status query within 2 s"):
        await asyncio.to_thread(quick.ticket_status, settings, "WAIT-1")
    over_http = await asyncio.to_thread(quick.runs, settings, "TicketWorkflow", None)
    assert over_http == await commands.list_runs(settings, "TicketWorkflow", None)
    assert {row["id"] for row in over_http} >= {"ticket-DONE-1", "ticket-FAIL-1", "ticket-WAIT-1"}
    failed_only = await asyncio.to_thread(quick.runs, settings, "TicketWorkflow", "failed")
    assert [row["id"] for row in failed_only] == ["ticket-FAIL-1"]


async def test_the_command_line_reads_a_finished_ticket_without_the_grpc_client(
    server: tuple[Client, Settings],
) -> None:
    _, settings = server
    env = {
        "TICKETSMITH_TEMPORAL_ADDRESS": settings.temporal_address,
        "TICKETSMITH_TEMPORAL_HTTP_URL": settings.temporal_http_url,
        "PYTHONPATH": str(ROOT),
    }
    probe = (
        "import json, sys, starter\n"
        "code = starter.main(['status', 'DONE-1'])\n"
        "print(json.dumps([code, 'temporalio.client' in sys.modules]))"
    )
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", probe],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "DONE-1: done / completed" in done.stdout
    assert json.loads(done.stdout.splitlines()[-1]) == [0, False]


def test_switched_off_or_absent_http_api_hands_over_to_grpc() -> None:
    with pytest.raises(api.Unreadable, match="switched off"):
        quick.ticket_status(Settings(temporal_http_url="off"), "DONE-1")
    nowhere = Settings(temporal_http_url=f"http://127.0.0.1:{free_port()}")
    with pytest.raises(api.Unreadable):
        quick.ticket_status(nowhere, "DONE-1")


def test_encrypted_payloads_are_left_to_the_grpc_client() -> None:
    encrypted = {"metadata": {"encoding": "YmluYXJ5L2VuY3J5cHRlZA=="}, "data": "AAAA"}
    with pytest.raises(api.Unreadable, match="binary/encrypted"):
        api.payload_value(encrypted)
    plain = {"metadata": {"encoding": "anNvbi9wbGFpbg=="}, "data": "WyJhIl0="}
    assert api.payload_value(plain) == ["a"]
