"""The emulated GitLab CI: a push to a project with a `ci.command` gets a pipeline with one
`test` job that runs the command on a fresh checkout (the GitHub emulated CI's), or fails as
a flaky job does when a fault says so; a retry is a new job of the same name. Every status
change of a pipeline is sent as a Pipeline Hook."""

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import structlog

from emulators.background import BackgroundWork
from emulators.github.ci import EmulatedCI
from emulators.github.ci_faults import CiFault, CiFaults
from emulators.github.commits import commit_facts
from emulators.gitlab.events import GitLabEvents
from emulators.gitlab.store import Json, bare_of, gitlab_time, owned_list
from emulators.state import EmulatorState
from integrations.workspace.commands import CommandResult

log = structlog.get_logger(__name__)
JOB, STAGE = "test", "test"
FINISHED = ("success", "failed", "canceled")
HOST = "gitlab.example.com"


@dataclass(frozen=True)
class JobEnd:
    """How a job ends: its status, GitLab's failure reason, its script's lines and last line."""

    status: str
    failure_reason: str | None = None
    lines: tuple[str, ...] = ()
    error: str = ""
    ran_script: bool = True


def tested(result: CommandResult) -> JobEnd:
    """How the job ends when its tests ran."""
    lines = tuple(result.output.splitlines())
    if result.timed_out:
        return JobEnd("failed", "job_execution_timeout", lines,
                      "ERROR: Job failed: execution took longer than 10m0s seconds")  # fmt: skip
    if result.exit_code != 0:
        return JobEnd("failed", "script_failure", lines,
                      f"ERROR: Job failed: exit code {result.exit_code}")  # fmt: skip
    return JobEnd("success", lines=lines)


def faulted(fault: CiFault, path: str) -> JobEnd:
    """How a job hit by the fault ends, without running the tests."""
    if fault.kind == "network":
        fatal = (f"fatal: unable to access 'https://{HOST}/{path}.git/': Could not resolve host: "
                 f"{HOST}")  # fmt: skip
        return JobEnd("failed", "script_failure", (fatal,), "ERROR: Job failed: exit code 1", False)
    if fault.kind == "timed_out":
        return JobEnd("failed", "job_execution_timeout", (),
                      "ERROR: Job failed: execution took longer than 10m0s seconds")  # fmt: skip
    if fault.kind == "cancelled":
        return JobEnd("canceled", error="ERROR: Job failed: canceled")
    lost = "ERROR: Job failed (system failure): runner emulated-runner lost contact"
    return JobEnd("failed", "runner_system_failure", error=lost)


def trace(path: str, sha: str, ref: str, command: str, end: JobEnd) -> str:
    """The job's log as a GitLab runner writes it."""
    lines = [
        "Running with gitlab-runner 17.0.0 (44feccdf)", "  on emulated-runner e1a2b3c4",
        'Preparing the "shell" executor', "Using Shell (bash) executor...",
        "Getting source from Git repository", "Fetching changes with git depth set to 20...",
    ]  # fmt: skip
    if end.ran_script:
        lines += [f"Checking out {sha[:8]} as detached HEAD (ref is {ref})...",
                  'Executing "step_script" stage of the job script', f"$ {command}"]  # fmt: skip
    lines += [*end.lines, "Cleaning up project directory and file based variables"]
    lines.append(end.error or "Job succeeded")
    return "\n".join(lines) + "\n"


def seconds_between(start: str | None, end: str) -> float:
    """Seconds from one GitLab timestamp to another."""
    if not start:
        return 0.0
    parse = datetime.fromisoformat
    return round((parse(end) - parse(start)).total_seconds(), 3)


class GitLabCI:
    """Runs the pipelines of one emulator's GitLab projects in the background."""

    def __init__(
        self, state: EmulatorState, repos_root: Path, events: GitLabEvents, runner: EmulatedCI
    ) -> None:
        self._state, self._repos_root, self._events = state, repos_root, events
        self._runner = runner  # its test_commit runs the tests (tests may replace it)
        self.traces_dir = repos_root.parent / "gitlab-traces"
        self.faults = CiFaults()
        self.background = BackgroundWork()

    def pushed(self, p: Json, ref: str, before: str, sha: str, pusher: Json, base: str) -> None:
        """Start a pipeline for a branch the push moved, when the project has a test command."""
        if not (p.get("ci") or {}).get("command"):
            return
        stamp = gitlab_time()
        pipeline = {
            "id": self._state.next_id("gitlab-pipeline", 500), "sha": sha,
            "iid": len(owned_list(p, "pipelines")) + 1, "ref": ref.removeprefix("refs/heads/"),
            "status": "created", "source": "push", "before_sha": before, "user_id": pusher["id"],
            "created_at": stamp, "updated_at": stamp,
        }  # fmt: skip
        owned_list(p, "pipelines").append(pipeline)
        job = self._new_job(p, pipeline, pusher)
        self.background.start(self._run(p, pipeline, job, base, fresh=True))

    def retry(self, p: Json, job: Json, base: str) -> Json:
        """A new pending job in place of a finished one; runs in the background."""
        pipeline = next(pl for pl in owned_list(p, "pipelines") if pl["id"] == job["pipeline_id"])
        job["retried"] = True
        again = self._new_job(p, pipeline, {"id": job["user_id"]}, status="pending")
        self.background.start(self._run(p, pipeline, again, base, fresh=False))
        return again

    def trace_path(self, job: Json) -> Path:
        """Where a job's log is kept."""
        return self.traces_dir / f"{job['id']}.log"

    def _new_job(self, p: Json, pipeline: Json, user: Json, status: str = "created") -> Json:
        job = {
            "id": self._state.next_id("gitlab-job", 9001), "name": JOB, "stage": STAGE,
            "status": status, "pipeline_id": pipeline["id"], "user_id": user["id"],
            "created_at": gitlab_time(), "retried": False,
        }  # fmt: skip
        owned_list(p, "jobs").append(job)
        self._state.save()
        return job

    async def _status(self, p: Json, pipeline: Json, status: str, base: str, **job: Any) -> None:
        """Move the pipeline (and its job's fields) on, and send the Pipeline Hook."""
        stamp = gitlab_time()
        pipeline.update(status=status, updated_at=stamp)
        if status == "running":
            pipeline.setdefault("started_at", stamp)
            pipeline.update(finished_at=None, duration=None)
        if status in FINISHED:
            duration = seconds_between(pipeline.get("started_at"), stamp)
            pipeline.update(finished_at=stamp, duration=int(duration))
        self._state.save()
        await self._events.pipeline(p, pipeline, base)

    async def _run(self, p: Json, pipeline: Json, job: Json, base: str, fresh: bool) -> None:
        try:
            await self._job(p, pipeline, job, base, fresh)
        except Exception:
            log.exception("emulated gitlab job crashed", job=job["id"])
            raise

    async def _job(self, p: Json, pipeline: Json, job: Json, base: str, fresh: bool) -> None:
        if fresh:
            await self._status(p, pipeline, "created", base)
            job["status"] = "pending"
            await self._status(p, pipeline, "pending", base)
        started = gitlab_time()
        job.update(status="running", started_at=started,
                   queued_duration=seconds_between(job["created_at"], started))  # fmt: skip
        await self._status(p, pipeline, "running", base)
        command, path = p["ci"]["command"], p["path_with_namespace"]
        facts = await commit_facts(bare_of(self._repos_root, p), pipeline["sha"])
        fault = self.faults.take(path, (facts or {}).get("message", ""))
        if fault is not None:
            end = faulted(fault, path)
        else:
            owner, _, name = path.rpartition("/")
            repo = {"owner": owner, "name": name, "ci": p["ci"]}
            end = tested(await self._runner.test_commit(repo, pipeline["sha"], command))
        self.traces_dir.mkdir(parents=True, exist_ok=True)
        log_text = trace(path, pipeline["sha"], pipeline["ref"], command, end)
        self.trace_path(job).write_text(log_text)
        finished = gitlab_time()
        job.update(status=end.status, failure_reason=end.failure_reason, finished_at=finished,
                   duration=seconds_between(started, finished))  # fmt: skip
        await self._status(p, pipeline, end.status, base)
        log.info("emulated gitlab job finished", project=path, job=job["id"], status=end.status)

    async def drain(self, timeout: float = 120) -> None:
        """Wait until every job has finished (tests, shutdown)."""
        await self.background.drain(timeout)

    async def aclose(self) -> None:
        """Stop the jobs still going."""
        await self.background.aclose()
