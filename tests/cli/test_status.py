"""`status`, `list` and `watch` over Temporal's HTTP API answer as the gRPC path does, whatever
state a ticket's run is in, or hand over to it."""

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

from cli import commands
from cli.status import listing
from cli.status.over_grpc import StatusUnreadable, read_status
from cli.status.over_http import ticket_status
from cli.terminal import CommandError
from config import ROOT, Settings
from harness.processes import free_port, guard_children
from temporal import http_api as api
from tests.cli.test_grpc_status import ScriptedTicket, slow_tests
from tests.conftest import SEARCH_ATTRIBUTES, venv_binary
from workflows.ticket.messages import Status, TicketStatus


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
        client, task_queue=queue, workflows=[ScriptedTicket], activities=[slow_tests],
        workflow_runner=UnsandboxedWorkflowRunner(),
    ):  # fmt: skip
        await client.execute_workflow(
            "TicketWorkflow", "DONE-1", id="ticket-DONE-1", task_queue=queue
        )
        for key in ("FAIL-1", "SLOW-1"):
            failing = await client.start_workflow(
                "TicketWorkflow", key, id=f"ticket-{key}", task_queue=queue
            )
            with pytest.raises(WorkflowFailureError):
                await failing.result()
        waiting = {
            key: await client.start_workflow(
                "TicketWorkflow", key, id=f"ticket-{key}", task_queue=queue,
                execution_timeout=timedelta(seconds=1) if key == "WAIT-4" else None,
            )
            for key in ("WAIT-1", "WAIT-2", "WAIT-3", "WAIT-4")
        }  # fmt: skip
        await waiting["WAIT-2"].cancel()
        await waiting["WAIT-3"].terminate(reason="stopped by hand")
        for key in ("WAIT-2", "WAIT-3", "WAIT-4"):  # cancelled, terminated, timed out
            with pytest.raises(WorkflowFailureError):
                await waiting[key].result()
        # Empty lists stay lists: the API's written-out payloads would turn them into nulls.
        running = await asyncio.to_thread(ticket_status, settings, "WAIT-1")
        assert TicketStatus.model_validate(running) == await read_status(client, "WAIT-1", wait)
        assert running["questions"] == [] and running["decisions"] == []
    ended = {}
    for key in ("DONE-1", "FAIL-1", "SLOW-1", "WAIT-2", "WAIT-3", "WAIT-4"):
        answer = await asyncio.to_thread(ticket_status, settings, key)
        ended[key] = TicketStatus.model_validate(answer)
        assert ended[key] == await read_status(client, key, wait), key
    assert (ended["DONE-1"].status, ended["DONE-1"].plan_version) == (Status.COMPLETED, 2)
    assert [(ended[k].status, ended[k].message) for k in ("FAIL-1", "WAIT-2", "WAIT-3")] == [
        (Status.FAILED, "Work on this ticket stopped. The plan was rejected 5 times."),
        (Status.CANCELLED, "Work on this ticket was cancelled."),
        (Status.FAILED, "Work on this ticket stopped. stopped by hand."),
    ]
    assert ended["SLOW-1"].message.startswith(
        "Work on this ticket stopped. The run tests step ran longer than its time limit"
    )
    assert "A step ran longer than its time limit" in ended["WAIT-4"].message
    with pytest.raises(CommandError) as over_http:
        await asyncio.to_thread(ticket_status, settings, "NEVER-1")
    with pytest.raises(StatusUnreadable) as over_grpc:
        await read_status(client, "NEVER-1", wait)
    assert (
        str(over_http.value)
        == str(over_grpc.value)
        == ("NEVER-1 has never been started; start it with: starter.py NEVER-1")
    )
    with pytest.raises(api.QueryUnanswered, match="no worker answered its status query within 2"):
        await asyncio.to_thread(ticket_status, settings, "WAIT-1")
    over_http_rows = await asyncio.to_thread(listing.runs, settings, "TicketWorkflow", None)
    assert over_http_rows == await commands.list_runs(settings, "TicketWorkflow", None)
    assert {row["id"] for row in over_http_rows} >= {"ticket-DONE-1", "ticket-FAIL-1"}
    failed_only = await asyncio.to_thread(listing.runs, settings, "TicketWorkflow", "failed")
    assert [row["id"] for row in failed_only] == ["ticket-FAIL-1"]


async def test_the_command_line_reads_every_ended_ticket_without_grpc_config_or_pydantic(
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
        "codes = [starter.main(['status', key]) for key in sys.argv[1:]]\n"
        "codes += [starter.main(['watch', 'WAIT-3']), starter.main(['list'])]\n"
        "heavy = ('temporalio.client', 'config', 'asyncio', 'pydantic')\n"
        "heavy = [m for m in heavy if m in sys.modules]\n"
        "print(json.dumps([codes, heavy]))"
    )
    keys = ["DONE-1", "FAIL-1", "WAIT-2", "WAIT-3", "NEVER-1"]
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", probe, *keys],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert json.loads(done.stdout.splitlines()[-1]) == [[0, 0, 0, 0, 1, 1, 0], []], done.stderr
    for shown in (
        "DONE-1: done / completed",
        "FAIL-1: planning / failed",
        "WAIT-2: refinement / cancelled",
        "WAIT-3: refinement / failed",
        "WAIT-3 failed: Work on this ticket stopped. stopped by hand.",  # watch's only frame
    ):
        assert shown in done.stdout
    assert "error: NEVER-1 has never been started" in done.stderr


def test_switched_off_or_absent_http_api_hands_over_to_grpc() -> None:
    with pytest.raises(api.Unreadable, match="switched off"):
        ticket_status(Settings(temporal_http_url="off"), "DONE-1")
    nowhere = Settings(temporal_http_url=f"http://127.0.0.1:{free_port()}")
    with pytest.raises(api.Unreadable):
        ticket_status(nowhere, "DONE-1")


def test_encrypted_payloads_are_left_to_the_grpc_client() -> None:
    encrypted = {"metadata": {"encoding": "YmluYXJ5L2VuY3J5cHRlZA=="}, "data": "AAAA"}
    with pytest.raises(api.Unreadable, match="binary/encrypted"):
        api.payload_value(encrypted)
    plain = {"metadata": {"encoding": "anNvbi9wbGFpbg=="}, "data": "WyJhIl0="}
    assert api.payload_value(plain) == ["a"]
