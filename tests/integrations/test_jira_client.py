"""JiraClient against the in-process Jira emulator."""

import base64
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from temporalio.exceptions import ApplicationError

from integrations.jira import JiraClient
from tests.emulators.helpers import BASE_URL, emulator_client, new_emulator


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return new_emulator(tmp_path)


@pytest.fixture
async def jira(app: FastAPI) -> AsyncIterator[JiraClient]:
    transport = httpx.ASGITransport(app=app)
    async with JiraClient(
        BASE_URL, "ticketsmith@example.com", "token", transport=transport
    ) as client:
        yield client


async def requests(app: FastAPI) -> list[dict]:
    async with emulator_client(app) as http:
        return (await http.get("/_emulator/requests")).json()


async def inject(app: FastAPI, **fault: object) -> None:
    async with emulator_client(app) as http:
        (await http.post("/_emulator/faults", json=fault)).raise_for_status()


async def test_get_issue(jira: JiraClient) -> None:
    issue = await jira.get_issue("DEMO-1")
    assert issue.key == "DEMO-1"
    assert issue.summary == "Add a power operation to the calculator"
    assert issue.status == "To Do"
    assert issue.reporter == "Alice Reporter"
    assert issue.labels == ["calculator", "good-first-issue"]
    assert "## What we need" in issue.description
    assert "- A function `power(base, exponent)` in `calc/operations.py`" in issue.description
    assert issue.comments == []


async def test_comment_round_trip_in_markdown(jira: JiraClient) -> None:
    markdown = "Questions:\n\n1. Negative exponents?\n2. `power(0, -1)`?\n\n_ticketsmith ref: q-1_"
    posted = await jira.add_comment("DEMO-1", markdown)
    assert (posted.author_id, posted.author_name) == ("ticketsmith-bot", "ticketsmith")
    assert "ticketsmith ref: q-1" in posted.body
    issue = await jira.get_issue("DEMO-1")
    assert [c.id for c in issue.comments] == [posted.id]
    assert issue.comments[0].body == posted.body


async def test_list_comments_follows_pages(jira: JiraClient, app: FastAPI) -> None:
    for n in range(5):
        await jira.add_comment("DEMO-2", f"comment {n}")
    jira.page_size = 2
    comments = await jira.list_comments("DEMO-2")
    assert [c.body for c in comments] == [f"comment {n}" for n in range(5)]
    pages = [r for r in await requests(app) if r["method"] == "GET"]
    assert [r["query"]["startAt"] for r in pages] == ["0", "2", "4"]


async def test_transition_to(jira: JiraClient) -> None:
    assert await jira.transition_to("DEMO-1", "in review") is True
    assert (await jira.get_issue("DEMO-1")).status == "In Review"
    assert await jira.transition_to("DEMO-1", "In Review") is False
    with pytest.raises(ApplicationError) as caught:
        await jira.transition_to("DEMO-1", "Merged")
    assert caught.value.type == "JiraTransitionNotFound"
    assert caught.value.non_retryable
    assert "To Do" in caught.value.message and "Done" in caught.value.message


async def test_missing_issue_is_jira_not_found(jira: JiraClient) -> None:
    with pytest.raises(ApplicationError) as caught:
        await jira.get_issue("DEMO-404")
    assert caught.value.type == "JiraNotFound"
    assert caught.value.non_retryable
    assert "Issue does not exist or you do not have permission to see it." in caught.value.message


async def test_rate_limit_and_outage_are_retryable(jira: JiraClient, app: FastAPI) -> None:
    path = "/rest/api/3/issue/DEMO-1/comment"
    await inject(app, path=path, status_code=429, headers={"Retry-After": "3"})
    with pytest.raises(ApplicationError) as limited:
        await jira.add_comment("DEMO-1", "hello")
    assert (limited.value.type, limited.value.non_retryable) == ("JiraRateLimited", False)
    assert limited.value.next_retry_delay == timedelta(seconds=3)
    await inject(app, path=path, status_code=503)
    with pytest.raises(ApplicationError) as down:
        await jira.add_comment("DEMO-1", "hello")
    assert (down.value.type, down.value.non_retryable) == ("JiraUnavailable", False)
    assert (await jira.add_comment("DEMO-1", "hello")).body == "hello"


async def test_v2_client_speaks_plain_text(app: FastAPI) -> None:
    transport = httpx.ASGITransport(app=app)
    async with JiraClient(
        BASE_URL, "alice@example.com", "t", api_version=2, transport=transport
    ) as jira:
        posted = await jira.add_comment("DEMO-2", "Plain *text*")
        issue = await jira.get_issue("DEMO-2")
    assert posted.author_id == "alice-1"
    assert issue.description.startswith("`python -m calc add 0.1 0.2`")
    assert [c.body for c in issue.comments] == ["Plain *text*"]
    posts = [r for r in await requests(app) if r["method"] == "POST"]
    assert posts[0]["path"] == "/rest/api/2/issue/DEMO-2/comment"
    assert posts[0]["body"] == {"body": "Plain *text*"}


async def test_auth_headers() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"transitions": []})

    transport = httpx.MockTransport(handler)
    async with JiraClient(BASE_URL, "", "pat-token", transport=transport) as bearer:
        await bearer.list_transitions("DEMO-1")
    async with JiraClient(BASE_URL, "me@example.com", "api-token", transport=transport) as basic:
        await basic.list_transitions("DEMO-1")
    assert seen[0].headers["Authorization"] == "Bearer pat-token"
    basic_credentials = base64.b64encode(b"me@example.com:api-token").decode()
    assert seen[1].headers["Authorization"] == f"Basic {basic_credentials}"
