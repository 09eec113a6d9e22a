"""GitHubIssues against the GitHub emulator's issues, in-process and over real HTTP."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from temporalio.exceptions import ApplicationError
from temporalio.testing import ActivityEnvironment

from activities.messages import FetchTicketInput, PostCommentInput
from activities.tracker import TrackerActivities
from cli.commands import ensure_ticket_exists
from cli.terminal import CommandError
from config import Settings
from harness.serving import serve
from integrations.github.issues import GitHubIssues
from tests.emulators.helpers import add_branch, emulator_client, new_emulator
from tests.integrations.conftest import Emulator

DAVE = {"Authorization": "Bearer dave-token"}
BODY = (
    "The calculator needs powers.\n\n## What we need\n\n- `power(base, exponent)`\n\n"
    "## Acceptance criteria\n\n1. `power(2, 3)` returns `8`.\n2. `pow 2 10` prints `1024`.\n"
)


def locate(key: str) -> tuple[str, int]:
    return "demo/calc", int(key.rsplit("-", 1)[1])


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    app = new_emulator(tmp_path)
    add_branch(tmp_path / "git" / "demo" / "calc.git", "feature", {"calc/x.py": "x = 1\n"})
    return app


@pytest.fixture
async def issues(emulator: Emulator) -> AsyncIterator[GitHubIssues]:
    api = f"{emulator.base_url}/api/v3"
    async with GitHubIssues(api, "test-token", locate, transport=emulator.transport) as client:
        yield client


async def open_issue(app: FastAPI, title: str = "Add power", body: str = BODY) -> str:
    """Open an issue on demo/calc as dave; its ticket key."""
    async with emulator_client(app) as http:
        payload = {"title": title, "body": body, "labels": ["calculator", "ticketsmith"]}
        response = await http.post("/api/v3/repos/demo/calc/issues", json=payload, headers=DAVE)
    response.raise_for_status()
    return f"DEMO-{response.json()['number']}"


async def test_get_issue_reads_title_body_labels_and_reporter(
    issues: GitHubIssues, app: FastAPI
) -> None:
    """The issue dave opened reads back by key."""
    key = await open_issue(app)
    issue = await issues.get_issue(key)
    assert (issue.key, issue.summary, issue.description) == (key, "Add power", BODY)
    assert issue.labels == ["calculator", "ticketsmith"]
    assert (issue.reporter, issue.state) == ("dave", "open")
    assert await issues.reporter_ids(key) == ["dave"]


async def test_comment_round_trip_keeps_the_marker(issues: GitHubIssues, app: FastAPI) -> None:
    """A posted comment lists back with its body and its hidden marker."""
    key = await open_issue(app)
    body = issues.marked("Questions:\n\n1. Negative exponents?", "ticketsmith ref: q-1")
    posted = await issues.add_comment(key, body)
    listed = await issues.list_comments(key)
    assert [(c.id, c.author_id, c.body) for c in listed] == [(posted.id, "ticketsmith-bot", body)]
    assert "<!-- ticketsmith ref: q-1 -->" in listed[0].body


async def comment_pages(emulator: Emulator, path: str) -> list[dict]:
    """The query of every listing of a thread's comments the emulator saw."""
    return [
        r["query"] for r in await emulator.requests() if (r["method"], r["path"]) == ("GET", path)
    ]


async def test_list_comments_pages_past_a_hundred(
    issues: GitHubIssues, app: FastAPI, emulator: Emulator
) -> None:
    """All 101 comments come back, oldest first, in two pages."""
    key = await open_issue(app)
    path = f"/api/v3/repos/demo/calc/issues/{locate(key)[1]}/comments"
    async with emulator_client(app) as http:
        for n in range(101):
            (await http.post(path, json={"body": f"c{n}"}, headers=DAVE)).raise_for_status()
    try:
        listed = await asyncio.wait_for(issues.list_comments(key), timeout=5)
    except TimeoutError:
        pages = await comment_pages(emulator, path)
        pytest.fail(f"list_comments never ended: {len(pages)} pages asked, {pages[:3]}...")
    assert [c.body for c in listed] == [f"c{n}" for n in range(101)]
    pages = await comment_pages(emulator, path)
    assert pages == [{"per_page": "100", "page": "1"}, {"per_page": "100", "page": "2"}]


async def test_list_comments_asks_for_pages_until_a_short_one() -> None:
    """The client asks for 100 a page and stops after the first page shorter than that."""
    asked: list[tuple[str, str]] = []

    def github(request: httpx.Request) -> httpx.Response:
        per_page, page = request.url.params["per_page"], request.url.params["page"]
        asked.append((per_page, page))
        start = (int(page) - 1) * 100
        count = min(100, 150 - start)
        comments = [{"id": i, "user": {"login": "dave"}, "body": f"c{i}"} for i in range(count)]
        return httpx.Response(200, json=comments)

    transport = httpx.MockTransport(github)
    async with GitHubIssues("http://github.test", "t", locate, transport=transport) as client:
        listed = await client.list_comments("DEMO-7")
    assert asked == [("100", "1"), ("100", "2")]
    assert len(listed) == 150


async def test_member_of_names_only_teams_with_the_login(
    issues: GitHubIssues, app: FastAPI
) -> None:
    """Teams without the login are left out; a bare slug is a team of the issue's owner."""
    app.state.emulator.data["github_teams"] = {
        "demo/reviewers": ["Dave"],
        "demo/release": ["carol"],
        "other/reviewers": ["dave"],
    }
    key = await open_issue(app)
    teams = ["reviewers", "demo/release", "other/reviewers", "demo/nobody"]
    assert await issues.member_of(key, "dave", teams) == ["reviewers", "other/reviewers"]
    assert await issues.member_of(key, "mallory", teams) == []


async def test_member_of_skips_a_pending_membership() -> None:
    """An invitation not yet accepted is no membership (the emulator has only active ones)."""

    def github(request: httpx.Request) -> httpx.Response:
        pending = request.url.path.endswith("/teams/invited/memberships/dave")
        return httpx.Response(
            200, json={"role": "member", "state": "pending" if pending else "active"}
        )

    transport = httpx.MockTransport(github)
    async with GitHubIssues("http://github.test", "t", locate, transport=transport) as client:
        assert await client.member_of("DEMO-1", "dave", ["invited", "reviewers"]) == ["reviewers"]


async def test_a_pull_request_number_is_refused(issues: GitHubIssues, app: FastAPI) -> None:
    """A key naming a pull request fails for good, saying which."""
    async with emulator_client(app) as http:
        pull = {"title": "A change", "head": "feature", "base": "main"}
        created = await http.post("/api/v3/repos/demo/calc/pulls", json=pull, headers=DAVE)
    number = created.json()["number"]
    with pytest.raises(ApplicationError) as raised:
        await issues.get_issue(f"DEMO-{number}")
    assert raised.value.non_retryable
    assert f"demo/calc#{number} is a pull request" in str(raised.value)
    assert f"DEMO-{number}" in str(raised.value)


async def test_fetch_ticket_takes_criteria_from_the_body(
    issues: GitHubIssues, app: FastAPI
) -> None:
    """The body's "## Acceptance criteria" section becomes the ticket's criteria."""
    key = await open_issue(app)
    ticket = await ActivityEnvironment().run(
        TrackerActivities(lambda _: issues).fetch_ticket, FetchTicketInput(key=key)
    )
    assert (ticket.key, ticket.summary) == (key, "Add power")
    assert (
        ticket.acceptance_criteria == "1. `power(2, 3)` returns `8`.\n2. `pow 2 10` prints `1024`."
    )
    assert "## What we need" in ticket.description
    assert "Acceptance criteria" not in ticket.description
    assert ticket.labels == ["calculator", "ticketsmith"]


async def test_post_comment_twice_posts_once(issues: GitHubIssues, app: FastAPI) -> None:
    """The second post with the same marker finds the first."""
    key = await open_issue(app)
    activities = TrackerActivities(lambda _: issues)
    inp = PostCommentInput(key=key, body="The plan is ready.", marker="DEMO/plan-1")
    first = await ActivityEnvironment().run(activities.post_comment, inp)
    second = await ActivityEnvironment().run(activities.post_comment, inp)
    assert (first.already_posted, second.already_posted) == (False, True)
    assert second.comment_id == first.comment_id
    listed = await issues.list_comments(key)
    assert len(listed) == 1
    assert listed[0].body.startswith("The plan is ready.")
    assert "ticketsmith ref: DEMO/plan-1" in listed[0].body


async def test_starting_reads_the_issue_from_github(app: FastAPI, tmp_path: Path) -> None:
    """`starter.py CALC-n` reads issue #n of the project's repository, over real HTTP."""
    projects = tmp_path / "projects.toml"
    projects.write_text('[projects.CALC]\nrepository = "demo/calc"\ntracker = "github"\n')
    key = await open_issue(app)
    with serve(app) as url:
        settings = Settings(projects_file=projects, github_api_url=f"{url}/api/v3")
        filed = await ensure_ticket_exists(settings, f"CALC-{key.rsplit('-', 1)[1]}")
        with pytest.raises(CommandError, match=r"ticket CALC-999 is no GitHub issue demo/calc#999"):
            await ensure_ticket_exists(settings, "CALC-999")
    assert filed.summary == "Add power" and filed.components == []
    assert filed.labels == ["calculator", "ticketsmith"]


async def test_done_closes_the_issue_once_and_other_moves_change_nothing(
    issues: GitHubIssues, app: FastAPI
) -> None:
    """An issue has no statuses: the ticket's end closes it as completed, once."""
    key = await open_issue(app)
    assert await issues.transition_to(key, "In Review") is False
    assert (await issues.get_issue(key)).state == "open"
    assert await issues.transition_to(key, "Done", done=True) is True
    assert (await issues.get_issue(key)).state == "closed"
    assert await issues.transition_to(key, "Done", done=True) is False  # closed already
    async with emulator_client(app) as http:
        number = key.rsplit("-", 1)[1]
        raw = (await http.get(f"/api/v3/repos/demo/calc/issues/{number}", headers=DAVE)).json()
    assert raw["state_reason"] == "completed"


async def test_closing_keywords_act_only_on_a_merge_into_the_default_branch(
    app: FastAPI, tmp_path: Path
) -> None:
    """As on GitHub: `Fixes #n` on a pull request into another branch closes nothing."""
    bare = tmp_path / "git" / "demo" / "calc.git"
    add_branch(bare, "develop", {"calc/y.py": "y = 1\n"})
    key = await open_issue(app)
    number = int(key.rsplit("-", 1)[1])
    issue_path = f"/api/v3/repos/demo/calc/issues/{number}"
    states = []
    async with emulator_client(app) as http:
        for base in ("develop", "main"):
            head = f"fix-{base}"
            add_branch(bare, head, {f"calc/{base}.py": "z = 1\n"}, parent=base)
            pr = {"title": "Fix", "head": head, "base": base, "body": f"Fixes #{number}"}
            opened = await http.post("/api/v3/repos/demo/calc/pulls", json=pr, headers=DAVE)
            assert opened.status_code == 201, opened.text
            merge = f"/api/v3/repos/demo/calc/pulls/{opened.json()['number']}/merge"
            assert (await http.put(merge, json={}, headers=DAVE)).is_success
            states.append((await http.get(issue_path, headers=DAVE)).json()["state"])
    assert states == ["open", "closed"]
