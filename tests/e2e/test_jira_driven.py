"""DEMO-1 driven only through Jira: people label the issue and comment on it in the Jira
emulator, which sends signed webhooks to the stack's webhook app."""

import base64
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from temporalio.client import Client

from config import Settings
from embedded.demo import DEMO_ANSWER, DEMO_KEY
from embedded.stack import Stack
from harness.stacks import stack_settings
from integrations.jira.adf import markdown_to_adf
from temporal.client import connect_temporal
from tests.e2e.stacks import admin, poll, running
from workflows.ticket.messages import Status, TicketResult, TicketStatus

pytestmark = pytest.mark.e2e
ISSUE = f"/rest/api/3/issue/{DEMO_KEY}"


def as_person(email: str) -> dict[str, str]:
    """Basic auth as a seeded human user, the way a person's API token signs in."""
    return {"Authorization": "Basic " + base64.b64encode(f"{email}:token".encode()).decode()}


ALICE, BOB = as_person("alice@example.com"), as_person("bob@example.com")


@pytest.fixture(scope="module", params=["cloud", "server"])
async def stack(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Stack]:
    """A stack whose webhook app checks signatures with the secret the emulator signs with;
    its Jira sends webhooks as Cloud or as Server/DC does."""
    data = tmp_path_factory.mktemp(f"jira-driven-{request.param}")
    settings = stack_settings(
        data,
        webhook_secret=SecretStr("e2e-webhook-secret"),
        emulator_jira_server_webhooks=request.param == "server",
    )
    async with running(settings) as stack:
        yield stack


async def status_once(client: Client, wanted: Status) -> TicketStatus | None:
    """The ticket's status when it is `wanted` (None before it exists or gets there)."""
    handle = client.get_workflow_handle(f"ticket-{DEMO_KEY}")
    try:
        current = await handle.query("status", result_type=TicketStatus)
    except Exception:  # not started yet: the label's webhook is on its way
        return None
    assert current.status not in (Status.FAILED, Status.CANCELLED), current.message
    return current if current.status == wanted else None


async def deliveries(http: httpx.AsyncClient) -> list[dict[str, Any]]:
    return (await http.get("/_emulator/webhooks")).json()["deliveries"]


async def test_demo_ticket_driven_by_jira_comments(stack: Stack) -> None:
    settings = stack.settings
    client = await connect_temporal(settings)
    async with admin(settings) as http:
        label = {"update": {"labels": [{"add": settings.jira_start_label}]}}
        assert (await http.put(ISSUE, json=label, headers=ALICE)).status_code == 204
        asked = await poll(lambda: status_once(client, Status.AWAITING_ANSWERS), "questions")
        assert asked.questions

        answer = {"body": markdown_to_adf(DEMO_ANSWER)}
        assert (await http.post(f"{ISSUE}/comment", json=answer, headers=ALICE)).is_success
        await poll(lambda: status_once(client, Status.AWAITING_APPROVAL), "the plan")

        approval = {"body": markdown_to_adf("/approve")}
        assert (await http.post(f"{ISSUE}/comment", json=approval, headers=BOB)).is_success
        handle = client.get_workflow_handle(f"ticket-{DEMO_KEY}", result_type=TicketResult)
        result = await handle.result(rpc_timeout=None)
        assert result.status == Status.COMPLETED
        assert result.pr_url

        # Jira may deliver the answer again: it has no second effect.
        human = [d["id"] for d in await deliveries(http) if _comment_by(d, settings) == "person"]
        await http.post(f"/_emulator/webhooks/{human[0]}/redeliver")

        async def redelivered() -> list[dict[str, Any]] | None:
            delivery = next(d for d in await deliveries(http) if d["id"] == human[0])
            done = delivery["state"] != "pending" and len(delivery["attempts"]) == 2
            return delivery["attempts"] if done else None

        again = await poll(redelivered, "the redelivery")
        state = (await http.get("/_emulator/state")).json()
        hooks = await deliveries(http)

    final = await handle.query("status", result_type=TicketStatus)
    assert final.answers == [DEMO_ANSWER]
    assert [d.kind for d in final.decisions] == ["answer", "approve"]
    assert [d.author for d in final.decisions] == ["Alice Reporter", "Bob Reviewer"]
    assert json.loads(again[1]["response"])["reason"].endswith("was already handled")

    answers = {d["id"]: json.loads(d["attempts"][0]["response"]) for d in hooks}
    labelled = [d for d in hooks if d["payload"].get("issue_event_type_name") == "issue_updated"]
    started = labelled[0]
    assert answers[started["id"]] == {
        "status": "accepted",
        "workflow_id": f"ticket-{DEMO_KEY}",
        "started": True,
    }
    assert [answers[d].get("signal") for d in human] == ["answer", "approve"]
    own = [d for d in hooks if _comment_by(d, settings) == "ticketsmith"]
    assert len(own) >= 4  # questions, plan, approval note, pull request
    assert {answers[d["id"]]["reason"] for d in own} == {"own comment"}
    if settings.emulator_jira_server_webhooks:  # each comment also came without its issue
        bare = [d for d in hooks if d["event"] == "comment_created"]
        assert len(bare) == len(own) + len(human)
        assert all("without its issue" in answers[d["id"]]["reason"] for d in bare)
    assert all(d["state"] == "delivered" for d in hooks)
    assert [p["head"] for p in state["pulls"]] == [result.branch]


def _comment_by(delivery: dict[str, Any], settings: Settings) -> str | None:
    """Who wrote the comment a delivery carries with its issue: "person" or "ticketsmith"."""
    payload = delivery["payload"]
    if "comment" not in payload or "issue" not in payload:
        return None
    author = payload["comment"]["author"]
    ids = {author.get("accountId"), author.get("name"), author.get("key")}
    return "ticketsmith" if settings.jira_bot_account_id in ids else "person"
