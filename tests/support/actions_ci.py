"""The emulator with its CI reporting as GitHub Actions, served over real HTTP: a pull request
from `BRANCH`, pushes to it with the real git CLI, and its runs waited for with a deadline."""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from emulators.app import create_app
from harness.serving import serve
from integrations.workspace.commands import CommandResult
from tests.contracts.github.test_emulator_webhooks import BRANCH, REPO, push_a_fix
from tests.emulators.helpers import BOT, add_branch

DEADLINE_S = 60


class ServedActions:
    """The served emulator, and the commits its CI really tested (the others were faulted)."""

    def __init__(self, url: str, work: Path) -> None:
        self.url, self.work = url, work
        self.tested: list[str] = []
        self.http = httpx.Client(base_url=url, timeout=30, headers=BOT)

    def push(self) -> str:
        """Push a commit to the pull request's branch as carol; its sha."""
        push_a_fix(self.work, self.url)
        sha: str = self.http.get(f"{REPO}/pulls/1").json()["head"]["sha"]
        return sha

    def run_of(self, sha: str, attempt: int = 1) -> dict[str, Any]:
        """The workflow run of a commit once `attempt` of it completed (fails after a while)."""
        deadline = time.monotonic() + DEADLINE_S
        found: list[dict[str, Any]] = []
        while time.monotonic() < deadline:
            runs = self.http.get(f"{REPO}/actions/runs", params={"head_sha": sha}).json()
            found = runs["workflow_runs"]
            if found and (found[0]["run_attempt"], found[0]["status"]) == (attempt, "completed"):
                return found[0]
            time.sleep(0.05)
        raise AssertionError(f"attempt {attempt} of {sha[:7]}'s run did not complete: {found}")

    def job_of(self, run: dict[str, Any]) -> dict[str, Any]:
        """The one job of a run's latest attempt."""
        jobs: dict[str, Any] = self.http.get(f"{REPO}/actions/runs/{run['id']}/jobs").json()
        return dict(jobs["jobs"][0])


@contextmanager
def served_actions(work: Path, output: str = "5 passed in 0.1s") -> Iterator[ServedActions]:
    """The emulator in `work`, its tests answering `output` (failing when it says so)."""
    app = create_app(work / "state", ci=True, ci_reporter="actions")
    add_branch(work / "state" / "git" / "demo" / "calc.git", BRANCH, {"calc/extra.py": "X = 1\n"})
    with serve(app) as url:
        served = ServedActions(url, work)

        async def tests(r: dict[str, Any], sha: str, command: str) -> CommandResult:
            served.tested.append(sha)
            code = 1 if "failed" in output else 0
            return CommandResult(exit_code=code, output=output, timed_out=False, duration_s=0.1)

        app.state.ci.test_commit = tests
        opened = served.http.post(
            f"{REPO}/pulls", json={"title": "DEMO-1", "head": BRANCH, "base": "main"}
        )
        assert opened.status_code == 201, opened.text
        try:
            yield served
        finally:
            served.http.close()
