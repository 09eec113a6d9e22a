"""Actions job logs as a fix round reads them: through the API's redirect without the token,
bounded in size, cut to the lines around the failure; and end to end against the emulator."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from temporalio.testing import ActivityEnvironment

from activities.review.messages import ReadCiFailureInput
from activities.review.pull_requests import PullRequestActivities
from emulators.app import create_app
from integrations.github import job_logs
from integrations.github.pulls import PullRequestClient
from integrations.workspace.commands import CommandResult
from tests.emulators.helpers import BASE_URL, add_branch

STAMP = "2026-11-23T03:00:00.1234567Z "
SUMMARY = "=========================== short test summary info ============================"
FAILED = "FAILED tests/test_operations.py::test_power - assert 6 == 8"


def stamped(*lines: str) -> str:
    return "".join(f"{STAMP}{line}\n" for line in lines)


def test_the_excerpt_ends_at_the_error_without_timestamps_or_escapes() -> None:
    log = stamped(
        "##[group]Run python -m pytest -q", "\x1b[31mF\x1b[0m....", SUMMARY, FAILED,
        "1 failed, 4 passed in 0.12s", "##[error]Process completed with exit code 1.",
        "Post job cleanup.", "Cleaning up orphan processes",
    )  # fmt: skip
    excerpt = job_logs.failure_excerpt(log)
    assert excerpt.splitlines() == [
        "##[group]Run python -m pytest -q", "F....", SUMMARY, FAILED,
        "1 failed, 4 passed in 0.12s", "##[error]Process completed with exit code 1.",
    ]  # fmt: skip


def test_a_long_log_keeps_the_summary_and_the_end() -> None:
    noise = [f"teardown line {i} " + "x" * 60 for i in range(400)]
    log = stamped("setup " * 50, SUMMARY, FAILED, *noise, "##[error]Process completed.")
    excerpt = job_logs.failure_excerpt(log, limit=2_000)
    assert len(excerpt) <= 2_000
    assert excerpt.startswith(f"{SUMMARY}\n{FAILED}") and "setup" not in excerpt
    assert excerpt.endswith("##[error]Process completed.") and "teardown line 399" in excerpt


async def test_the_redirect_is_followed_without_the_token_and_the_read_is_bounded() -> None:
    seen: list[httpx.Request] = []
    served = {"bytes": 0}

    async def huge() -> AsyncIterator[bytes]:
        chunk = b"passing line\n" * 5_000
        while True:  # a log that never ends: the reader must stop on its own
            served["bytes"] += len(chunk)
            yield chunk

    def github(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.host == "logs.test":
            return httpx.Response(200, content=huge())
        return httpx.Response(302, headers={"Location": "https://logs.test/j/1?sig=abc"})

    client = PullRequestClient("https://api.test", "secret-token", httpx.MockTransport(github))
    async with client:
        response = await client._http.get("/repos/o/r/actions/jobs/1/logs", follow_redirects=False)
        text = await job_logs.download_log(client._http, "GitHub", response)
    assert seen[0].headers["authorization"] == "Bearer secret-token"
    assert "authorization" not in seen[1].headers and seen[1].url.params["sig"] == "abc"
    assert job_logs.MAX_READ <= served["bytes"] < job_logs.MAX_READ + 200_000
    assert text.startswith("[... earlier lines of the log left out ...]")
    assert len(text) < job_logs.KEEP + 100


async def test_a_failed_actions_run_is_read_from_the_emulator(tmp_path: Path) -> None:
    app = create_app(tmp_path, ci=True, ci_reporter="actions")
    output = f"F....\n{SUMMARY}\n{FAILED}\n1 failed, 4 passed in 0.12s"

    async def tests(r: dict[str, Any], sha: str, command: str) -> CommandResult:
        return CommandResult(exit_code=1, output=output, timed_out=False, duration_s=0.1)

    app.state.ci.test_commit = tests
    branch = "ticketsmith/DEMO-1-add-power"
    sha = add_branch(tmp_path / "git" / "demo" / "calc.git", branch, {"calc/x.py": "X = 1\n"})
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        PullRequestClient(f"{BASE_URL}/api/v3", "bot-token", transport) as client,
    ):
        app.state.ci.pushed("demo", "calc", [(f"refs/heads/{branch}", sha)], BASE_URL)
        await app.state.ci.drain(30)
        run_id = app.state.emulator.data["workflow_runs"][0]["id"]
        report = await ActivityEnvironment().run(
            PullRequestActivities(client).read_ci_failure,
            ReadCiFailureInput(repository="demo/calc", name="CI", workflow_run_id=run_id),
        )
    assert "Job `tests` failed at: Run python -m pytest -q" in report.text
    assert FAILED in report.text and "exit code 1." in report.text
    assert STAMP.strip() not in report.text
