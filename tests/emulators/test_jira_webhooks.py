"""The Jira emulator's webhooks: Jira's payload shape, signed, retried and redelivered."""

import json
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx
from fastapi import FastAPI

from emulators.app import create_app
from emulators.jira.webhooks import JiraWebhooks, sign
from tests.emulators.helpers import BOT, emulator_client

SECRET = "hook-secret"
TARGET = "http://hooks.test/webhooks/jira"
COMMENTS = "/rest/api/3/issue/DEMO-1/comment"
ALICE = {"X-Emulator-User": "alice-1"}


def adf(text: str) -> dict:
    paragraph = {"type": "paragraph", "content": [{"type": "text", "text": text}]}
    return {"type": "doc", "version": 1, "content": [paragraph]}


class Receiver:
    """A webhook receiver answering with the given status codes in turn (then 200)."""

    def __init__(self, *statuses: int) -> None:
        self.statuses = list(statuses)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return httpx.Response(self.statuses.pop(0) if self.statuses else 200, json={})

    def payloads(self) -> list[dict]:
        return [json.loads(r.content) for r in self.requests]


def emulator(tmp_path: Path, receiver: Callable[[httpx.Request], httpx.Response]) -> FastAPI:
    hooks = JiraWebhooks(
        TARGET, SECRET, transport=httpx.MockTransport(receiver), backoff_seconds=0.01
    )
    return create_app(tmp_path, webhooks=hooks)


async def drained(app: FastAPI) -> None:
    await app.state.webhooks.drain(timeout=10)


async def test_comment_created_is_signed_and_shaped_like_jiras(tmp_path: Path) -> None:
    receiver = Receiver()
    app = emulator(tmp_path, receiver)
    async with emulator_client(app) as http:
        posted = await http.post(COMMENTS, json={"body": adf("Use *floats*")}, headers=ALICE)
        await drained(app)
    (request,) = receiver.requests
    assert str(request.url) == TARGET
    assert request.headers["X-Hub-Signature"] == sign(SECRET, request.content)
    assert request.headers["Content-Type"].startswith("application/json")
    uuid.UUID(request.headers["X-Atlassian-Webhook-Identifier"])
    assert "X-Atlassian-Webhook-Retry" not in request.headers
    payload = json.loads(request.content)
    assert payload["webhookEvent"] == "comment_created"
    assert isinstance(payload["timestamp"], int)
    assert payload["issue"]["key"] == "DEMO-1"
    assert payload["issue"]["id"] == "10001"
    assert payload["issue"]["fields"]["summary"] == "Add a power operation to the calculator"
    comment = payload["comment"]
    assert comment["id"] == posted.json()["id"]
    assert comment["author"]["accountId"] == "alice-1"
    assert comment["author"]["displayName"] == "Alice Reporter"
    assert comment["body"] == "Use \\*floats\\*"  # wiki markup, as Jira sends it
    assert comment["created"] == comment["updated"] == posted.json()["created"]


async def test_the_bots_own_comments_are_sent_too(tmp_path: Path) -> None:
    receiver = Receiver()
    app = emulator(tmp_path, receiver)
    async with emulator_client(app) as http:
        await http.post(COMMENTS, json={"body": adf("questions")}, headers=BOT)
        await drained(app)
    assert receiver.payloads()[0]["comment"]["author"]["accountId"] == "ticketsmith-bot"


async def test_failed_deliveries_are_retried_with_the_same_identifier(tmp_path: Path) -> None:
    receiver = Receiver(503, 500)
    app = emulator(tmp_path, receiver)
    async with emulator_client(app) as http:
        await http.post(COMMENTS, json={"body": adf("hi")}, headers=ALICE)
        await drained(app)
        log = (await http.get("/_emulator/webhooks")).json()
    assert len(receiver.requests) == 3
    ids = {r.headers["X-Atlassian-Webhook-Identifier"] for r in receiver.requests}
    assert len(ids) == 1
    assert [r.headers.get("X-Atlassian-Webhook-Retry") for r in receiver.requests] == [
        None, "1", "2",
    ]  # fmt: skip
    assert len({r.content for r in receiver.requests}) == 1
    (delivery,) = log["deliveries"]
    assert log["url"] == TARGET
    assert delivery["state"] == "delivered"
    assert [a["status_code"] for a in delivery["attempts"]] == [503, 500, 200]


async def test_a_rejected_delivery_is_not_retried(tmp_path: Path) -> None:
    receiver = Receiver(401)
    app = emulator(tmp_path, receiver)
    async with emulator_client(app) as http:
        await http.post(COMMENTS, json={"body": adf("hi")}, headers=ALICE)
        await drained(app)
    assert len(receiver.requests) == 1
    assert app.state.webhooks.deliveries[0]["state"] == "rejected"


async def test_redelivery_repeats_identifier_and_body(tmp_path: Path) -> None:
    receiver = Receiver()
    app = emulator(tmp_path, receiver)
    async with emulator_client(app) as http:
        await http.post(COMMENTS, json={"body": adf("hi")}, headers=ALICE)
        await drained(app)
        delivery_id = app.state.webhooks.deliveries[0]["id"]
        again = await http.post(f"/_emulator/webhooks/{delivery_id}/redeliver")
        assert again.status_code == 202
        await drained(app)
        assert (await http.post("/_emulator/webhooks/nope/redeliver")).status_code == 404
    first, second = receiver.requests
    assert first.content == second.content
    assert second.headers["X-Atlassian-Webhook-Identifier"] == delivery_id


async def test_label_and_status_changes_send_issue_updated(tmp_path: Path) -> None:
    receiver = Receiver()
    app = emulator(tmp_path, receiver)
    async with emulator_client(app) as http:
        edit = {"update": {"labels": [{"add": "ticketsmith"}]}}
        await http.put("/rest/api/3/issue/DEMO-1", json=edit, headers=ALICE)
        await http.put("/rest/api/3/issue/DEMO-1", json=edit, headers=ALICE)  # no change
        move = {"transition": {"id": "21"}}
        await http.post("/rest/api/3/issue/DEMO-1/transitions", json=move, headers=BOT)
        await drained(app)
    labels, status = receiver.payloads()
    assert labels["webhookEvent"] == status["webhookEvent"] == "jira:issue_updated"
    assert labels["user"]["accountId"] == "alice-1"
    assert labels["issue"]["fields"]["labels"][-1] == "ticketsmith"
    assert labels["changelog"]["items"] == [
        {
            "field": "labels",
            "fieldtype": "jira",
            "fieldId": "labels",
            "from": None,
            "fromString": "calculator good-first-issue",
            "to": None,
            "toString": "calculator good-first-issue ticketsmith",
        }
    ]
    item = status["changelog"]["items"][0]
    assert (item["field"], item["fromString"], item["toString"]) == (
        "status", "To Do", "In Progress",
    )  # fmt: skip


async def test_without_a_url_nothing_is_sent(tmp_path: Path) -> None:
    app = create_app(tmp_path)
    async with emulator_client(app) as http:
        await http.post(COMMENTS, json={"body": adf("hi")}, headers=ALICE)
        assert (await http.get("/_emulator/webhooks")).json() == {"url": None, "deliveries": []}
