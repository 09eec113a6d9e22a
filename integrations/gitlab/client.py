"""GitLab REST API v4 client: a project's merge requests, opened at most once per branch."""

from typing import Any
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from integrations.http import ServiceClient, build_http_client, raise_for_status
from integrations.security.secrets import SecretFinder

SERVICE = "GitLab"
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
        response = await self._http.request(method, path, **kwargs)
        raise_for_status(SERVICE, response)
        return response.json()

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

    async def add_note(self, repository: str, iid: int, body: str) -> int:
        """Comment on a merge request; the note's id."""
        path = f"/projects/{project_path(repository)}/merge_requests/{iid}/notes"
        return int((await self._request("POST", path, json={"body": body}))["id"])
