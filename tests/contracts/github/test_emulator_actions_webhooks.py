"""The webhooks of the emulator's GitHub Actions CI validate against GitHub's schemas for them.

A push to a pull request's branch, over real HTTP and the real git CLI, makes the emulated CI
(switched to Actions by the seed's `ci` block) run the repository's test command as a real
subprocess: a workflow run and its job go requested/queued, in progress and completed, and the
job's check run and check suite (app `github-actions`) complete; the failed job is then re-run
as the run's second attempt. Every such delivery must match GitHub's schema for its action.
"""

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from emulators.app import DEFAULT_SEED, create_app
from emulators.github.webhooks import GitHubWebhooks
from harness.serving import serve
from tests.contracts.github.test_emulator_webhooks import (
    BRANCH,
    CAROL,
    REPO,
    assert_githubs_shape,
    kind,
    push_a_fix,
)
from tests.emulators.helpers import add_branch

# A failing test command, as fast as one can be: the run, its job and check run fail.
COMMAND = "python -c \"raise SystemExit('1 failed')\""
# Each kind of delivery one Actions run sends, as `event.action`.
KINDS = [
    "workflow_run.requested",
    "workflow_run.in_progress",
    "workflow_run.completed",
    "workflow_job.queued",
    "workflow_job.in_progress",
    "workflow_job.completed",
    "check_run.created",
    "check_run.completed",
    "check_suite.completed",
]
RUN_TIMEOUT_S = 180


def actions_seed(folder: Path) -> Path:
    """The default seed, with demo/calc's CI reporting as Actions and running COMMAND."""
    seed = json.loads(DEFAULT_SEED.read_text())
    for repo in [*seed["repositories"], *seed.get("gitlab_projects", [])]:
        if repo.get("source"):
            repo["source"] = str(DEFAULT_SEED.parent / repo["source"])
        if (repo.get("owner"), repo.get("name")) == ("demo", "calc"):
            repo["ci"] = {"command": COMMAND, "reporter": "actions"}
    path = folder / "seed.json"
    path.write_text(json.dumps(seed))
    return path


class Receiver:
    """The webhook receiver: answers 202, and says when the workflow run has completed."""

    def __init__(self) -> None:
        self.run_completed = threading.Event()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        event = request.headers["X-GitHub-Event"]
        if event == "workflow_run" and json.loads(request.content)["action"] == "completed":
            self.run_completed.set()
        return httpx.Response(202)


def push_to_pull_request(http: httpx.Client, bare: Path, work: Path, url: str) -> None:
    """Open a pull request, then push a commit to its branch as carol."""
    add_branch(bare, BRANCH, {"calc/extra.py": "X = 1\n"})
    opened = http.post(f"{REPO}/pulls", headers=CAROL,
                       json={"title": "DEMO-1", "head": BRANCH, "base": "main"})  # fmt: skip
    assert opened.status_code == 201, opened.text
    push_a_fix(work, url)


@pytest.fixture(scope="module")
def deliveries(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[dict[str, Any]]]:
    """The emulator's deliveries once the Actions run of one push, and its re-run, completed."""
    state = tmp_path_factory.mktemp("github-actions")
    receiver = Receiver()
    hooks = GitHubWebhooks(
        "http://hooks.test/webhooks/github", "hook-secret", transport=httpx.MockTransport(receiver)
    )
    app = create_app(state, actions_seed(state), github_webhooks=hooks, ci=True)
    with serve(app) as url, httpx.Client(base_url=url, timeout=30) as http:
        push_to_pull_request(http, state / "git" / "demo" / "calc.git", state, url)
        wait_for_completed_run(http, receiver, "the push")
        run_id = http.get(f"{REPO}/actions/runs", headers=CAROL).json()["workflow_runs"][0]["id"]
        receiver.run_completed.clear()
        rerun = http.post(f"{REPO}/actions/runs/{run_id}/rerun-failed-jobs", headers=CAROL)
        assert rerun.status_code == 201, rerun.text
        yield wait_for_completed_run(http, receiver, "the re-run")


def wait_for_completed_run(http: httpx.Client, receiver: Receiver, what: str) -> list[Any]:
    """The deliveries once a workflow run has completed (fails after RUN_TIMEOUT_S)."""
    completed = receiver.run_completed.wait(RUN_TIMEOUT_S)
    sent: list[Any] = http.get("/_emulator/github/webhooks").json()["deliveries"]
    kinds = sorted({kind(d) for d in sent})
    assert completed, f"no workflow run completed {RUN_TIMEOUT_S}s after {what}; sent {kinds}"
    return sent


def actions_deliveries(deliveries: list[dict[str, Any]], kind_: str) -> list[dict[str, Any]]:
    """The payloads of one kind sent for the Actions run (check runs and suites of its app)."""
    sent = [d["payload"] for d in deliveries if kind(d) == kind_]
    if kind_.startswith("check_"):
        thing = kind_.partition(".")[0]
        sent = [p for p in sent if p[thing]["app"]["slug"] == "github-actions"]
    return sent


@pytest.mark.parametrize("kind_", KINDS)
def test_the_emulators_actions_webhook_has_githubs_shape(
    deliveries: list[dict[str, Any]], kind_: str
) -> None:
    assert_githubs_shape(kind_, actions_deliveries(deliveries, kind_), deliveries)


def test_both_attempts_failed_as_their_command_did(deliveries: list[dict[str, Any]]) -> None:
    runs = [p["workflow_run"] for p in actions_deliveries(deliveries, "workflow_run.completed")]
    jobs = [p["workflow_job"] for p in actions_deliveries(deliveries, "workflow_job.completed")]
    assert [(r["run_attempt"], r["conclusion"]) for r in runs] == [(1, "failure"), (2, "failure")]
    assert [j["conclusion"] for j in jobs] == ["failure", "failure"]
    assert runs[1]["previous_attempt_url"].endswith(f"/actions/runs/{runs[0]['id']}/attempts/1")
    assert all(r["pull_requests"][0]["head"]["ref"] == BRANCH for r in runs)
