"""GitHubClient against the GitHub emulator and its bare repositories, in-process and over HTTP."""

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from temporalio.exceptions import ApplicationError

from integrations.github.client import GitHubClient
from tests.emulators.helpers import BASE_URL, add_branch, emulator_client, new_emulator
from tests.integrations.conftest import Emulator
from tests.support.notices import check_row

API = f"{BASE_URL}/api/v3"


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    app = new_emulator(tmp_path)
    add_branch(
        tmp_path / "git" / "demo" / "calc.git", "ticketsmith/DEMO-1", {"calc/x.py": "x = 1\n"}
    )
    return app


@pytest.fixture
async def github(emulator: Emulator) -> AsyncIterator[GitHubClient]:
    api = f"{emulator.base_url}/api/v3"
    async with GitHubClient(api, "token", transport=emulator.transport) as client:
        yield client


async def posts(app: FastAPI) -> list[dict]:
    async with emulator_client(app) as http:
        log = (await http.get("/_emulator/requests")).json()
    return [r for r in log if r["method"] == "POST"]


async def test_repository(github: GitHubClient, emulator: Emulator) -> None:
    repo = await github.get_repository("demo/calc")
    assert (repo.default_branch, repo.clone_url) == ("main", f"{emulator.base_url}/demo/calc.git")


async def test_create_pull_request_is_idempotent(
    github: GitHubClient, app: FastAPI, emulator: Emulator
) -> None:
    assert await github.find_open_pull_request("demo/calc", "ticketsmith/DEMO-1") is None
    args = ("demo/calc", "DEMO-1: add power", "Closes DEMO-1", "ticketsmith/DEMO-1", "main")
    first = await github.create_pull_request(*args, draft=True)
    again = await github.create_pull_request(*args, draft=True)
    assert first == again
    assert (first.number, first.state, first.draft, first.head, first.base) == (
        1, "open", True, "ticketsmith/DEMO-1", "main",
    )  # fmt: skip
    assert first.url == f"{emulator.base_url}/demo/calc/pull/1"
    assert len(await posts(app)) == 1
    assert await github.get_pull_request("demo/calc", 1) == first
    assert await github.find_open_pull_request("demo/calc", "demo:ticketsmith/DEMO-1") == first


async def test_create_after_a_lost_lookup_returns_the_open_one(app: FastAPI) -> None:
    """A PR opened between the lookup and the create (a concurrent attempt) is returned."""
    asgi = httpx.ASGITransport(app=app)
    hidden = {"lookups": 0}

    async def stale_first_lookup(request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and hidden["lookups"] == 0:
            hidden["lookups"] += 1
            return httpx.Response(200, json=[], request=request)
        return await asgi.handle_async_request(request)

    async with GitHubClient(API, "t", transport=asgi) as direct:
        opened = await direct.create_pull_request(
            "demo/calc", "T", "B", "ticketsmith/DEMO-1", "main"
        )
    transport = httpx.MockTransport(stale_first_lookup)
    async with GitHubClient(API, "t", transport=transport) as racing:
        found = await racing.create_pull_request(
            "demo/calc", "T", "B", "ticketsmith/DEMO-1", "main"
        )
    assert found.number == opened.number
    assert [p["status_code"] for p in await posts(app)] == [201, 422]


async def test_a_repository_without_drafts_gets_a_pull_request_titled_draft(
    github: GitHubClient, app: FastAPI, emulator: Emulator
) -> None:
    refusal = {
        "message": "Validation Failed",
        "errors": [
            {
                "resource": "PullRequest",
                "code": "custom",
                "message": "Draft pull requests are not supported in this repository.",
            }
        ],
        "documentation_url": "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
    }
    await emulator.inject(
        path="/api/v3/repos/demo/calc/pulls", method="POST", status_code=422, body=refusal
    )
    args = ("demo/calc", "DEMO-1: add power", "Tests fail", "ticketsmith/DEMO-1", "main")
    pr = await github.create_pull_request(*args, draft=True)
    assert (pr.title, pr.draft) == ("[Draft] DEMO-1: add power", False)
    creates = [p for p in await posts(app) if p["path"].endswith("/pulls")]
    assert [(p["status_code"], p["body"]["draft"]) for p in creates] == [(422, True), (201, False)]


async def test_errors(github: GitHubClient) -> None:
    with pytest.raises(ApplicationError) as invalid:
        await github.create_pull_request("demo/calc", "T", "B", "no-such-branch", "main")
    assert (invalid.value.type, invalid.value.non_retryable) == ("GitHubValidationFailed", True)
    assert "PullRequest.head invalid" in invalid.value.message
    with pytest.raises(ApplicationError) as missing:
        await github.get_repository("demo/missing")
    assert (missing.value.type, missing.value.non_retryable) == ("GitHubNotFound", True)
    assert "Not Found" in missing.value.message


async def test_comment_on_pull_request(github: GitHubClient) -> None:
    pr = await github.create_pull_request("demo/calc", "T", "B", "ticketsmith/DEMO-1", "main")
    comment = await github.comment_on_pull_request("demo/calc", pr.number, "Tests: 5 passed")
    assert comment.body == "Tests: 5 passed"
    assert comment.url.startswith(f"{pr.url}#issuecomment-")


async def test_add_labels(github: GitHubClient, app: FastAPI) -> None:
    pr = await github.create_pull_request("demo/calc", "T", "B", "ticketsmith/DEMO-1", "main")
    assert await github.add_labels("demo/calc", pr.number, ["ticketsmith"]) == ["ticketsmith"]
    labels = await github.add_labels("demo/calc", pr.number, ["needs-review", "ticketsmith"])
    assert labels == ["ticketsmith", "needs-review"]
    with pytest.raises(ApplicationError) as missing:
        await github.add_labels("demo/calc", 99, ["x"])
    assert (missing.value.type, missing.value.non_retryable) == ("GitHubNotFound", True)
    label_posts = [p for p in await posts(app) if p["path"].endswith("/labels")]
    assert label_posts[0]["body"] == {"labels": ["ticketsmith"]}


async def test_rate_limit_waits_for_retry_after(github: GitHubClient, emulator: Emulator) -> None:
    await emulator.inject(path="/api/v3/repos/demo/calc", status_code=429, retry_after=7)
    with pytest.raises(ApplicationError) as limited:
        await github.get_repository("demo/calc")
    assert (limited.value.type, limited.value.non_retryable) == ("GitHubRateLimited", False)
    assert limited.value.next_retry_delay == timedelta(seconds=7)
    assert "API rate limit exceeded" in limited.value.message


async def test_headers() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=[])

    async with GitHubClient("https://api.github.com", "ghp_x", httpx.MockTransport(handler)) as gh:
        assert await gh.find_open_pull_request("octo/repo", "feature") is None
    request = seen[0]
    assert request.url.path == "/repos/octo/repo/pulls"
    assert request.url.params["head"] == "octo:feature"
    assert request.headers["Accept"] == "application/vnd.github+json"
    assert request.headers["X-GitHub-Api-Version"] == "2022-11-28"
    assert request.headers["Authorization"] == "Bearer ghp_x"


async def test_open_pull_request_activity_updates_the_body_of_the_open_one(
    github: GitHubClient, app: FastAPI
) -> None:
    from activities.code_host import CodeHostActivities
    from activities.messages import OpenPullRequestInput

    def opening(body: str) -> OpenPullRequestInput:
        return OpenPullRequestInput(
            repository="demo/calc", title="DEMO-1: add power", body=body,
            head="ticketsmith/DEMO-1", base="main", draft=True,
        )  # fmt: skip

    activities = CodeHostActivities(github)
    first = await activities.open_pull_request(opening("The first run's description"))
    again = await activities.open_pull_request(opening("The restarted run's description"))
    assert again.number == first.number
    async with emulator_client(app) as http:
        path = f"/api/v3/repos/demo/calc/pulls/{first.number}"
        pr = (await http.get(path, headers={"Authorization": "Bearer t"})).json()
    assert pr["body"] == "The restarted run's description"
    # One pull request, one comment saying the description changed; a retry adds nothing.
    await activities.open_pull_request(opening("The restarted run's description"))
    created = [p["path"] for p in await posts(app)]
    assert created == ["/api/v3/repos/demo/calc/pulls", "/api/v3/repos/demo/calc/issues/1/comments"]
    async with emulator_client(app) as http:
        path = f"/api/v3/repos/demo/calc/issues/{first.number}/comments"
        comments = (await http.get(path, headers={"Authorization": "Bearer t"})).json()
    check_row("restarted", github=[pr["body"], *(c["body"] for c in comments)])
