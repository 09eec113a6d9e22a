"""GitLab REST API v4 client: a project's merge requests (opened at most once per branch),
their notes and discussions, its members, and its pipelines' jobs and logs."""

from typing import Any
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from integrations.http import ServiceClient, build_http_client, raise_for_status
from integrations.security.secrets import SecretFinder

SERVICE = "GitLab"
PER_PAGE = 100
DRAFT = "Draft: "  # GitLab's own title prefix for a draft merge request


class MergeRequest(BaseModel):
    """A merge request; `url` is the page people open."""

    iid: int
    url: str
    state: str
    draft: bool
    source_branch: str
    target_branch: str
    title: str
    description: str | None = None


class Note(BaseModel):
    """A note on a merge request, as untrusted text."""

    id: int
    body: str
    author: str


class Job(BaseModel):
    """A CI job of a pipeline; `failure_reason` is GitLab's word for why it failed."""

    id: int
    name: str
    status: str
    failure_reason: str | None = None
    allow_failure: bool = False
    pipeline_id: int
    sha: str
    web_url: str = ""


class Pipeline(BaseModel):
    """A pipeline run on one commit."""

    id: int
    sha: str
    ref: str
    status: str
    web_url: str = ""


def _job(raw: dict[str, Any]) -> Job:
    pipeline = raw.get("pipeline") or {}
    return Job(
        id=raw["id"], name=raw["name"], status=raw["status"],
        failure_reason=raw.get("failure_reason"), allow_failure=bool(raw.get("allow_failure")),
        pipeline_id=pipeline["id"],
        sha=pipeline.get("sha") or (raw.get("commit") or {}).get("id", ""),
        web_url=raw.get("web_url") or "",
    )  # fmt: skip


def _pipeline(raw: dict[str, Any]) -> Pipeline:
    return Pipeline(
        id=raw["id"], sha=raw["sha"], ref=raw["ref"], status=raw["status"],
        web_url=raw.get("web_url") or "",
    )  # fmt: skip


def _merge_request(raw: dict[str, Any]) -> MergeRequest:
    return MergeRequest(
        iid=raw["iid"],
        url=raw["web_url"],
        state=raw["state"],
        draft=bool(raw.get("draft") or raw.get("work_in_progress")),
        source_branch=raw["source_branch"],
        target_branch=raw["target_branch"],
        title=raw["title"],
        description=raw.get("description"),
    )


def project_path(repository: str) -> str:
    """A project's id in v4 paths: its `namespace/name`, URL-encoded."""
    return quote(repository, safe="")


class GitLabClient(ServiceClient):
    """GitLab.com (https://gitlab.com/api/v4) or a self-managed instance's `/api/v4`, with a
    personal, group or project access token."""

    def __init__(
        self,
        api_url: str,
        token: str,
        transport: httpx.AsyncBaseTransport | None = None,
        secrets: SecretFinder | None = None,
    ) -> None:
        headers = {"PRIVATE-TOKEN": token}
        super().__init__(build_http_client(api_url, headers, transport=transport, secrets=secrets))

    async def _request(self, method: str, path: str, **kwargs: Any) -> Any:
        return (await self._response(method, path, **kwargs)).json()

    async def _response(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response = await self._http.request(method, path, **kwargs)
        raise_for_status(SERVICE, response)
        return response

    async def _pages(self, path: str, **params: Any) -> list[dict[str, Any]]:
        """Every item of a paginated list, following `X-Next-Page`."""
        items: list[dict[str, Any]] = []
        page: str | None = "1"
        while page:
            response = await self._response(
                "GET", path, params={**params, "per_page": PER_PAGE, "page": page}
            )
            items += response.json()
            page = response.headers.get("X-Next-Page") or None
        return items

    async def find_open_merge_request(self, repository: str, source: str) -> MergeRequest | None:
        """The open merge request from a branch, if any."""
        params = {"state": "opened", "source_branch": source}
        path = f"/projects/{project_path(repository)}/merge_requests"
        found = await self._request("GET", path, params=params)
        return _merge_request(found[0]) if found else None

    async def create_merge_request(
        self,
        repository: str,
        title: str,
        description: str,
        source: str,
        target: str,
        draft: bool = False,
    ) -> MergeRequest:
        """Open a merge request, or return the one already open for `source` (retries are safe)."""
        if existing := await self.find_open_merge_request(repository, source):
            return existing
        payload = {
            "title": f"{DRAFT}{title}" if draft else title,
            "description": description,
            "source_branch": source,
            "target_branch": target,
            "remove_source_branch": False,
        }
        path = f"/projects/{project_path(repository)}/merge_requests"
        return _merge_request(await self._request("POST", path, json=payload))

    async def update_description(self, repository: str, iid: int, description: str) -> MergeRequest:
        """Replace a merge request's description (safe to retry)."""
        path = f"/projects/{project_path(repository)}/merge_requests/{iid}"
        return _merge_request(await self._request("PUT", path, json={"description": description}))

    async def merge_request(self, repository: str, iid: int) -> MergeRequest:
        """One merge request."""
        path = f"/projects/{project_path(repository)}/merge_requests/{iid}"
        return _merge_request(await self._request("GET", path))

    async def merge(self, repository: str, iid: int) -> str:
        """Merge a merge request; the merge commit's sha (the head's when GitLab fast-forwards)."""
        path = f"/projects/{project_path(repository)}/merge_requests/{iid}/merge"
        merged = await self._request("PUT", path, json={"should_remove_source_branch": False})
        return str(merged.get("merge_commit_sha") or merged.get("sha") or "")

    async def close(self, repository: str, iid: int) -> MergeRequest:
        """Close a merge request without merging it."""
        path = f"/projects/{project_path(repository)}/merge_requests/{iid}"
        return _merge_request(await self._request("PUT", path, json={"state_event": "close"}))

    async def add_note(self, repository: str, iid: int, body: str) -> int:
        """Comment on a merge request; the note's id."""
        path = f"/projects/{project_path(repository)}/merge_requests/{iid}/notes"
        return int((await self._request("POST", path, json={"body": body}))["id"])

    async def list_notes(self, repository: str, iid: int) -> list[Note]:
        """Every note on a merge request, replies in discussions included, oldest first."""
        path = f"/projects/{project_path(repository)}/merge_requests/{iid}/notes"
        found = await self._pages(path, sort="asc", order_by="created_at")
        return [
            Note(
                id=n["id"],
                body=n.get("body") or "",
                author=(n.get("author") or {}).get("username", "unknown"),
            )
            for n in found
        ]

    async def reply_in_discussion(
        self, repository: str, iid: int, discussion_id: str, body: str
    ) -> int:
        """Reply in a merge request's discussion (a review thread); the note's id."""
        path = (
            f"/projects/{project_path(repository)}/merge_requests/{iid}"
            f"/discussions/{quote(discussion_id, safe='')}/notes"
        )
        return int((await self._request("POST", path, json={"body": body}))["id"])

    async def access_level(self, repository: str, user_id: int) -> int | None:
        """A user's access level on the project, inherited ones included; None: no member."""
        path = f"/projects/{project_path(repository)}/members/all/{user_id}"
        response = await self._http.get(path)
        if response.status_code == 404:
            return None
        raise_for_status(SERVICE, response)
        return int(response.json().get("access_level") or 0)

    async def pipeline(self, repository: str, pipeline_id: int) -> Pipeline:
        """One pipeline."""
        path = f"/projects/{project_path(repository)}/pipelines/{pipeline_id}"
        return _pipeline(await self._request("GET", path))

    async def pipeline_jobs(
        self, repository: str, pipeline_id: int, include_retried: bool = False
    ) -> list[Job]:
        """A pipeline's jobs; retried ones only with `include_retried`."""
        path = f"/projects/{project_path(repository)}/pipelines/{pipeline_id}/jobs"
        found = await self._pages(path, include_retried=str(include_retried).lower())
        return [_job(j) for j in found]

    async def job(self, repository: str, job_id: int) -> Job:
        """One job."""
        return _job(
            await self._request("GET", f"/projects/{project_path(repository)}/jobs/{job_id}")
        )

    async def job_trace(self, repository: str, job_id: int) -> str:
        """A job's log (untrusted text); "" when it has none yet."""
        path = f"/projects/{project_path(repository)}/jobs/{job_id}/trace"
        response = await self._http.get(path)
        if response.status_code == 404:
            return ""
        raise_for_status(SERVICE, response)
        return response.text

    async def retry_job(self, repository: str, job_id: int) -> Job:
        """Run a finished job again: GitLab makes a new job of the same name."""
        path = f"/projects/{project_path(repository)}/jobs/{job_id}/retry"
        return _job(await self._request("POST", path))
