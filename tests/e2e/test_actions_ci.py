"""CI driven by GitHub Actions, end to end: dev server, real worker (scripted model server),
emulators whose CI reports as Actions (workflow run, job, job log, the job's check run), GitHub
webhooks, the webhook app and real git.

The first implementation has a bug; its Actions run fails; the ticket reads the failed job's
log through the signed redirect, finds a failing test (the change's failure, not a flake) and
starts one fix round (though the job's check run, its check suite and the workflow run all
failed) whose instructions carry the failing test from the log, and pushes one commit. The
emulator's Actions is told to fail the job of that commit twice with a network error: each
time the ticket reruns the job instead of fixing anything, says so on the pull request, and
the third attempt is green. No model call ever sees the flaky log.
"""

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from embedded.demo import starter
from embedded.stack import Stack
from harness.model_server import FakeModelServer, task_of
from temporal.client import connect_temporal
from tests.e2e.review_helpers import KEY, REPO, as_person, following_stack, waiting_after
from tests.e2e.stacks import poll
from tests.support.pr_team import OPS, pull_request_brain

pytestmark = pytest.mark.e2e
SECRET = "actions-e2e-secret"
# The first revision writes the code alone: the criteria's examples are the change's tests.
FAILING = "FAILED tests/test_operations.py::test_power"


@pytest.fixture(scope="module")
async def model() -> AsyncIterator[FakeModelServer]:
    with FakeModelServer(pull_request_brain()) as server:
        yield server


@pytest.fixture(scope="module")
async def stack(
    tmp_path_factory: pytest.TempPathFactory, model: FakeModelServer
) -> AsyncIterator[Stack]:
    data = tmp_path_factory.mktemp("actions-ci")
    async with following_stack(data, model, SECRET, emulator_ci_reporter="actions") as stack:
        yield stack


async def run_on(http: httpx.AsyncClient, sha: str) -> dict[str, Any] | None:
    """The completed Actions run of a commit, once there is one."""
    found = await http.get(
        f"{REPO}/actions/runs", params={"head_sha": sha}, headers=as_person("carol")
    )
    done = [r for r in found.json()["workflow_runs"] if r["status"] == "completed"]
    return done[0] if done else None


def fix_prompts(model: FakeModelServer) -> list[str]:
    """What the worker was told in the CI fix round (the implement calls that name CI)."""
    prompts = []
    for call in model.calls:
        task, _ = task_of(call.body)
        user = [m["content"] for m in call.body["messages"] if m.get("role") == "user"]
        if task == "implement_file" and "failing CI checks" in str(user):
            prompts.append(str(user[-1]))
    return prompts


async def green_run_on(http: httpx.AsyncClient, sha: str) -> dict[str, Any] | None:
    """The Actions run of a commit once an attempt of it passed."""
    run = await run_on(http, sha)
    return run if run is not None and run["conclusion"] == "success" else None


async def test_a_failed_actions_run_is_fixed_once_and_its_flaky_fix_rerun(
    stack: Stack, model: FakeModelServer
) -> None:
    settings = stack.settings
    client = await connect_temporal(settings)
    async with httpx.AsyncClient(base_url=settings.jira_base_url, timeout=30) as http:
        flaky = {"kind": "network", "times": 2, "message": "fix CI"}  # the fix round's commit
        told = await http.post("/_emulator/github/ci/faults", json=flaky)
        assert told.status_code == 201, told.text
        assert "started" in starter(settings, KEY, "--auto").lower()
        rerun = await poll(lambda: waiting_after(client, "rerun", 2), "two CI reruns", 420)
        view = rerun.pull_request
        assert view is not None and view.head_sha is not None
        green = await poll(
            lambda: green_run_on(http, view.head_sha or ""), "Actions green on the fix", 180
        )
        deliveries = (await http.get("/_emulator/github/webhooks")).json()["deliveries"]
        comments = (
            await http.get(f"{REPO}/issues/{view.number}/comments", headers=as_person("carol"))
        ).json()
        runs = (
            await http.get(
                f"{REPO}/actions/runs", params={"branch": rerun.branch}, headers=as_person("carol")
            )
        ).json()["workflow_runs"]

    # One fix round, one commit, whose flaky job was rerun twice and then passed.
    assert (view.ci_rounds, view.ci_reruns) == (1, 2), view.rounds
    assert [r.kind for r in view.rounds] == ["ci", "rerun", "rerun"]
    assert view.rounds[0].files == [OPS] and view.rounds[0].commit == view.head_sha
    assert [r.outcome for r in view.rounds[1:]] == [
        f"rerun {n} of 3 on {view.head_sha[:7]}" for n in (1, 2)
    ]
    assert all(r.trigger == "`tests`: a network error" for r in view.rounds[1:])
    assert (green["conclusion"], green["run_attempt"], green["head_commit"]["message"]) == (
        "success", 3, f"{KEY}: fix CI ({view.rounds[0].trigger.removeprefix('failed: ')})"
    )  # fmt: skip
    failed = next(r for r in runs if r["head_sha"] != view.head_sha)
    assert failed["conclusion"] == "failure" and runs[0]["id"] == green["id"]
    reruns = [c["body"] for c in comments if "**CI rerun" in c["body"]]
    assert [b.split("**")[1] for b in reruns] == ["CI rerun 1 of 3", "CI rerun 2 of 3"]
    assert all("Could not resolve host: github.com" in b for b in reruns)

    # The fix instructions quote the job's log: the failing test and Actions' error line; the
    # flaky failures reached no model.
    prompts = fix_prompts(model)
    assert prompts and all(FAILING in p for p in prompts), prompts[:1]
    assert not any("Could not resolve host" in str(call.body) for call in model.calls)
    assert "##[error]Process completed with exit code 1." in prompts[0]
    assert "UNTRUSTED PULL-REQUEST TEXT" in prompts[0]
    ci_comments = [c["body"] for c in comments if "CI fix round" in c["body"]]
    assert len(ci_comments) == 1 and "`CI` (failure)" in ci_comments[0]

    # The webhook app was sent every Actions event and acted on the completed failure.
    events = {(d["event"], d["action"]) for d in deliveries}
    assert {("workflow_run", "requested"), ("workflow_run", "completed")} <= events
    assert {("workflow_job", "queued"), ("workflow_job", "completed")} <= events
    jobs = [d for d in deliveries if d["event"] == "workflow_job" and d["attempts"]]
    assert jobs and all(d["attempts"][0]["status_code"] == 200 for d in jobs)
