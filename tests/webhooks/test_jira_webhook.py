"""The webhook app through HTTP with signed, real-shaped payloads, signalling and starting real
ticket workflows on the test server."""

import httpx
import pytest
from temporalio.client import Client, WorkflowExecutionStatus
from temporalio.service import RPCError, RPCStatusCode
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from config import Settings
from harness.jira_payloads import comment_event
from tests.webhooks.payloads import created_event, jira_request, labels_event, unique_key
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import awaiting, wait_until
from workflows.registry import WORKFLOWS
from workflows.ticket.messages import Status


async def workflow_exists(client: Client, key: str) -> bool:
    try:
        await client.get_workflow_handle(f"ticket-{key}").describe()
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            return False
        raise
    return True


async def test_forged_or_missing_signatures_are_401_and_start_nothing(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    event = labels_event(key, [], ["ticketsmith"])
    missing = jira_request(event, secret=None)
    forged = jira_request(event, secret="not-the-secret")
    tampered = jira_request(event)
    tampered["content"] = tampered["content"].replace(b"ticketsmith", b"ticketsmitH")
    for attempt in (missing, forged, tampered):
        response = await http.post("/webhooks/jira", **attempt)
        assert response.status_code == 401
        assert "signature" in response.json()["error"]
    assert not await workflow_exists(time_skipping_env.client, key)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[1, 2]", "not a JSON object"),
        (
            b'{"webhookEvent": "comment_created", "issue": {}, "comment": {"body": "x"}}',
            "issue.key",
        ),
        (b'{"webhookEvent": "comment_created", "issue": {"key": "WEB-1"}}', "comment.body"),
        (b'{"webhookEvent": "jira:issue_updated", "issue": {}}', "issue.key"),
    ],
)
async def test_malformed_bodies_are_400_with_the_reason(
    http: httpx.AsyncClient, body: bytes, reason: str
) -> None:
    response = await http.post("/webhooks/jira", **jira_request(body, delivery=None))
    assert response.status_code == 400
    assert reason in response.json()["error"]


async def test_other_events_are_ignored(http: httpx.AsyncClient) -> None:
    deleted = await http.post("/webhooks/jira", **jira_request({"webhookEvent": "issue_deleted"}))
    assert deleted.status_code == 200
    assert deleted.json()["status"] == "ignored" and deleted.json()["event"] == "issue_deleted"
    other_label = labels_event(unique_key(), ["a"], ["a", "b"])
    relabelled = await http.post("/webhooks/jira", **jira_request(other_label, delivery="d-2"))
    assert relabelled.json()["status"] == "ignored"
    assert "'ticketsmith' was not added" in relabelled.json()["reason"]


async def test_comment_on_a_ticket_without_workflow_is_404(http: httpx.AsyncClient) -> None:
    key = unique_key()
    response = await http.post("/webhooks/jira", **jira_request(comment_event(key, "hi")))
    assert response.status_code == 404
    message = response.json()["error"]
    assert f"no ticketsmith workflow for {key}" in message and "starter.py" in message


async def test_adding_the_label_starts_the_ticket_once(
    http: httpx.AsyncClient, settings: Settings, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    client = time_skipping_env.client
    event = labels_event(key, ["calculator"], ["calculator", "TicketSmith"])
    fakes = FakeActivities()
    async with Worker(
        client, task_queue=settings.task_queue, workflows=WORKFLOWS, activities=fakes.all()
    ):
        first = await http.post("/webhooks/jira", **jira_request(event, delivery="l-1"))
        assert first.status_code == 202
        assert first.json() == {
            "status": "accepted",
            "workflow_id": f"ticket-{key}",
            "started": True,
        }
        again = await http.post("/webhooks/jira", **jira_request(event, delivery="l-1"))
        assert again.json()["reason"] == "delivery l-1 was already handled"
        other = await http.post("/webhooks/jira", **jira_request(event, delivery="l-2"))
        assert other.json()["started"] is False  # a second webhook attaches to the running one
        handle = client.get_workflow_handle(f"ticket-{key}")
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        described = await handle.describe()
        await handle.terminate("test over")
        finished = await http.post("/webhooks/jira", **jira_request(event, delivery="l-3"))
    assert described.status == WorkflowExecutionStatus.RUNNING
    assert finished.status_code == 200
    assert finished.json()["reason"] == (
        f"ticket-{key} already ran and is terminated; to work on {key} again, run: "
        f"starter.py {key} --restart"
    )
    assert [c.key for c in fakes.calls["fetch_jira_ticket"]] == [key]


async def test_label_on_an_unconfigured_project_is_ignored(http: httpx.AsyncClient) -> None:
    event = labels_event(unique_key("NOPE"), [], ["ticketsmith"])
    response = await http.post("/webhooks/jira", **jira_request(event))
    assert response.status_code == 200
    assert "not configured" in response.json()["reason"]


async def test_an_issue_created_with_the_label_starts(
    http: httpx.AsyncClient, settings: Settings, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    client = time_skipping_env.client
    async with Worker(
        client,
        task_queue=settings.task_queue,
        workflows=WORKFLOWS,
        activities=FakeActivities().all(),
    ):
        plain = await http.post("/webhooks/jira", **jira_request(created_event(key, ["x"]), "n-1"))
        assert plain.json()["reason"] == "the label 'ticketsmith' was not added"
        labelled = created_event(key, ["x", "ticketsmith"])
        started = await http.post("/webhooks/jira", **jira_request(labelled, "n-2"))
        assert started.json() == {
            "status": "accepted",
            "workflow_id": f"ticket-{key}",
            "started": True,
        }
        handle = client.get_workflow_handle(f"ticket-{key}")
        await wait_until(handle, awaiting(Status.AWAITING_ANSWERS))
        await handle.terminate("test over")
