"""GitHub webhooks: signatures, body formats, and events no ticket owns answered 200 ignored."""

import json
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import httpx
import pytest
from pydantic import SecretStr
from temporalio.testing import WorkflowEnvironment

from config import Settings
from tests.webhooks.payloads import SECRET, github_example, github_request
from webhooks.app import create_app
from webhooks.dedup import DeliveryLog

EXAMPLES = {  # documented deliveries for pull request #2 on `changes`, and its head commit
    "check_run": ("completed", 0),
    "check_suite": ("completed", 0),
    "workflow_run": ("completed", 2),
    "status": (None, 0),
    "pull_request": ("synchronize", 0),
    "pull_request_review_comment": ("created", 1),
}


@pytest.fixture
async def http(time_skipping_env: WorkflowEnvironment) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(Settings(webhook_secret=SecretStr(SECRET)), client=time_skipping_env.client)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://hooks") as client:
            yield client


@pytest.mark.parametrize("event", sorted(EXAMPLES))
async def test_a_pull_request_no_ticket_owns_is_ignored(
    http: httpx.AsyncClient, event: str
) -> None:
    payload = github_example(event, *EXAMPLES[event])  # `changes` is no ticket's branch
    response = await http.post("/webhooks/github", **github_request(event, payload))
    assert response.status_code == 200
    assert response.json() == {
        "status": "ignored",
        "reason": "no ticket owns this pull request",
        "event": event,
    }


@pytest.mark.parametrize("event", ["workflow_job", "create", "issues"])
async def test_other_events_are_ignored(http: httpx.AsyncClient, event: str) -> None:
    response = await http.post("/webhooks/github", **github_request(event, {"zen": "x"}))
    assert response.status_code == 200
    assert response.json()["reason"] == f"event {event!r} is not one ticketsmith acts on"


async def test_a_payload_not_shaped_like_githubs_is_400(http: httpx.AsyncClient) -> None:
    broken = {"action": "completed", "check_run": {"status": "completed", "conclusion": "failure"}}
    response = await http.post("/webhooks/github", **github_request("check_run", broken))
    assert response.status_code == 400 and "head_sha" in response.json()["error"]


@pytest.mark.parametrize(
    ("event", "field", "value"),
    [
        ("issue_comment", "sender", ["carol"]),
        ("issue_comment", "repository", "demo/calc"),
        ("issue_comment", "comment.user", "carol"),
        ("issues", "label", "ticketsmith"),
        ("pull_request", "pull_request.head", "changes"),
        ("check_run", "check_run", "done"),
    ],
)
async def test_a_signed_payload_with_a_field_that_is_no_object_is_400(
    http: httpx.AsyncClient, event: str, field: str, value: object
) -> None:
    payload = github_example("issue_comment", "created") if event == "issues" else None
    payload = payload or github_example(event, EXAMPLES.get(event, ("created", 0))[0])
    parent, *rest = field.split(".")
    if rest:
        payload[parent][rest[0]] = value
    else:
        payload[parent] = value
    response = await http.post("/webhooks/github", **github_request(event, payload))
    assert response.status_code == 400, response.text
    assert response.json()["error"] == (
        f"{event} payload is not shaped like GitHub's: {field} must be an object"
    )


async def test_a_form_encoded_delivery_is_read_from_its_payload_field(
    http: httpx.AsyncClient,
) -> None:
    payload = {"zen": "Keep it logically awesome.", "hook_id": 1, "hook": {"type": "Repository"}}
    body = urlencode({"payload": json.dumps(payload)}).encode()
    request = github_request("ping", body)
    request["headers"]["Content-Type"] = "application/x-www-form-urlencoded"
    response = await http.post("/webhooks/github", **request)
    assert response.status_code == 200
    assert response.json()["event"] == "ping"
    request = github_request("ping", b"payload=%7Boops")
    request["headers"]["Content-Type"] = "application/x-www-form-urlencoded"
    broken = await http.post("/webhooks/github", **request)
    assert broken.status_code == 400 and "not valid JSON" in broken.json()["error"]


async def test_wrong_or_missing_signature_is_401(http: httpx.AsyncClient) -> None:
    for secret in (None, "other"):
        response = await http.post("/webhooks/github", **github_request("push", {}, secret))
        assert response.status_code == 401


async def test_malformed_body_is_400(http: httpx.AsyncClient) -> None:
    response = await http.post("/webhooks/github", **github_request("push", b"{oops"))
    assert response.status_code == 400
    assert "not valid JSON" in response.json()["error"]


async def test_healthz(http: httpx.AsyncClient) -> None:
    assert (await http.get("/healthz")).json() == {"status": "ok"}


def test_delivery_log_is_bounded_and_forgets_failures() -> None:
    log = DeliveryLog(size=3)
    assert [log.claim(d) for d in ("a", "b", "a")] == [True, True, False]
    for d in ("c", "d", "e"):
        log.claim(d)
    assert len(log) == 3
    assert log.claim("a") is True  # the oldest were forgotten
    log.release("a")
    assert log.claim("a") is True
