"""The webhook app through HTTP, signalling a real ticket workflow on the test server."""

import json
from collections.abc import AsyncIterator

import httpx
import pytest
from pydantic import SecretStr
from temporalio.testing import WorkflowEnvironment

from config import Settings
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, ticket_input, wait_until
from webhooks.app import create_app
from webhooks.security import expected_signature
from workflows.messages import Status

SECRET = "s3cret"


def comment_event(key: str, text: str, author: str = "alice-1") -> dict[str, object]:
    """A Jira Cloud comment_created payload (comment body in ADF)."""
    paragraph = {"type": "paragraph", "content": [{"type": "text", "text": text}]}
    return {
        "timestamp": 1700000000000,
        "webhookEvent": "comment_created",
        "issue": {"id": "10001", "key": key, "fields": {"summary": "Add power"}},
        "comment": {
            "id": "10100",
            "author": {"accountId": author, "displayName": "Alice Reporter"},
            "body": {"type": "doc", "version": 1, "content": [paragraph]},
        },
    }


def signed(payload: object, delivery: str = "d-1") -> dict[str, object]:
    """Request arguments with the body signed as Jira does for secret-based webhooks."""
    body = json.dumps(payload).encode()
    headers = {
        "Content-Type": "application/json",
        "X-Hub-Signature": expected_signature(SECRET, body),
        "X-Atlassian-Webhook-Identifier": delivery,
    }
    return {"content": body, "headers": headers}


@pytest.fixture
async def http(time_skipping_env: WorkflowEnvironment) -> AsyncIterator[httpx.AsyncClient]:
    """The app over ASGI, with its Temporal client pointing at the test server."""
    settings = Settings(webhook_secret=SecretStr(SECRET))
    app = create_app(settings, client=time_skipping_env.client)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://hooks") as client:
            yield client


async def test_unsigned_body_is_refused(http: httpx.AsyncClient) -> None:
    response = await http.post("/webhooks/jira", json=comment_event("DEMO-1", "hi"))
    assert response.status_code == 401
    assert "signature" in response.json()["error"]


async def test_malformed_body_is_a_clear_400(http: httpx.AsyncClient) -> None:
    body = b"{not json"
    headers = {"X-Hub-Signature": expected_signature(SECRET, body)}
    response = await http.post("/webhooks/jira", content=body, headers=headers)
    assert response.status_code == 400
    assert "JSON" in response.json()["error"]


async def test_other_events_are_ignored(http: httpx.AsyncClient) -> None:
    response = await http.post("/webhooks/jira", **signed({"webhookEvent": "jira:issue_updated"}))
    assert response.json() == {"status": "ignored", "event": "jira:issue_updated"}


async def test_unknown_ticket_is_404(http: httpx.AsyncClient) -> None:
    response = await http.post("/webhooks/jira", **signed(comment_event("NOPE-9", "hi")))
    assert response.status_code == 404
    assert "NOPE-9" in response.json()["error"]


async def test_comments_answer_and_approve(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    fakes = FakeActivities()
    inp = ticket_input("WEB-1")
    async with running_ticket(time_skipping_env, fakes, inp, workflow_id="ticket-WEB-1") as h:
        await wait_until(h, awaiting(Status.AWAITING_ANSWERS))
        answer = signed(comment_event("WEB-1", "Floats for negatives"), delivery="a-1")
        assert (await http.post("/webhooks/jira", **answer)).status_code == 202
        assert (await http.post("/webhooks/jira", **answer)).status_code == 202  # redelivery
        await wait_until(h, awaiting(Status.AWAITING_APPROVAL))
        own = comment_event("WEB-1", "/approve", author="ticketsmith-bot")
        assert (await http.post("/webhooks/jira", **signed(own, "b-1"))).json()["status"] == (
            "ignored"
        )
        approve = signed(comment_event("WEB-1", "/approve"), delivery="c-1")
        response = await http.post("/webhooks/jira", **approve)
        assert response.json() == {"status": "accepted", "signal": "approve"}
        await wait_until(h, awaiting(Status.COMPLETED))
    assert fakes.calls["refine_requirements"][0].answers == ["Floats for negatives"]
