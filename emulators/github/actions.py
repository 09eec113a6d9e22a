"""GitHub Actions in the emulator: workflow runs, their jobs and the jobs' logs, read as the
REST API serves them, the reruns of a run's failed jobs or of one job, with the `workflow_run`
and `workflow_job` webhooks.

A job's log is served as GitHub serves it: the API answers 302 with a short-lived signed URL,
and that URL serves the plain text without the API's token (it refuses one, so a client that
sends its token to the download host is caught).
"""

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import PlainTextResponse, RedirectResponse

from emulators.github import actions_shapes as shapes
from emulators.github import hook_shapes as hook_shapes
from emulators.github.routes import github_error, require_token
from emulators.github.store import Json, base_url, collection, find_repo
from emulators.github.webhooks import GitHubWebhooks
from emulators.state import EmulatorState

LOG_URL_SECONDS = 60
ACTIONS_LOGIN = "github-actions[bot]"
Rerun = Callable[[Json, Json, str], bool]  # (repository, run, base) -> started


def runs_of(state: EmulatorState) -> list[Json]:
    """Every workflow run the emulated CI recorded."""
    return collection(state, "workflow_runs")


def jobs_of(state: EmulatorState) -> list[Json]:
    """Every job of every run and attempt."""
    return collection(state, "workflow_jobs")


def open_pulls(state: EmulatorState, full: str, sha: str) -> list[Json]:
    """The open pull requests whose head is `sha`."""
    return [
        p
        for p in state.data["pulls"]
        if p["repo"] == full and p["state"] == "open" and p["head_sha"] == sha
    ]


def run_json(state: EmulatorState, r: Json, run: Json, base: str) -> Json:
    """A recorded run in GitHub's shape."""
    return shapes.workflow_run(run, r, open_pulls(state, run["repo"], run["head_sha"]), base)


def announce_run(
    state: EmulatorState, hooks: GitHubWebhooks, r: Json, run: Json, action: str, base: str
) -> None:
    """Send `workflow_run` (requested, in_progress or completed)."""
    hooks.send("workflow_run", {
        "action": action, "workflow_run": run_json(state, r, run, base),
        "workflow": shapes.workflow(run["repo"], base),
        "repository": hook_shapes.repository(r, base), "sender": shapes.user(run["actor"], base),
    })  # fmt: skip


def announce_job(hooks: GitHubWebhooks, r: Json, job: Json, action: str, base: str) -> None:
    """Send `workflow_job` (queued, in_progress or completed)."""
    hooks.send("workflow_job", {
        "action": action, "workflow_job": shapes.job(job, base),
        "repository": hook_shapes.repository(r, base),
        "sender": shapes.user(ACTIONS_LOGIN, base, "Bot"),
    })  # fmt: skip


def _signature(key: bytes, job_id: int, expires: int) -> str:
    return hmac.new(key, f"{job_id}:{expires}".encode(), hashlib.sha256).hexdigest()


def create_actions_router(
    state: EmulatorState, logs_dir: Path, rerun: Rerun | None = None
) -> APIRouter:
    """The Actions routes of one emulator, and the download route of its signed log URLs."""
    router = APIRouter()
    prefix = "/api/v3/repos/{owner}/{repo}/actions"
    api = APIRouter(prefix=prefix, dependencies=[Depends(require_token)])
    key = secrets.token_bytes(32)  # signs log URLs; a restarted emulator's old URLs expire

    def find(items: list[Json], r: Json, item_id: int) -> Json:
        full = f"{r['owner']}/{r['name']}"
        found = next((i for i in items if i["repo"] == full and i["id"] == item_id), None)
        if found is None:
            raise github_error(404, "Not Found")
        return found

    @api.get("/runs")
    def list_runs(
        owner: str, repo: str, request: Request, head_sha: str | None = None,
        branch: str | None = None, event: str | None = None, status: str | None = None,
        per_page: int = Query(30, ge=1, le=100), page: int = Query(1, ge=1),
    ) -> Any:  # fmt: skip
        r = find_repo(state, owner, repo)
        full = f"{r['owner']}/{r['name']}"
        found = [
            run
            for run in reversed(runs_of(state))
            if run["repo"] == full
            and head_sha in (None, run["head_sha"])
            and branch in (None, run["head_branch"])
            and event in (None, run["event"])
            and status in (None, run["status"], run.get("conclusion"))
        ]
        shown = found[(page - 1) * per_page : page * per_page]
        base = base_url(request)
        return {
            "total_count": len(found),
            "workflow_runs": [run_json(state, r, run, base) for run in shown],
        }

    @api.get("/runs/{run_id}")
    def get_run(owner: str, repo: str, run_id: int, request: Request) -> Any:
        r = find_repo(state, owner, repo)
        return run_json(state, r, find(runs_of(state), r, run_id), base_url(request))

    @api.get("/runs/{run_id}/jobs")
    def list_jobs(
        owner: str, repo: str, run_id: int, request: Request,
        filter: str = Query("latest", pattern="^(latest|all)$"),
        per_page: int = Query(30, ge=1, le=100), page: int = Query(1, ge=1),
    ) -> Any:  # fmt: skip
        r = find_repo(state, owner, repo)
        run = find(runs_of(state), r, run_id)
        found = [
            j
            for j in jobs_of(state)
            if j["repo"] == run["repo"] and j["run_id"] == run_id
            and (filter == "all" or j["run_attempt"] == run["run_attempt"])
        ]  # fmt: skip
        shown = found[(page - 1) * per_page : page * per_page]
        base = base_url(request)
        return {"total_count": len(found), "jobs": [shapes.job(j, base) for j in shown]}

    @api.get("/jobs/{job_id}")
    def get_job(owner: str, repo: str, job_id: int, request: Request) -> Any:
        r = find_repo(state, owner, repo)
        return shapes.job(find(jobs_of(state), r, job_id), base_url(request))

    @api.get("/jobs/{job_id}/logs")
    def download_job_log(owner: str, repo: str, job_id: int, request: Request) -> Any:
        job = find(jobs_of(state), find_repo(state, owner, repo), job_id)
        if not (logs_dir / f"{job['id']}.log").is_file():
            raise github_error(404, "Not Found")
        expires = int(time.time()) + LOG_URL_SECONDS
        signature = _signature(key, job["id"], expires)
        url = f"{base_url(request)}/_emulator/actions/logs/{job['id']}"
        return RedirectResponse(f"{url}?expires={expires}&signature={signature}", 302)

    @api.post("/runs/{run_id}/rerun-failed-jobs", status_code=201)
    async def rerun_failed_jobs(owner: str, repo: str, run_id: int, request: Request) -> Any:
        r = find_repo(state, owner, repo)
        run = find(runs_of(state), r, run_id)
        if run["status"] != "completed" or run.get("conclusion") == "success":
            raise github_error(403, "This workflow run has no failed jobs to re-run.")
        if rerun is None or not rerun(r, run, base_url(request)):
            raise github_error(403, "This workflow run cannot be re-run.")
        return {}

    @api.post("/jobs/{job_id}/rerun", status_code=201)
    async def rerun_job(owner: str, repo: str, job_id: int, request: Request) -> Any:
        r = find_repo(state, owner, repo)
        job = find(jobs_of(state), r, job_id)
        run = find(runs_of(state), r, job["run_id"])
        if run["status"] != "completed":
            raise github_error(403, "This workflow run is not complete.")
        if job["run_attempt"] != run["run_attempt"]:
            raise github_error(403, "This job is not of the workflow run's latest attempt.")
        if rerun is None or not rerun(r, run, base_url(request)):
            raise github_error(403, "This job cannot be re-run.")
        return {}

    @router.get("/_emulator/actions/logs/{job_id}", tags=["emulator"])
    def signed_log(job_id: int, request: Request, expires: int = 0, signature: str = "") -> Any:
        if "authorization" in request.headers:
            raise github_error(400, "The log URL is signed: send it no Authorization header.")
        if not hmac.compare_digest(signature, _signature(key, job_id, expires)):
            raise github_error(403, "The log URL's signature does not match.")
        if expires < time.time():
            raise github_error(403, "The log URL has expired: ask the API for a new one.")
        path = logs_dir / f"{job_id}.log"
        if not path.is_file():
            raise github_error(404, "Not Found")
        return PlainTextResponse(path.read_text(encoding="utf-8", errors="replace"))

    router.include_router(api)
    return router
