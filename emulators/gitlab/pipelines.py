"""A project's pipelines and jobs (the Pipelines and Jobs APIs): lists, one of each, a job's
trace and its retry."""

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import PlainTextResponse

from emulators.github.commits import commit_facts
from emulators.gitlab import shapes
from emulators.gitlab.ci import FINISHED, GitLabCI
from emulators.gitlab.routes import require_token
from emulators.gitlab.store import (
    DEFAULT_PER_PAGE,
    Json,
    bare_of,
    base_of,
    bot,
    find_project,
    gitlab_error,
    owned_list,
    paged,
    user_by_id,
)
from emulators.state import EmulatorState

NOT_RETRYABLE = "403 Forbidden  - Job is not retryable"  # GitLab's two spaces


def create_pipelines_router(state: EmulatorState, repos_root: Path, ci: GitLabCI) -> APIRouter:
    """`/projects/:id/pipelines...` and `/projects/:id/jobs...`."""
    api = APIRouter(
        prefix="/api/v4/projects/{project_id:path}", dependencies=[Depends(require_token)],
        tags=["gitlab"],
    )  # fmt: skip

    def find_pipeline(p: Json, pipeline_id: int) -> Json:
        for pl in owned_list(p, "pipelines"):
            if pl["id"] == pipeline_id:
                return pl
        raise gitlab_error(404, "404 Not found")

    def find_job(p: Json, job_id: int) -> Json:
        for j in owned_list(p, "jobs"):
            if j["id"] == job_id:
                return j
        raise gitlab_error(404, "404 Not found")

    async def commit_of(p: Json, pl: Json, base: str) -> Json:
        facts = await commit_facts(bare_of(repos_root, p), pl["sha"])
        return shapes.commit(facts, pl["sha"], p, base)

    def job_shape(p: Json, j: Json, commit: Json, base: str) -> Json:
        pl = find_pipeline(p, j["pipeline_id"])
        return shapes.job(p, j, pl, commit, user_by_id(state, j["user_id"]) or bot(state), base)

    async def job_json(p: Json, j: Json, base: str) -> Json:
        return job_shape(p, j, await commit_of(p, find_pipeline(p, j["pipeline_id"]), base), base)

    @api.get("/pipelines")
    def list_pipelines(
        project_id: str, request: Request, sha: str | None = None, ref: str | None = None,
        status: str | None = None, page: int = 1, per_page: int = DEFAULT_PER_PAGE,
    ) -> Any:  # fmt: skip
        p = find_project(state, project_id)
        wanted = {"sha": sha, "ref": ref, "status": status}
        found = [
            shapes.pipeline(p, pl, base_of(request))
            for pl in reversed(owned_list(p, "pipelines"))
            if all(value is None or pl[key] == value for key, value in wanted.items())
        ]
        return paged(found, page, per_page)

    @api.get("/pipelines/{pipeline_id}")
    def get_pipeline(project_id: str, pipeline_id: int, request: Request) -> Any:
        p = find_project(state, project_id)
        return shapes.pipeline(p, find_pipeline(p, pipeline_id), base_of(request))

    @api.get("/pipelines/{pipeline_id}/jobs")
    async def list_jobs(
        project_id: str, pipeline_id: int, request: Request, include_retried: bool = False,
        page: int = 1, per_page: int = DEFAULT_PER_PAGE,
    ) -> Any:  # fmt: skip
        p = find_project(state, project_id)
        pl = find_pipeline(p, pipeline_id)
        jobs = [
            await job_json(p, j, base_of(request))
            for j in reversed(owned_list(p, "jobs"))
            if j["pipeline_id"] == pl["id"] and (include_retried or not j["retried"])
        ]
        return paged(jobs, page, per_page)

    @api.get("/jobs/{job_id}")
    async def get_job(project_id: str, job_id: int, request: Request) -> Any:
        p = find_project(state, project_id)
        return await job_json(p, find_job(p, job_id), base_of(request))

    @api.get("/jobs/{job_id}/trace")
    def get_trace(project_id: str, job_id: int) -> Any:
        job = find_job(find_project(state, project_id), job_id)
        path = ci.trace_path(job)
        if not path.is_file():
            raise gitlab_error(404, "404 Not found")
        return PlainTextResponse(path.read_text())

    @api.post("/jobs/{job_id}/retry", status_code=201)
    async def retry_job(project_id: str, job_id: int, request: Request) -> Any:
        p = find_project(state, project_id)
        job = find_job(p, job_id)
        if job["status"] not in FINISHED or job["retried"]:
            raise gitlab_error(403, NOT_RETRYABLE)
        commit = await commit_of(p, find_pipeline(p, job["pipeline_id"]), base_of(request))
        # Shaped before the new job can start: the answer shows it pending, as GitLab's does.
        again = ci.retry(p, job, base_of(request))
        return job_shape(p, again, commit, base_of(request))

    return api
