"""The emulated CI reporting as GitHub Actions does: a workflow run with one job whose steps
run the test command, the job's log in Actions' timestamped line format, and the check run
Actions creates for the job (its id is the job's id, its app `github-actions`)."""

import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from emulators.github import actions_shapes as shapes
from emulators.github.actions import announce_job, announce_run, jobs_of, runs_of
from emulators.github.actions_shapes import ACTIONS_TOKEN
from emulators.github.ci_faults import CiFaults, JobOutcome, faulted
from emulators.github.routes import _git, github_time
from emulators.github.store import Json, bare_path
from emulators.github.webhooks import GitHubWebhooks
from emulators.state import EmulatorState
from integrations.workspace.commands import CommandResult

CHECKOUT = "Run actions/checkout@v4"
Test = Callable[[], Awaitable[CommandResult]]


def log_time() -> str:
    """A log line's timestamp as Actions writes it (seven fractional digits)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f0Z")


def tested(result: CommandResult) -> JobOutcome:
    """How the job ends when its tests ran: their output, and Actions' error when they failed."""
    lines = result.output.splitlines()
    if result.timed_out:
        return JobOutcome("timed_out", lines=lines, error="The action has timed out.")
    if result.exit_code != 0:
        return JobOutcome(
            "failure", lines=lines, error=f"Process completed with exit code {result.exit_code}."
        )
    return JobOutcome("success", lines=lines)


def job_log(sha: str, command: str, outcome: JobOutcome) -> str:
    """The job's log: setup, checkout, the command's output (unless checkout failed), and how
    it ended."""
    at = log_time()
    lines = [
        "Current runner version: '2.321.0'", "##[group]Runner Image", "Image: ubuntu-24.04",
        "##[endgroup]", f"##[group]{CHECKOUT}", f"Checking out {sha}", "##[endgroup]",
    ]  # fmt: skip
    if outcome.step > 2:
        lines += [f"##[group]Run {command}", command, "shell: /usr/bin/bash -e {0}", "##[endgroup]"]
    lines += outcome.lines
    if outcome.error:
        lines.append(f"##[error]{outcome.error}")
    lines.append("Cleaning up orphan processes")
    return "".join(f"{at} {line}\n" for line in lines)


class ActionsReporter:
    """Runs one attempt of the repository's workflow and reports it in every Actions shape."""

    def __init__(self, state: EmulatorState, repos_root: Path, hooks: GitHubWebhooks) -> None:
        self._state, self._repos_root, self._hooks = state, repos_root, hooks
        self.logs_dir = repos_root.parent / "actions-logs"
        self.faults = CiFaults()

    async def run(
        self, api: httpx.AsyncClient, r: Json, sha: str, branch: str | None, command: str,
        test: Test, base: str, again: Json | None = None,
    ) -> str:  # fmt: skip
        """One attempt (a new run, or `again` re-run); returns the job's conclusion."""
        full = f"{r['owner']}/{r['name']}"
        auth = {"Authorization": f"Bearer {ACTIONS_TOKEN}"}
        created = await api.post(
            f"/repos/{full}/check-runs", headers=auth,
            json={"name": shapes.JOB_NAME, "head_sha": sha, "external_id": str(uuid.uuid4())},
        )  # fmt: skip
        check = created.json()
        run = again or await self._new_run(r, sha, branch, check["check_suite"]["id"])
        now = github_time()
        run.update(status="queued", conclusion=None, updated_at=now, run_started_at=now)
        job = {
            "id": check["id"], "repo": full, "run_id": run["id"], "run_attempt": run["run_attempt"],
            "name": shapes.JOB_NAME, "head_sha": sha, "head_branch": run["head_branch"],
            "status": "queued", "conclusion": None, "created_at": now, "started_at": now,
            "completed_at": None, "steps": [],
        }  # fmt: skip
        jobs_of(self._state).append(job)
        self._state.save()
        announce_run(self._state, self._hooks, r, run, "requested", base)
        announce_job(self._hooks, r, job, "queued", base)
        job_url = f"{base}/{full}/actions/runs/{run['id']}/job/{job['id']}"
        await api.patch(
            f"/repos/{full}/check-runs/{job['id']}", headers=auth,
            json={"status": "in_progress", "details_url": job_url},
        )  # fmt: skip
        run.update(status="in_progress", updated_at=github_time())
        job.update(status="in_progress", steps=self._steps(command, "in_progress"))
        self._state.save()
        announce_run(self._state, self._hooks, r, run, "in_progress", base)
        announce_job(self._hooks, r, job, "in_progress", base)

        fault = self.faults.take(full, run["head_commit"]["message"])
        outcome = tested(await test()) if fault is None else faulted(fault, full)
        conclusion = outcome.conclusion
        self.logs_dir.mkdir(parents=True, exist_ok=True)
        (self.logs_dir / f"{job['id']}.log").write_text(job_log(sha, command, outcome))
        annotations = [] if conclusion == "success" else [
            {"path": ".github", "start_line": 1, "end_line": 1, "annotation_level": "failure",
             "message": outcome.error},
        ]  # fmt: skip
        await api.patch(
            f"/repos/{full}/check-runs/{job['id']}", headers=auth,
            json={"status": "completed", "conclusion": conclusion,
                  "output": {"title": None, "summary": None, "annotations": annotations}},
        )  # fmt: skip
        done = github_time()
        job.update(status="completed", conclusion=conclusion, completed_at=done)
        job["steps"] = self._steps(command, "completed", conclusion, outcome.step)
        run.update(status="completed", conclusion=conclusion, updated_at=done)
        self._state.save()
        announce_job(self._hooks, r, job, "completed", base)
        announce_run(self._state, self._hooks, r, run, "completed", base)
        return conclusion

    async def _new_run(self, r: Json, sha: str, branch: str | None, suite_id: int) -> Json:
        full = f"{r['owner']}/{r['name']}"
        bare = bare_path(self._repos_root, r)
        fmt = "%T%x00%B%x00%an%x00%ae%x00%cn%x00%ce%x00%cI"
        shown = (await _git(bare, "show", "-s", f"--format={fmt}", sha) or "").split("\x00")
        tree, message, an, ae, cn, ce, when = (shown + [""] * 7)[:7]
        now = github_time()
        run: dict[str, Any] = {
            "id": self._state.next_id("github-id", 5000), "repo": full, "head_sha": sha,
            "head_branch": branch, "event": "push", "status": "queued", "conclusion": None,
            "run_number": 1 + sum(1 for x in runs_of(self._state) if x["repo"] == full),
            "run_attempt": 1, "check_suite_id": suite_id, "actor": r["owner"],
            "created_at": now, "updated_at": now, "run_started_at": now,
            "head_commit": {
                "id": sha, "tree_id": tree, "message": message.strip(), "timestamp": when or now,
                "author": {"name": an, "email": ae}, "committer": {"name": cn, "email": ce},
            },
        }  # fmt: skip
        runs_of(self._state).append(run)
        return run

    def _steps(
        self, command: str, status: str, conclusion: str | None = None, failed: int = 3
    ) -> list[Json]:
        """Set up, checkout, the tests, tear down; step `failed` carries the job's outcome and
        the steps after it up to tear down are skipped."""
        at = github_time()
        names = ["Set up job", CHECKOUT, f"Run {command}", "Complete job"]
        steps = []
        for number, name in enumerate(names, 1):
            tests, done = number == 3, status == "completed" or number < 3
            ended = "success"
            if conclusion not in (None, "success") and failed <= number < len(names):
                ended = conclusion if number == failed else "skipped"
            steps.append({
                "name": name, "number": number,
                "status": "completed" if done else "in_progress" if tests else "queued",
                "conclusion": ended if done else None,
                "started_at": at if done or tests else None, "completed_at": at if done else None,
            })  # fmt: skip
        return steps
