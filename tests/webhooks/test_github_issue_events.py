"""GitHub issue deliveries to the real webhook app: a project tracked on GitHub Issues starts
and signals its tickets from issue labels and comments."""

import asyncio
import logging
import random
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from temporalio.client import Client, WorkflowExecutionStatus, WorkflowHandle
from temporalio.service import RPCError, RPCStatusCode
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from config import Settings
from tests.webhooks.payloads import SECRET, github_example, github_request
from tests.webhooks.recording_ticket import RecordingTicket
from webhooks.tracker_comments import STATUS
from workflows.ticket.messages import Status, TicketInput

DEADLINE_S = 10.0


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    projects = tmp_path / "projects.toml"
    projects.write_text('[projects.WEB]\nrepository = "demo/calc"\ntracker = "github"\n')
    queue = f"issues-{uuid.uuid4()}"
    return Settings(
        webhook_secret=SecretStr(SECRET), projects_file=projects, task_queue=queue,
        agent_task_queue=queue, github_start_label="ticketsmith",
    )  # fmt: skip


def new_number() -> int:
    """An issue number no other test of the module uses (they share the test server)."""
    return random.randrange(10**6, 10**7)


def issue_event(
    number: int, label: str = "ticketsmith", repository: str = "demo/calc"
) -> dict[str, Any]:
    """An `issues` labeled delivery: `label` added to issue `number` by carol."""
    documented = github_example("issue_comment", "created")
    issue = documented["issue"] | {"number": number, "title": "Add power", "labels": []}
    issue["labels"] = [{"name": "calculator"}, {"name": label}]
    return {
        "action": "labeled",
        "issue": issue,
        "label": {"name": label},
        "repository": documented["repository"] | {"full_name": repository},
        "sender": documented["sender"] | {"login": "carol"},
    }


def comment_event(
    number: int, body: str, login: str = "carol", association: str = "COLLABORATOR"
) -> dict[str, Any]:
    """An `issue_comment` created delivery on issue `number` of demo/calc."""
    event = github_example("issue_comment", "created")
    event["issue"]["number"] = number
    event["comment"] |= {"id": new_number(), "body": body, "author_association": association}
    event["comment"]["user"]["login"] = login
    event["sender"]["login"] = login
    event["repository"]["full_name"] = "demo/calc"
    return event


async def post(
    http: httpx.AsyncClient, event: str, payload: dict[str, Any], delivery: str | None = None
) -> httpx.Response:
    return await http.post("/webhooks/github", **github_request(event, payload, delivery=delivery))


async def running(client: Client, workflow_id: str) -> WorkflowHandle[Any, Any] | None:
    """The handle of a workflow that runs, None when none was started."""
    handle = client.get_workflow_handle(workflow_id)
    try:
        described = await handle.describe()
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            return None
        raise
    assert described.status == WorkflowExecutionStatus.RUNNING
    return handle


async def started_input(handle: WorkflowHandle[Any, Any], client: Client) -> TicketInput:
    """The input a workflow was started with."""
    history = await handle.fetch_history()
    payload = history.events[0].workflow_execution_started_event_attributes.input.payloads[0]
    found: TicketInput = client.data_converter.payload_converter.from_payload(payload, TicketInput)
    return found


async def status_is(handle: WorkflowHandle[Any, Any], status: Status) -> None:
    """Wait, up to a deadline, until the workflow's Status search attribute is `status`."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        described = await handle.describe()
        if described.typed_search_attributes.get(STATUS) == status.value:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{handle.id} never had status {status.value}")


async def signals_of(handle: WorkflowHandle[Any, Any]) -> list[dict[str, Any]]:
    """The signals the stand-in got, once it got any, up to a deadline."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        if found := await handle.query(RecordingTicket.signals):
            return list(found)
        await asyncio.sleep(0.05)
    raise AssertionError(f"{handle.id} never received a signal")


async def test_the_start_label_starts_the_ticket_once(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    """Adding the start label starts ticket-WEB-<n>; a redelivery is handled once."""
    client, number = time_skipping_env.client, new_number()
    first = await post(http, "issues", issue_event(number), delivery=f"l-{number}")
    again = await post(http, "issues", issue_event(number), delivery=f"l-{number}")
    other = await post(http, "issues", issue_event(number))
    handle = await running(client, f"ticket-WEB-{number}")
    assert handle is not None
    try:
        described = await handle.describe()
        inp = await started_input(handle, client)
    finally:
        await handle.terminate("test over")
    assert first.status_code == 202
    assert first.json() == {
        "status": "accepted",
        "workflow_id": f"ticket-WEB-{number}",
        "started": True,
    }
    assert again.json() == {
        "status": "ignored",
        "reason": f"delivery l-{number} was already handled",
        "event": "issues",
    }
    assert other.json()["started"] is False  # attached to the running ticket
    assert described.workflow_type == "TicketWorkflow"
    assert (inp.key, inp.project.repository) == (f"WEB-{number}", "demo/calc")
    assert inp.project.closes_issue == f"#{number}"


async def test_another_label_starts_nothing(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    """A label other than the start label is ignored, saying which label starts."""
    number = new_number()
    response = await post(http, "issues", issue_event(number, label="bug"))
    assert response.status_code == 200
    assert response.json() == {
        "status": "ignored",
        "reason": "the label 'ticketsmith' was not added",
        "event": "issues",
    }
    assert await running(time_skipping_env.client, f"ticket-WEB-{number}") is None


async def test_an_untracked_repository_is_ignored(
    http: httpx.AsyncClient,
    time_skipping_env: WorkflowEnvironment,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Issues of a repository no project tracks start nothing, naming the repository, and the
    log says so."""
    number = new_number()
    with caplog.at_level(logging.INFO, logger="ticketsmith.webhooks"):
        response = await post(http, "issues", issue_event(number, repository="demo/sizes"))
    assert "delivery ignored: an issue event; no project tracks the issues of demo/sizes" in (
        caplog.text
    )
    assert response.status_code == 200
    assert response.json()["status"] == "ignored"
    assert "no project tracks the issues of demo/sizes" in response.json()["reason"]
    assert await running(time_skipping_env.client, f"ticket-WEB-{number}") is None


async def test_a_comment_on_an_issue_without_ticket_is_ignored(http: httpx.AsyncClient) -> None:
    """A comment on an issue no ticket works on says it is no ticket."""
    number = new_number()
    response = await post(http, "issue_comment", comment_event(number, "Any news?"))
    assert response.status_code == 200
    assert response.json()["status"] == "ignored"
    assert f"demo/calc#{number} is not a ticket" in response.json()["reason"]


async def test_a_bad_command_on_an_issue_without_ticket_is_chatter(
    http: httpx.AsyncClient,
) -> None:
    """A command no ticket could use, on an issue that is no ticket, is no error either."""
    number = new_number()
    response = await post(http, "issue_comment", comment_event(number, "/budget lots"))
    assert response.status_code == 200
    assert f"demo/calc#{number} is not a ticket" in response.json()["reason"]


async def test_a_mention_starts_the_ticket_only_from_the_repositorys_people(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    """A passer-by's mention starts nothing; a collaborator's starts the ticket."""
    client, number = time_skipping_env.client, new_number()
    text = "@ticketsmith-bot please take this one"
    stranger = await post(http, "issue_comment", comment_event(number, text, "mallory", "NONE"))
    assert stranger.status_code == 200
    assert stranger.json()["reason"].startswith(
        "mallory is not an owner, member or collaborator of demo/calc"
    )
    assert await running(client, f"ticket-WEB-{number}") is None
    collaborator = await post(http, "issue_comment", comment_event(number, text))
    handle = await running(client, f"ticket-WEB-{number}")
    assert handle is not None
    await handle.terminate("test over")
    assert collaborator.status_code == 202
    assert collaborator.json() == {
        "status": "accepted",
        "workflow_id": f"ticket-WEB-{number}",
        "started": True,
    }


async def test_approve_reaches_a_ticket_waiting_for_approval(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    """/approve is refused while the ticket runs and signalled once it awaits approval."""
    client, queue = time_skipping_env.client, f"waiting-{uuid.uuid4()}"
    busy, waiting = new_number(), new_number()
    async with Worker(client, task_queue=queue, workflows=[RecordingTicket]):
        handles = {
            number: await client.start_workflow(
                RecordingTicket.run, status.value, id=f"ticket-WEB-{number}", task_queue=queue
            )
            for number, status in ((busy, Status.RUNNING), (waiting, Status.AWAITING_APPROVAL))
        }
        try:
            for number, status in ((busy, Status.RUNNING), (waiting, Status.AWAITING_APPROVAL)):
                await status_is(handles[number], status)
            early = await post(http, "issue_comment", comment_event(busy, "/approve"))
            approve = await post(http, "issue_comment", comment_event(waiting, "/approve"))
            signals = await signals_of(handles[waiting])
            assert await handles[busy].query(RecordingTicket.signals) == []
        finally:
            for handle in handles.values():
                await handle.terminate("test over")
    assert early.json() == {
        "status": "ignored",
        "reason": f"WEB-{busy} is not waiting for an approval: it is running",
    }
    assert approve.status_code == 202
    assert approve.json() == {"status": "accepted", "signal": "approve"}
    assert [s["signal"] for s in signals] == ["approve"]
    assert signals[0]["payload"]["author_ids"] == ["carol"]
    assert signals[0]["payload"]["author"] == "carol"


async def test_a_passer_by_neither_answers_nor_approves_nor_steers(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    """On a public repository anyone may comment: only the repository's people, or the logins
    the project allows, reach the ticket."""
    client, queue, number = time_skipping_env.client, f"strangers-{uuid.uuid4()}", new_number()
    async with Worker(client, task_queue=queue, workflows=[RecordingTicket]):
        handle = await client.start_workflow(
            RecordingTicket.run,
            Status.AWAITING_APPROVAL.value,
            id=f"ticket-WEB-{number}",
            task_queue=queue,
        )
        try:
            await status_is(handle, Status.AWAITING_APPROVAL)
            refused = [
                await post(http, "issue_comment", comment_event(number, text, "mallory", "NONE"))
                for text in ("/approve", "/budget +$50", "/stop", "Yes, a float.")
            ]
            contributor = comment_event(number, "/approve", "erin", "CONTRIBUTOR")
            also_refused = await post(http, "issue_comment", contributor)
            reporter = comment_event(number, "Yes, a float.", "mallory", "NONE")
            reporter["issue"]["user"]["login"] = "mallory"  # who filed the issue is heard
            heard = await post(http, "issue_comment", reporter)
            member = await post(http, "issue_comment", comment_event(number, "/approve"))
            signals = await signals_of(handle)
        finally:
            await handle.terminate("test over")
    for response in [*refused, also_refused]:
        assert response.status_code == 200 and response.json()["status"] == "ignored"
        assert f"does not answer, approve or steer WEB-{number}" in response.json()["reason"]
    assert (
        heard.json()["reason"]
        == f"WEB-{number} is not waiting for answers: it is awaiting_approval"
    )
    assert member.status_code == 202
    assert [(s["signal"], s["payload"]["author"]) for s in signals] == [("approve", "carol")]


async def test_an_issue_without_number_is_400(http: httpx.AsyncClient) -> None:
    """A payload whose issue has no number is refused, saying what is missing."""
    event = issue_event(new_number())
    del event["issue"]["number"]
    response = await post(http, "issues", event)
    assert response.status_code == 400
    assert "missing issue.number" in response.json()["error"]


async def test_the_bots_own_comment_is_ignored(http: httpx.AsyncClient) -> None:
    """The bot's comments are its own events, whatever they say."""
    event = comment_event(new_number(), "/approve", login="ticketsmith-bot", association="NONE")
    response = await post(http, "issue_comment", event)
    assert response.status_code == 200
    assert response.json() == {
        "status": "ignored",
        "reason": "own event: sent by ticketsmith-bot",
        "event": "issue_comment",
    }


async def test_closing_the_issue_cancels_a_ticket_before_review(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    """A closed issue cancels its running ticket; one with no ticket is only noted."""
    client, queue = time_skipping_env.client, f"closed-{uuid.uuid4()}"
    number, nobody = new_number(), new_number()
    closed = issue_event(number) | {"action": "closed"}
    async with Worker(client, task_queue=queue, workflows=[RecordingTicket]):
        handle = await client.start_workflow(
            RecordingTicket.run, Status.RUNNING.value, id=f"ticket-WEB-{number}", task_queue=queue
        )
        await status_is(handle, Status.RUNNING)
        answer = await post(http, "issues", closed)
        deadline = time.monotonic() + DEADLINE_S
        while (await handle.describe()).status == WorkflowExecutionStatus.RUNNING:
            assert time.monotonic() < deadline, f"{handle.id} was not cancelled"
            await asyncio.sleep(0.05)
        ended = (await handle.describe()).status
    unknown = await post(http, "issues", issue_event(nobody) | {"action": "closed"})
    assert answer.status_code == 202
    assert answer.json() == {"status": "accepted", "workflow_id": handle.id, "cancelled": True}
    assert ended == WorkflowExecutionStatus.CANCELED
    assert unknown.json()["reason"] == f"WEB-{nobody} closed: no ticket works on it"
