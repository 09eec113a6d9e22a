"""GitHub deliveries reach the ticket that owns the pull request, once, from people who may
start rounds; everything else is answered with why nothing happened."""

import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import SecretStr
from temporalio.testing import WorkflowEnvironment

from config import Settings
from tests.webhooks.payloads import (
    SECRET,
    github_example,
    github_request,
    on_branch,
    pull_on_branch,
    unique_key,
)
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_review_phase import following
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, wait_until
from webhooks.app import create_app
from workflows.ticket.messages import Status, TicketStatus

REPOSITORY = "Codertocat/Hello-World"  # the repository of GitHub's examples
API = f"https://api.github.com/repos/{REPOSITORY}"


def github_api(branch: str) -> httpx.MockTransport:
    """GitHub's REST answer for pull request #2, whose head is `branch`."""

    def answer(request: httpx.Request) -> httpx.Response:
        assert request.url.path == f"/repos/{REPOSITORY}/pulls/2"
        return httpx.Response(200, json=pull_on_branch(branch))

    return httpx.MockTransport(answer)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    projects = tmp_path / "projects.toml"
    projects.write_text(
        f'[projects.WEB]\nrepository = "{REPOSITORY}"\nreview_allow = ["trusted-outsider"]\n'
    )
    queue = f"hooks-{uuid.uuid4()}"
    return Settings(
        webhook_secret=SecretStr(SECRET),
        projects_file=projects,
        task_queue=queue,
        agent_task_queue=queue,
        github_api_url="http://github.test",
    )


@pytest.fixture
async def app_for(settings: Settings, time_skipping_env: WorkflowEnvironment) -> AsyncIterator[Any]:
    async with AsyncExitStack() as stack:

        async def make(branch: str) -> httpx.AsyncClient:
            app: FastAPI = create_app(settings, time_skipping_env.client, github_api(branch))
            await stack.enter_async_context(app.router.lifespan_context(app))
            transport = httpx.ASGITransport(app=app)
            client = httpx.AsyncClient(transport=transport, base_url="http://hooks")
            return await stack.enter_async_context(client)

        yield make


def moved(event: str, action: str | None, branch: str, nth: int = 0, **changes: Any) -> Any:
    """A documented example moved to the ticket's branch (its head ref is `changes`)."""
    payload = on_branch(github_example(event, action, nth), branch)
    payload.update(changes)
    return payload


async def test_events_reach_the_ticket_once_and_people_are_told_why_not(
    app_for: Any, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    branch = f"ticketsmith/{key}-add-power"
    fakes = FakeActivities()
    http = await app_for(branch)
    inp = following(key)
    inp.project.repository = REPOSITORY

    async def post(event: str, payload: dict[str, Any], delivery: str | None = None) -> Any:
        response = await http.post(
            "/webhooks/github", **github_request(event, payload, delivery=delivery)
        )
        return response.status_code, response.json()

    async with running_ticket(time_skipping_env, fakes, inp, workflow_id=f"ticket-{key}") as h:
        await wait_until(h, awaiting(Status.AWAITING_REVIEW))
        status = moved("status", None, branch, state="failure", sha="sha2", context="ci/tests")
        code, body = await post("status", status, delivery="s-1")
        assert (code, body["signal"]) == (202, "check_completed")
        assert (await post("status", status, delivery="s-1"))[1] == {
            "status": "ignored",
            "reason": "delivery s-1 was already handled",
            "event": "status",
        }
        await wait_until(
            h, lambda s: s.pull_request is not None and len(s.pull_request.rounds) == 1
        )

        comment = moved("pull_request_review_comment", "created", branch, nth=1)
        comment["comment"]["author_association"] = "NONE"
        comment["comment"]["user"]["login"] = comment["sender"]["login"] = "passer-by"
        code, body = await post("pull_request_review_comment", comment)
        assert code == 202 and "one polite reply" in body["note"]

        mention = github_example("issue_comment", "created")  # on issue #1: made pull #2's
        mention["issue"].update(number=2, pull_request={"url": f"{API}/pulls/2"})
        mention["comment"]["body"] = "@ticketsmith-bot please use more emoji"
        code, body = await post("issue_comment", mention)
        assert (code, body["workflow_id"]) == (202, f"ticket-{key}")

        own = dict(mention, sender={"login": "ticketsmith-bot"})
        assert (await post("issue_comment", own))[1]["reason"] == (
            "own event: sent by ticketsmith-bot"
        )
        forged = await http.post(
            "/webhooks/github", **github_request("issue_comment", mention, secret="wrong")
        )
        assert forged.status_code == 401 and "signature" in forged.json()["error"]

        await wait_until(h, lambda s: _review_rounds(s) == 1 and s.status == Status.AWAITING_REVIEW)
        merged = moved("pull_request", "closed", branch)
        merged["pull_request"].update(merged=True, merged_at="2019-05-15T15:20:40Z")
        assert (await post("pull_request", merged))[0] == 202
        await wait_until(h, awaiting(Status.MERGED))
        late = await post("pull_request", merged)
        assert late[1]["reason"] == f"ticket-{key} is completed; nothing follows this pull request"

    review_round = fakes.calls["revise_pull_request"][-1]
    assert "more emoji" in review_round.feedback and "emojji" not in review_round.feedback
    outsiders = [c for c in fakes.calls["comment_on_pull_request"] if "outsider" in c.marker]
    assert len(outsiders) == 1 and "@passer-by" in outsiders[0].body
    assert fakes.calls["read_ci_failure"][0].name == "ci/tests"


def _review_rounds(status: TicketStatus) -> int:
    return status.pull_request.review_rounds if status.pull_request else 0


async def test_a_ticket_of_another_repository_is_not_signalled(app_for: Any) -> None:
    key = unique_key()
    branch = f"ticketsmith/{key}-add-power"
    http = await app_for(branch)
    payload = moved("pull_request", "synchronize", branch)
    payload["repository"]["full_name"] = "someone/else"
    payload["pull_request"]["head"]["repo"]["full_name"] = "someone/else"
    response = await http.post("/webhooks/github", **github_request("pull_request", payload))
    assert response.json()["reason"] == f"{key} works on {REPOSITORY}, not someone/else"
    never = moved("pull_request", "synchronize", branch)
    response = await http.post("/webhooks/github", **github_request("pull_request", never))
    assert response.json()["reason"] == (
        f"no ticket owns this pull request: ticket-{key} never ran"
    )


async def test_a_push_to_the_base_reaches_tickets_in_review_only(app_for: Any) -> None:
    http = await app_for("unused")
    push = github_example("push", None, 4)  # master created
    response = await http.post("/webhooks/github", **github_request("push", push))
    assert (
        response.json()["reason"]
        == "master of Codertocat/Hello-World is no configured project's base"
    )
    # Tickets in review are found through visibility: the end-to-end test covers that.
