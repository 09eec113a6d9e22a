"""Every delivery GitHub documents for the events ticketsmith reads, posted signed to the real
webhook app: never a server error, always 2xx, and read as intended (github_expectations.py
says what each must become): a signal to the ticket that owns the pull request, or an answer
saying why nothing happens.

The examples (tests/contracts/github/webhook_examples.json) are GitHub's, whole; each is moved
from its pull request's branch `changes` to a ticket's branch, so the ticket owns it, and a
stand-in ticket records what it is sent. A forged signature on each is refused.
"""

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from temporalio.client import WorkflowHandle
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

from config import Settings
from tests.webhooks.github_expectations import (
    BRANCH,
    EXPECTED,
    KEY,
    VARIANTS,
    Case,
    documented,
)
from tests.webhooks.payloads import SECRET, github_example, github_request, on_branch
from tests.webhooks.recording_ticket import RecordingTicket
from webhooks.app import create_app

DEADLINE_S = 10.0


@dataclass
class Hooks:
    """The webhook app over ASGI, and the stand-in ticket that owns BRANCH."""

    http: httpx.AsyncClient
    ticket: WorkflowHandle[Any, Any]


def github_api(request: httpx.Request) -> httpx.Response:
    """GitHub's REST answer for any pull request of the examples: its head is BRANCH."""
    pull = on_branch(github_example("pull_request", "synchronize")["pull_request"], BRANCH)
    return httpx.Response(200, json=pull)


@pytest.fixture(scope="module")
async def hooks(
    tmp_path_factory: pytest.TempPathFactory, time_skipping_env: WorkflowEnvironment
) -> AsyncIterator[Hooks]:
    projects = tmp_path_factory.mktemp("examples") / "projects.toml"
    projects.write_text(
        '[projects.WEB]\nrepository = "Codertocat/Hello-World"\n'
        '[[projects.WEB.repositories]]\nrepository = "octo-org/octo-repo"\n'
    )
    queue = f"examples-{uuid.uuid4()}"
    settings = Settings(
        webhook_secret=SecretStr(SECRET), projects_file=projects, task_queue=queue,
        agent_task_queue=queue, github_api_url="http://github.test",
    )  # fmt: skip
    client = time_skipping_env.client
    app = create_app(settings, client, httpx.MockTransport(github_api))
    async with Worker(client, task_queue=queue, workflows=[RecordingTicket]):
        ticket = await client.start_workflow(
            RecordingTicket.run, id=f"ticket-{KEY}", task_queue=queue
        )
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://hooks") as http:
                yield Hooks(http, ticket)
        await ticket.terminate("the examples are done")


async def received(ticket: WorkflowHandle[Any, Any], delivery: str) -> dict[str, Any]:
    """The signal the ticket got for a delivery, waiting for it up to a deadline."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        for signal in await ticket.query(RecordingTicket.signals):
            if signal["payload"].get("delivery_id") == delivery:
                found: dict[str, Any] = signal
                return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"the ticket never received delivery {delivery}")


async def delivered(hooks: Hooks, event: str, payload: dict[str, Any]) -> tuple[int, Any, str]:
    """Post one signed delivery; its status code, its answer, and its delivery id."""
    delivery = str(uuid.uuid4())
    request = github_request(event, payload, delivery=delivery)
    response = await hooks.http.post("/webhooks/github", **request)
    return response.status_code, response.json(), delivery


async def outcome(hooks: Hooks, event: str, payload: dict[str, Any]) -> tuple[str, Any] | str:
    """What one delivery became: the signal the ticket received and its payload, or why not."""
    code, body, delivery = await delivered(hooks, event, payload)
    assert code < 500, f"{event}: server error {code}: {body}"
    assert 200 <= code < 300, f"{event}: {code} {body}"
    if body["status"] == "ignored":
        assert code == 200, body
        return str(body["reason"])
    assert (code, body["status"], body["workflow_id"]) == (202, "accepted", f"ticket-{KEY}")
    signal = await received(hooks.ticket, delivery)
    assert signal["signal"] == body["signal"]
    return signal["signal"], signal["payload"]


def matches(found: tuple[str, Any] | str, expected: tuple[str, dict[str, Any]] | str) -> bool:
    """The same reason, or the same signal with (at least) the expected payload fields."""
    if isinstance(expected, str) or isinstance(found, str):
        return found == expected
    fields = {k: found[1].get(k) for k in expected[1]}
    return (found[0], fields) == expected


@pytest.mark.parametrize("case", documented(), ids=lambda case: case.id)
async def test_each_documented_delivery_is_read_as_intended(hooks: Hooks, case: Case) -> None:
    payload = on_branch(case.payload, BRANCH)
    forged = github_request(case.event, payload, secret="not-the-secret")
    refused = await hooks.http.post("/webhooks/github", **forged)
    assert refused.status_code == 401 and "signature" in refused.json()["error"]
    found = await outcome(hooks, case.event, payload)
    assert case.id in EXPECTED, f"{case.id} is not in EXPECTED; it became {found!r}"
    assert matches(found, EXPECTED[case.id]), f"{case.id} became {found!r}"


@pytest.mark.parametrize("name", sorted(VARIANTS))
async def test_documented_deliveries_with_one_change_are_read_as_intended(
    hooks: Hooks, name: str
) -> None:
    event, payload, expected = VARIANTS[name]
    found = await outcome(hooks, event, payload)
    assert matches(found, expected), f"{name} became {found!r}"


def test_every_expectation_names_a_documented_delivery() -> None:
    assert set(EXPECTED) == {case.id for case in documented()}
