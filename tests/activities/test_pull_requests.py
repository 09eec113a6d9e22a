"""Pull-request activities against the GitHub emulator: what CI said, comments and replies
posted once however often they are retried, merge and close."""

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from temporalio.testing import ActivityEnvironment

from activities.review.messages import PullRequestCommentInput, ReadCiFailureInput, ReviewReplyInput
from activities.review.pull_requests import PullRequestActivities
from emulators.app import create_app
from integrations.github.pulls import PullRequestClient
from tests.emulators.helpers import BASE_URL, add_branch

REPO = "demo/calc"
CAROL = {"Authorization": "Bearer carol-token"}


@pytest.fixture
async def emulator(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(tmp_path)
    add_branch(tmp_path / "git" / "demo" / "calc.git", "ticketsmith/DEMO-1", {"x.py": "X = 1\n"})
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=f"{BASE_URL}/api/v3"
    ) as http:
        yield http


@pytest.fixture
async def github(emulator: httpx.AsyncClient) -> AsyncIterator[PullRequestClient]:
    client = PullRequestClient(f"{BASE_URL}/api/v3", "bot-token", emulator._transport)
    async with client:
        yield client


async def test_a_check_runs_output_and_annotations_are_read(
    github: PullRequestClient, emulator: httpx.AsyncClient
) -> None:
    pr = await github.create_pull_request(REPO, "DEMO-1", "", "ticketsmith/DEMO-1", "main")
    state = await github.pull_request_state(REPO, pr.number)
    output = {
        "title": "1 test failed",
        "summary": "`pytest` exited with 1",
        "annotations": [{"path": "tests/test_ops.py", "start_line": 7, "end_line": 7,
                         "annotation_level": "failure", "message": "assert 3 == 4"}],
    }  # fmt: skip
    run = await emulator.post(
        f"/repos/{REPO}/check-runs",
        json={"name": "ci / tests", "head_sha": state.head_sha, "conclusion": "failure",
              "output": output},
        headers=CAROL,
    )  # fmt: skip
    activities = PullRequestActivities(github)
    report = await ActivityEnvironment().run(
        activities.read_ci_failure,
        ReadCiFailureInput(repository=REPO, name="ci / tests", check_run_id=run.json()["id"]),
    )
    assert "1 test failed" in report.text and "`pytest` exited with 1" in report.text
    assert "tests/test_ops.py:7: failure: assert 3 == 4" in report.text


async def test_comments_and_replies_land_once(
    github: PullRequestClient, emulator: httpx.AsyncClient
) -> None:
    pr = await github.create_pull_request(REPO, "DEMO-1", "", "ticketsmith/DEMO-1", "main")
    review = {"event": "REQUEST_CHANGES", "comments": [{"path": "x.py", "line": 1, "body": "Y?"}]}
    await emulator.post(f"/repos/{REPO}/pulls/{pr.number}/reviews", json=review, headers=CAROL)
    inline = (await github.list_review_comments(REPO, pr.number))[0]
    activities = PullRequestActivities(github)
    env = ActivityEnvironment()
    comment = PullRequestCommentInput(
        repository=REPO, number=pr.number, body="Round 1", marker="m/1"
    )
    reply = ReviewReplyInput(
        repository=REPO, number=pr.number, comment_id=inline.id, body="Renamed.", marker="m/r1"
    )
    first = await env.run(activities.comment_on_pull_request, comment)
    again = await env.run(activities.comment_on_pull_request, comment)
    replied = await env.run(activities.reply_to_review_comment, reply)
    replied_again = await env.run(activities.reply_to_review_comment, reply)

    assert (again.comment_id, again.already_posted) == (first.comment_id, True)
    assert (replied_again.comment_id, replied_again.already_posted) == (replied.comment_id, True)
    comments = await github.list_issue_comments(REPO, pr.number)
    assert len(comments) == 1 and comments[0].body.startswith("Round 1")
    thread = await github.list_review_comments(REPO, pr.number)
    assert [(c.body.split("\n")[0], c.in_reply_to_id) for c in thread] == [
        ("Y?", None),
        ("Renamed.", inline.id),
    ]


async def test_merge_and_close(github: PullRequestClient, tmp_path: Path) -> None:
    pr = await github.create_pull_request(REPO, "DEMO-1", "", "ticketsmith/DEMO-1", "main")
    assert (await github.pull_request_state(REPO, pr.number)).mergeable is True
    sha = await github.merge_pull_request(REPO, pr.number)
    merged = await github.pull_request_state(REPO, pr.number)
    assert (merged.state, merged.merged) == ("closed", True) and len(sha) == 40
    add_branch(tmp_path / "git" / "demo" / "calc.git", "ticketsmith/DEMO-2", {"y.py": "Y = 1\n"})
    other = await github.create_pull_request(REPO, "DEMO-2", "", "ticketsmith/DEMO-2", "main")
    closed = await github.close_pull_request(REPO, other.number)
    assert (closed.state, closed.merged) == ("closed", False)
    found = await github.find_pull_request(REPO, "ticketsmith/DEMO-2")
    assert found is not None and found.number == other.number


async def test_a_failed_actions_job_log_is_read_through_its_redirect() -> None:
    log_text = "##[group]Run pytest\n" + "ok\n" * 3000 + "E   assert 1 == 2\n##[error]exit 1\n"

    def actions(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        run = {"id": 30433642, "run_id": 30433642, "head_sha": "abc", "status": "completed"}
        if path.endswith("/actions/runs/30433642"):
            return httpx.Response(200, json=run | {"run_attempt": 1, "conclusion": "failure"})
        if path.endswith("/actions/runs/30433642/jobs"):
            jobs = [
                run | {"id": 399444496, "name": "build", "conclusion": "failure",
                       "steps": [{"name": "Run pytest", "conclusion": "failure", "number": 3}]},
                run | {"id": 399444497, "name": "lint", "conclusion": "success", "steps": []},
            ]  # fmt: skip
            return httpx.Response(200, json={"total_count": 2, "jobs": jobs})
        if path.endswith("/actions/jobs/399444496/logs"):
            return httpx.Response(302, headers={"Location": "https://logs.test/job.txt"})
        if request.url.host == "logs.test":
            return httpx.Response(200, text=log_text)
        return httpx.Response(404, json={"message": "Not Found"})

    client = PullRequestClient("https://api.test", "t", httpx.MockTransport(actions))
    async with client:
        report = await ActivityEnvironment().run(
            PullRequestActivities(client).read_ci_failure,
            ReadCiFailureInput(repository=REPO, name="Build", workflow_run_id=30433642),
        )
    assert "Job `build` failed at: Run pytest" in report.text
    assert "E   assert 1 == 2" in report.text and "lint" not in report.text
    assert len(report.text) < 9_000
    assert [(j.id, j.name, j.verdict.kind) for j in report.jobs] == [
        (399444496, "build", "deterministic")
    ]
