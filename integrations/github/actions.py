"""GitHub Actions REST calls: workflow runs, their jobs and logs, and the rerun of one job."""

from typing import Any

from pydantic import BaseModel, Field

from integrations.github.client import SERVICE, GitHubClient
from integrations.github.job_logs import download_log
from integrations.http import raise_for_status

FAILED = ("failure", "timed_out", "cancelled")


class ActionsRun(BaseModel):
    """A workflow run as it stands: its latest attempt and how that attempt is going."""

    id: int
    run_attempt: int
    status: str
    conclusion: str | None = None


class ActionsJob(BaseModel):
    """One job of one attempt of a workflow run."""

    id: int
    name: str
    run_id: int
    run_attempt: int
    head_sha: str
    status: str
    conclusion: str | None = None
    failed_steps: list[str] = Field(default_factory=list)


def _job(raw: dict[str, Any]) -> ActionsJob:
    steps = raw.get("steps") or []
    return ActionsJob(
        id=raw["id"], name=raw["name"], run_id=raw["run_id"],
        run_attempt=raw.get("run_attempt") or 1, head_sha=raw["head_sha"],
        status=raw["status"], conclusion=raw.get("conclusion"),
        failed_steps=[s["name"] for s in steps if s.get("conclusion") in FAILED],
    )  # fmt: skip


class ActionsClient(GitHubClient):
    """The GitHub client with the Actions calls following a pull request's CI needs."""

    async def workflow_run(self, repository: str, run_id: int) -> ActionsRun:
        """A workflow run, at its latest attempt."""
        raw = await self._request("GET", f"/repos/{repository}/actions/runs/{run_id}")
        return ActionsRun(
            id=raw["id"], run_attempt=raw.get("run_attempt") or 1, status=raw["status"],
            conclusion=raw.get("conclusion"),
        )  # fmt: skip

    async def run_jobs(self, repository: str, run_id: int) -> list[ActionsJob]:
        """The jobs of a workflow run's latest attempt."""
        path = f"/repos/{repository}/actions/runs/{run_id}/jobs"
        raw = await self._request("GET", path, params={"filter": "latest", "per_page": 100})
        return [_job(job) for job in raw["jobs"]]

    async def actions_job(self, repository: str, job_id: int) -> ActionsJob:
        """One job by id (an Actions job's check run has the job's id)."""
        return _job(await self._request("GET", f"/repos/{repository}/actions/jobs/{job_id}"))

    async def job_log(self, repository: str, job_id: int) -> str:
        """A job's log, its end kept when it is long (read through the signed redirect)."""
        path = f"/repos/{repository}/actions/jobs/{job_id}/logs"
        response = await self._http.get(path, follow_redirects=False)
        return await download_log(self._http, SERVICE, response)

    async def rerun_job(self, repository: str, job_id: int) -> None:
        """Ask Actions to run one job (and the jobs that need it) again, as the run's next
        attempt."""
        response = await self._http.post(f"/repos/{repository}/actions/jobs/{job_id}/rerun")
        raise_for_status(SERVICE, response)  # 201, its body an empty object or none
