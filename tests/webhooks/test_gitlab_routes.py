"""GitLab deliveries reach the ticket that owns the merge request, once, with the token GitLab
sends, from the project's developers; everything else is answered with why nothing happened."""

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
from tests.webhooks.gitlab_payloads import (
    gitlab_example,
    gitlab_request,
    merge_request_on,
    note_on,
    pipeline_on,
)
from tests.webhooks.payloads import SECRET, unique_key
from tests.workflows.fakes import FakeActivities
from tests.workflows.test_review_phase import following
from tests.workflows.test_ticket_workflow import awaiting, running_ticket, wait_until
from webhooks.app import create_app
from workflows.ticket.messages import Status, TicketStatus

PATH = "team/app"
DEVELOPER_ID, REPORTER_ID = 1, 7  # the documented note's author is user 1
MEMBERS = {DEVELOPER_ID: 30, REPORTER_ID: 20}


def members_api() -> httpx.MockTransport:
    """GitLab's project members API: who is a member of `team/app`, at what level."""

    def answer(request: httpx.Request) -> httpx.Response:
        prefix = "/api/v4/projects/team%2Fapp/members/all/"
        assert request.url.raw_path.decode().startswith(prefix), request.url
        assert request.headers["PRIVATE-TOKEN"] == "gl-token"
        user = int(request.url.path.rsplit("/", 1)[1])
        if user not in MEMBERS:
            return httpx.Response(404, json={"message": "404 Not found"})
        return httpx.Response(200, json={"id": user, "access_level": MEMBERS[user]})

    return httpx.MockTransport(answer)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    projects = tmp_path / "projects.toml"
    projects.write_text(f'[projects.WEB]\nrepository = "{PATH}"\ncode_host = "gitlab"\n')
    queue = f"hooks-{uuid.uuid4()}"
    return Settings(
        webhook_secret=SecretStr(SECRET),
        projects_file=projects,
        task_queue=queue,
        agent_task_queue=queue,
        gitlab_api_url="http://gitlab.test/api/v4",
        gitlab_token=SecretStr("gl-token"),
    )


@pytest.fixture
async def http(
    settings: Settings, time_skipping_env: WorkflowEnvironment
) -> AsyncIterator[httpx.AsyncClient]:
    async with AsyncExitStack() as stack:
        app: FastAPI = create_app(
            settings, time_skipping_env.client, gitlab_transport=members_api()
        )
        await stack.enter_async_context(app.router.lifespan_context(app))
        transport = httpx.ASGITransport(app=app)
        yield await stack.enter_async_context(
            httpx.AsyncClient(transport=transport, base_url="http://hooks")
        )


async def post(
    http: httpx.AsyncClient, event: str, payload: Any, **options: Any
) -> tuple[int, dict[str, Any]]:
    response = await http.post("/webhooks/gitlab", **gitlab_request(event, payload, **options))
    return response.status_code, response.json()


def _review_rounds(status: TicketStatus) -> int:
    return status.pull_request.review_rounds if status.pull_request else 0


async def test_events_reach_the_ticket_once_and_people_are_told_why_not(
    http: httpx.AsyncClient, time_skipping_env: WorkflowEnvironment
) -> None:
    key = unique_key()
    branch = f"ticketsmith/{key}-add-power"
    fakes = FakeActivities()
    inp = following(key)
    inp.project.repository = PATH
    async with running_ticket(time_skipping_env, fakes, inp, workflow_id=f"ticket-{key}") as h:
        await wait_until(h, awaiting(Status.AWAITING_REVIEW))
        failed = pipeline_on(branch, PATH, "failed", sha="sha2")  # the head of the fakes
        failed["user"]["username"] = "ticketsmith-bot"  # its push started the pipeline
        code, body = await post(http, "Pipeline Hook", failed, delivery="p-1")
        assert (code, body["signal"], body["workflow_id"]) == (202, "check_completed", h.id)
        assert (await post(http, "Pipeline Hook", failed, delivery="p-1"))[1] == {
            "status": "ignored",
            "reason": "delivery p-1 was already handled",
            "event": "Pipeline Hook",
        }
        await wait_until(
            h, lambda s: s.pull_request is not None and len(s.pull_request.rounds) == 1
        )

        outsider = note_on(branch, PATH, "@ticketsmith-bot rewrite it all", author="passer-by")
        outsider["user"]["id"] = REPORTER_ID  # a reporter may comment, not start rounds
        code, body = await post(http, "Note Hook", outsider)
        assert code == 202 and "one polite reply" in body["note"]

        asked = note_on(branch, PATH, "@ticketsmith-bot please use more emoji")
        code, body = await post(http, "Note Hook", asked)
        assert (code, body["signal"]) == (202, "review_feedback") and "note" not in body

        own = note_on(branch, PATH, "@ticketsmith-bot done", author="ticketsmith-bot")
        assert (await post(http, "Note Hook", own))[1]["reason"] == (
            "own event: sent by ticketsmith-bot"
        )
        forged = await post(http, "Note Hook", asked, token="wrong")
        assert forged[0] == 401 and "X-Gitlab-Token" in forged[1]["error"]
        unsigned = await post(http, "Note Hook", asked, token=None)
        assert unsigned[0] == 401

        await wait_until(h, lambda s: _review_rounds(s) == 1 and s.status == Status.AWAITING_REVIEW)
        merged = merge_request_on(branch, PATH, "merge", state="merged")
        merged["user"]["username"] = "ticketsmith-bot"  # a merge counts whoever merged
        assert (await post(http, "Merge Request Hook", merged))[0] == 202
        await wait_until(h, awaiting(Status.MERGED))
        late = await post(http, "Merge Request Hook", merged)
        assert late[1]["reason"] == f"ticket-{key} is completed; nothing follows this pull request"

    review_round = fakes.calls["revise_pull_request"][-1]
    assert "more emoji" in review_round.feedback and "rewrite it all" not in review_round.feedback
    outsiders = [c for c in fakes.calls["comment_on_pull_request"] if "outsider" in c.marker]
    assert len(outsiders) == 1 and "@passer-by" in outsiders[0].body
    read = fakes.calls["read_ci_failure"][0]
    assert (read.name, read.pipeline_id, read.repository) == ("pipeline", 31, PATH)


async def test_a_delivery_gitlab_did_not_shape_is_refused_and_nothing_starts(
    http: httpx.AsyncClient,
) -> None:
    missing = await http.post("/webhooks/gitlab", content=b"{}", headers={"X-Gitlab-Token": SECRET})
    assert missing.status_code == 400 and "X-Gitlab-Event" in missing.json()["error"]
    garbled = await post(http, "Note Hook", b"{not json")
    assert garbled[0] == 400 and "not valid JSON" in garbled[1]["error"]
    listed = await post(http, "Note Hook", [1, 2])
    assert listed[0] == 400 and "JSON object" in listed[1]["error"]
    shapeless = pipeline_on("ticketsmith/WEB-1-x", PATH, "failed")
    del shapeless["object_attributes"]["sha"]
    code, body = await post(http, "Pipeline Hook", shapeless)
    assert code == 400 and "Pipeline Hook payload is not shaped like GitLab's" in body["error"]
    assert "'sha'" in body["error"]
    for field in ("object_attributes", "project", "user"):
        misshapen = pipeline_on("ticketsmith/WEB-1-x", PATH, "failed") | {field: "text"}
        code, body = await post(http, "Pipeline Hook", misshapen)
        assert (code, body["error"]) == (
            400,
            f"Pipeline Hook payload is not shaped like GitLab's: {field} must be an object",
        )


async def test_an_event_of_no_ticket_or_of_another_project_says_so(
    http: httpx.AsyncClient,
) -> None:
    key = unique_key()
    branch = f"ticketsmith/{key}-add-power"
    other = merge_request_on(branch, "someone/else", "merge")
    assert (await post(http, "Merge Request Hook", other))[1]["reason"] == (
        f"{key} works on {PATH}, not someone/else"
    )
    never = merge_request_on(branch, PATH, "merge")
    assert (await post(http, "Merge Request Hook", never))[1]["reason"] == (
        f"no ticket owns this pull request: ticket-{key} never ran"
    )
    stranger = merge_request_on("feature/login", PATH, "merge")
    assert (await post(http, "Merge Request Hook", stranger))[1]["reason"] == (
        "no ticket owns this pull request"
    )
    push = gitlab_example("Push Hook")
    push["project"]["path_with_namespace"] = PATH
    assert (await post(http, "Push Hook", push))[1]["reason"] == (
        f"master of {PATH} is no configured project's base"
    )
