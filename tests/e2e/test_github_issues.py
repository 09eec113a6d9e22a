"""A ticket filed as a GitHub issue, from its label to its merge: the project's tracker is
GitHub Issues, so the questions, the plan and the pull request's link are issue comments, the
answer and the approval arrive as `issue_comment` webhooks, and the merge closes the issue."""

import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from temporalio.client import Client

from config import ROOT
from embedded.stack import Stack
from harness.model_server import FakeModelServer
from temporal.client import connect_temporal
from tests.e2e.review_helpers import REPO, as_person, following_stack
from tests.e2e.stacks import poll
from tests.support.pr_team import pull_request_brain
from workflows.ticket.messages import Status, TicketResult, TicketStatus

pytestmark = pytest.mark.e2e
SECRET = "issues-e2e-secret"
QUESTION = "Should a negative exponent return a float?"
SEED = json.loads((ROOT / "emulators" / "seed.json").read_text())
JIRA_ISSUE = next(i for i in SEED["issues"] if i["key"] == "DEMO-1")


@pytest.fixture(scope="module")
async def model() -> AsyncIterator[FakeModelServer]:
    with FakeModelServer(pull_request_brain(QUESTION)) as server:
        yield server


@pytest.fixture(scope="module")
async def stack(
    tmp_path_factory: pytest.TempPathFactory, model: FakeModelServer
) -> AsyncIterator[Stack]:
    data = tmp_path_factory.mktemp("github-issues")
    async with following_stack(data, model, SECRET, project='tracker = "github"\n') as stack:
        yield stack


async def status_of(client: Client, key: str) -> TicketStatus | None:
    """The ticket's status, None before its workflow exists."""
    try:
        found: TicketStatus = await client.get_workflow_handle(f"ticket-{key}").query(
            "status", result_type=TicketStatus
        )
    except Exception:  # not started yet: the label's webhook is on its way
        return None
    assert found.status not in (Status.FAILED, Status.CANCELLED), found.message
    return found


async def comments(http: httpx.AsyncClient, number: int) -> list[dict[str, Any]]:
    """The issue's comments as GitHub lists them."""
    path = f"{REPO}/issues/{number}/comments"
    listed: list[dict[str, Any]] = (await http.get(path, headers=as_person("carol"))).json()
    return listed


async def test_a_github_issue_from_its_label_to_the_merge(stack: Stack) -> None:
    settings = stack.settings
    client = await connect_temporal(settings)
    carol = as_person("carol")
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30) as http:
        filed = {"title": JIRA_ISSUE["summary"], "body": JIRA_ISSUE["description"]}
        opened = await http.post(f"{REPO}/issues", json=filed, headers=as_person("dave"))
        assert opened.status_code == 201, opened.text
        number = opened.json()["number"]
        key = f"DEMO-{number}"

        # A passer-by's comment on an issue that is no ticket starts nothing.
        chatter = {"body": "Same here, I need powers too."}
        path = f"{REPO}/issues/{number}/comments"
        assert (await http.post(path, json=chatter, headers=as_person("mallory"))).is_success
        labelled = await http.post(
            f"{REPO}/issues/{number}/labels", json={"labels": ["ticketsmith"]}, headers=carol
        )
        assert labelled.is_success, labelled.text

        async def waiting(wanted: Status) -> TicketStatus | None:
            found = await status_of(client, key)
            return found if found is not None and found.status == wanted else None

        asked = await poll(lambda: waiting(Status.AWAITING_ANSWERS), "questions", 120)
        assert [q.text for q in asked.questions] == [QUESTION]
        assert "questions on GitHub" in asked.message, asked.message
        questions = next(c for c in await comments(http, number) if QUESTION in c["body"])
        assert questions["user"]["login"] == settings.github_bot_login
        assert "<!-- ticketsmith ref:" in questions["body"]

        answer = {"body": "Yes, a float."}
        assert (await http.post(path, json=answer, headers=carol)).is_success
        await poll(lambda: waiting(Status.AWAITING_APPROVAL), "the plan", 120)
        drive_by = {"body": "/approve"}  # a passer-by's approval does not count
        assert (await http.post(path, json=drive_by, headers=as_person("mallory"))).is_success
        approval = {"body": f"@{settings.github_bot_login} /approve"}
        assert (await http.post(path, json=approval, headers=as_person("dave"))).is_success

        async def reviewing() -> TicketStatus | None:
            found = await status_of(client, key)
            view = found.pull_request if found is not None else None
            ready = view is not None and view.number is not None and view.head_sha
            return found if ready and found is not None and found.phase.value == "review" else None

        following = await poll(reviewing, "the pull request", 300)
        assert following.pull_request is not None
        pr_number = following.pull_request.number
        pr = (await http.get(f"{REPO}/pulls/{pr_number}", headers=carol)).json()
        assert f"Fixes #{number}" in pr["body"]
        linked = [c["body"] for c in await comments(http, number)]
        assert any(str(following.pr_url) in body for body in linked), linked

        merged = await http.put(f"{REPO}/pulls/{pr_number}/merge", json={}, headers=carol)
        assert merged.is_success, merged.text
        handle = client.get_workflow_handle(f"ticket-{key}", result_type=TicketResult)
        result = await handle.result(rpc_timeout=None)
        issue = (await http.get(f"{REPO}/issues/{number}", headers=carol)).json()
        hooks = (await http.get("/_emulator/github/webhooks")).json()["deliveries"]

    assert result.status == Status.MERGED
    assert result.message.endswith(f"{key} is done and its issue closed."), result.message
    assert issue["state"] == "closed" and issue["state_reason"] == "completed"
    final = await client.get_workflow_handle(f"ticket-{key}").query(
        "status", result_type=TicketStatus
    )
    assert final.answers == ["Yes, a float."]
    assert [(d.kind, d.author) for d in final.decisions] == [
        ("answer", "carol"),
        ("approve", "dave"),
    ]
    answers = {d["id"]: json.loads(d["attempts"][0]["response"]) for d in hooks if d["attempts"]}
    on_issue = [d for d in hooks if d["event"] in ("issues", "issue_comment")]
    by_action = {(d["event"], d["action"]): answers.get(d["id"], {}) for d in on_issue}
    assert by_action[("issues", "labeled")]["started"] is True
    assert "closed" in by_action[("issues", "closed")]["reason"]
    passer_by = next(d for d in on_issue if "Same here" in json.dumps(d["payload"]))
    assert "mallory is not an owner, member or collaborator" in answers[passer_by["id"]]["reason"]
    own = [d for d in on_issue if d["payload"]["sender"]["login"] == settings.github_bot_login]
    assert own and {answers[d["id"]]["reason"] for d in own} == {
        f"own event: sent by {settings.github_bot_login}"
    }
