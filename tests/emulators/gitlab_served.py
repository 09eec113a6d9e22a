"""The GitLab emulator served over real HTTP for tests: a webhook receiver, a merge request
from `BRANCH`, pushes to it with the real git CLI as carol, and waits with a deadline."""

import base64
import json
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from emulators.app import create_app
from emulators.gitlab.webhooks import GitLabWebhooks
from harness.serving import serve
from integrations.workspace.commands import CommandResult
from tests.contracts.github.test_emulator_webhooks import git
from tests.emulators.helpers import add_branch

PROJECT = "/api/v4/projects/demo-gl%2Fcalc"
BRANCH = "ticketsmith/DEMO-1-add-power"
SECRET = "gl hook secret"  # sent verbatim, spaces and all
BOT = {"PRIVATE-TOKEN": "any"}
CAROL = {"PRIVATE-TOKEN": "carol-gl-token"}
DEADLINE_S = 120


class Receiver:
    """A webhook receiver that keeps every delivery it is sent."""

    def __init__(self) -> None:
        self.received: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.received.append(request)
        return httpx.Response(200, json={"status": "accepted"})

    def hooks(self, event: str) -> list[dict[str, Any]]:
        found = [r for r in self.received if r.headers["X-Gitlab-Event"] == event]
        return [json.loads(r.content) for r in found]


@dataclass
class Served:
    """The served emulator, its HTTP client, receiver, bare repository and work directory."""

    url: str
    http: httpx.Client
    receiver: Receiver
    bare: Path
    work: Path
    tested: list[str]

    def open_mr(self, title: str = "Draft: DEMO-1", files: dict[str, str] | None = None) -> Any:
        sha = add_branch(self.bare, BRANCH, files or {"calc/extra.py": "X = 1\n"})
        payload = {"title": title, "source_branch": BRANCH, "target_branch": "main"}
        opened = self.http.post(f"{PROJECT}/merge_requests", headers=CAROL, json=payload)
        assert opened.status_code == 201, opened.text
        assert opened.json()["sha"] == sha
        return opened.json()

    def push_as_carol(self) -> tuple[str, str]:
        """Push a commit to BRANCH with the git CLI as carol; (old head, new head)."""
        before = self.git_out("rev-parse", f"refs/heads/{BRANCH}")
        clone = self.work / "clone"
        git("clone", "--quiet", "--branch", BRANCH, f"{self.url}/demo-gl/calc.git", str(clone),
            cwd=self.work)  # fmt: skip
        (clone / "calc" / "extra.py").write_text("Y = 1\n")
        git("commit", "--quiet", "-am", "Name it Y", cwd=clone)
        basic = base64.b64encode(b"oauth2:carol-gl-token").decode()
        auth = f"http.extraHeader=Authorization: Basic {basic}"
        git("-c", auth, "push", "--quiet", "origin", f"HEAD:{BRANCH}", cwd=clone)
        return before, self.git_out("rev-parse", f"refs/heads/{BRANCH}")

    def git_out(self, *args: str) -> str:
        done = subprocess.run(["git", "--git-dir", str(self.bare), *args],
                              capture_output=True, text=True, check=False)  # fmt: skip
        return done.stdout.strip()

    def wait(self, what: str, found: Callable[[], Any]) -> Any:
        """`found()` once it is truthy; fails after DEADLINE_S."""
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            if value := found():
                return value
            time.sleep(0.05)
        raise AssertionError(f"no {what} within {DEADLINE_S}s")

    def finished_pipeline(self, sha: str, status: str | None = None) -> dict[str, Any]:
        def done() -> dict[str, Any] | None:
            pipelines = self.http.get(f"{PROJECT}/pipelines", params={"sha": sha}).json()
            finished = [p for p in pipelines if p["status"] in ("success", "failed", "canceled")]
            return finished[0] if finished and status in (None, finished[0]["status"]) else None

        found: dict[str, Any] = self.wait(f"finished pipeline of {sha[:8]}", done)
        return found

    def hook_statuses(self, pipeline_id: int) -> list[str]:
        hooks = self.receiver.hooks("Pipeline Hook")
        return [h["object_attributes"]["status"] for h in hooks
                if h["object_attributes"]["id"] == pipeline_id]  # fmt: skip


@contextmanager
def served(
    work: Path, ci: bool = False, real_tests: bool = True, output: str = "5 passed in 0.1s"
) -> Iterator[Served]:
    """The emulator in `work` over real HTTP, its GitLab hooks to a receiver; without
    `real_tests` its jobs answer `output` (failing when it says so)."""
    receiver = Receiver()
    hooks = GitLabWebhooks("http://hooks.test/webhooks/gitlab", SECRET,
                           transport=httpx.MockTransport(receiver))  # fmt: skip
    app = create_app(work / "state", gitlab_webhooks=hooks, ci=ci)
    tested: list[str] = []
    if not real_tests:

        async def tests(r: dict[str, Any], sha: str, command: str) -> CommandResult:
            tested.append(sha)
            code = 1 if "failed" in output else 0
            return CommandResult(exit_code=code, output=output, timed_out=False, duration_s=0.1)

        app.state.ci.test_commit = tests
    with serve(app) as url, httpx.Client(base_url=url, headers=BOT, timeout=30) as http:
        bare = work / "state" / "git" / "demo-gl" / "calc.git"
        yield Served(url, http, receiver, bare, work, tested)
