"""The emulated CI reporting as GitHub Actions: a workflow run, its job, the job's check run
and log (through a signed redirect), the re-run of failed jobs, and the signed webhooks."""

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from emulators.app import create_app
from emulators.github.webhooks import GitHubWebhooks
from integrations.workspace.commands import CommandResult
from tests.emulators.helpers import BASE_URL, BOT, add_branch, emulator_client
from tests.emulators.test_github_pull_life import SECRET, Receiver
from webhooks.github_events import read_event
from webhooks.security import expected_signature

REPO = "/api/v3/repos/demo/calc"
BRANCH = "ticketsmith/DEMO-1-add-power"
OUTPUT = (
    "F....\n=========================== short test summary info ============================\n"
    "FAILED tests/test_operations.py::test_power - assert 6 == 8\n1 failed, 4 passed in 0.12s"
)
STAMPED = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z ")


@pytest.fixture
def receiver() -> Receiver:
    return Receiver()


@pytest.fixture
async def app(tmp_path: Path, receiver: Receiver) -> AsyncIterator[FastAPI]:
    hooks = GitHubWebhooks("http://hooks.test/gh", SECRET, transport=httpx.MockTransport(receiver))
    app = create_app(tmp_path, github_webhooks=hooks, ci=True, ci_reporter="actions")
    outcomes = [OUTPUT, "5 passed in 0.1s"]

    async def tests(r: dict[str, Any], sha: str, command: str) -> CommandResult:
        output = outcomes.pop(0)
        code = 1 if "failed" in output else 0
        return CommandResult(exit_code=code, output=output, timed_out=False, duration_s=0.1)

    app.state.ci.test_commit = tests
    async with app.router.lifespan_context(app):
        yield app


async def failed_run(app: FastAPI, http: httpx.AsyncClient, tmp_path: Path) -> dict[str, Any]:
    """Open a PR from a new branch, push it through the CI, and return the failed run."""
    sha = add_branch(tmp_path / "git" / "demo" / "calc.git", BRANCH, {"calc/x.py": "X = 1\n"})
    opened = await http.post(
        f"{REPO}/pulls", headers=BOT, json={"title": "DEMO-1", "head": BRANCH, "base": "main"}
    )
    assert opened.status_code == 201, opened.text
    app.state.ci.pushed("demo", "calc", [(f"refs/heads/{BRANCH}", sha)], BASE_URL)
    await app.state.ci.drain(30)
    runs = (await http.get(f"{REPO}/actions/runs", params={"head_sha": sha}, headers=BOT)).json()
    assert runs["total_count"] == 1, runs
    run: dict[str, Any] = runs["workflow_runs"][0]
    return run


async def test_a_failed_run_has_its_job_check_run_and_log(
    app: FastAPI, tmp_path: Path, receiver: Receiver
) -> None:
    async with emulator_client(app) as http:
        run = await failed_run(app, http, tmp_path)
        assert (run["status"], run["conclusion"], run["event"]) == ("completed", "failure", "push")
        assert run["head_branch"] == BRANCH and run["pull_requests"][0]["number"] == 1
        queries = [({"branch": BRANCH}, 1), ({"status": "failure"}, 1),
                   ({"status": "success"}, 0), ({"event": "pull_request"}, 0)]  # fmt: skip
        for query, count in queries:
            found = await http.get(f"{REPO}/actions/runs", params=query, headers=BOT)
            assert found.json()["total_count"] == count, query
        jobs = (await http.get(f"{REPO}/actions/runs/{run['id']}/jobs", headers=BOT)).json()
        job = jobs["jobs"][0]
        assert (job["name"], job["conclusion"]) == ("tests", "failure")
        steps = {s["name"]: s["conclusion"] for s in job["steps"]}
        assert steps["Run python -m pytest -q"] == "failure" and steps["Set up job"] == "success"
        check = (await http.get(f"{REPO}/check-runs/{job['id']}", headers=BOT)).json()
        assert check["app"]["slug"] == "github-actions" and check["conclusion"] == "failure"
        assert check["check_suite"]["id"] == run["check_suite_id"]
        assert check["details_url"] == job["html_url"]

        redirect = await http.get(f"{REPO}/actions/jobs/{job['id']}/logs", headers=BOT)
        assert redirect.status_code == 302
        location = redirect.headers["location"]
        assert location.startswith(f"{BASE_URL}/_emulator/actions/logs/{job['id']}?expires=")
        refused = await http.get(location, headers=BOT)
        assert refused.status_code == 400 and "Authorization" in refused.json()["message"]
        forged = await http.get(re.sub(r"signature=\w+", "signature=00", location))
        assert forged.status_code == 403
        log = await http.get(location)
        assert log.headers["content-type"].startswith("text/plain")
    await app.state.github_webhooks.drain()
    lines = log.text.splitlines()
    assert all(STAMPED.match(line) for line in lines)
    assert any(line.endswith("##[group]Run python -m pytest -q") for line in lines)
    assert any(line.endswith("FAILED tests/test_operations.py::test_power - assert 6 == 8")
               for line in lines)  # fmt: skip
    assert lines[-2].endswith("##[error]Process completed with exit code 1.")

    actions = [(e, p["action"]) for e in ("workflow_run", "workflow_job")
               for p in receiver.events(e)]  # fmt: skip
    assert actions == [
        ("workflow_run", "requested"), ("workflow_run", "in_progress"),
        ("workflow_run", "completed"), ("workflow_job", "queued"),
        ("workflow_job", "in_progress"), ("workflow_job", "completed"),
    ]  # fmt: skip
    sent = next(r for r in receiver.received if r.headers["X-GitHub-Event"] == "workflow_run")
    assert sent.headers["X-Hub-Signature-256"] == expected_signature(SECRET, sent.content)
    completed = receiver.events("workflow_run")[-1]
    event = read_event("workflow_run", completed, "ticketsmith-bot")
    assert not isinstance(event, str) and event.payload.workflow_run_id == run["id"]
    assert event.branches[0] == BRANCH and event.payload.conclusion == "failure"
    check_event = read_event("check_run", receiver.events("check_run")[-1], "ticketsmith-bot")
    assert not isinstance(check_event, str) and check_event.payload.head_sha == run["head_sha"]


async def test_rerun_failed_jobs_is_a_new_attempt(app: FastAPI, tmp_path: Path) -> None:
    async with emulator_client(app) as http:
        run = await failed_run(app, http, tmp_path)
        url = f"{REPO}/actions/runs/{run['id']}"
        rerun = await http.post(f"{url}/rerun-failed-jobs", headers=BOT)
        assert rerun.status_code == 201 and rerun.json() == {}
        await app.state.ci.drain(30)
        again = (await http.get(url, headers=BOT)).json()
        latest = (await http.get(f"{url}/jobs", headers=BOT)).json()
        every = (await http.get(f"{url}/jobs", params={"filter": "all"}, headers=BOT)).json()
        green = await http.post(f"{url}/rerun-failed-jobs", headers=BOT)
        missing = await http.get(f"{REPO}/actions/jobs/999999/logs", headers=BOT)
    assert (again["run_attempt"], again["conclusion"]) == (2, "success")
    assert again["previous_attempt_url"].endswith(f"/actions/runs/{run['id']}/attempts/1")
    assert [j["conclusion"] for j in latest["jobs"]] == ["success"]
    assert [(j["run_attempt"], j["conclusion"]) for j in every["jobs"]] == [
        (1, "failure"), (2, "success"),
    ]  # fmt: skip
    assert green.status_code == 403 and missing.status_code == 404
