"""GitHub REST v3 client: repositories and pull requests, opened at most once per branch."""

import re
from typing import Any

import httpx
from pydantic import BaseModel
from temporalio.exceptions import ApplicationError

from integrations.github.auth import GitHubAuth, StaticToken, TokenSource
from integrations.http import ServiceClient, build_http_client, raise_for_status
from integrations.security.secrets import SecretFinder

SERVICE = "GitHub"


class Repository(BaseModel):
    """The facts about a repository ticketsmith needs."""

    full_name: str
    default_branch: str
    clone_url: str
    html_url: str


class PullRequest(BaseModel):
    """A pull request; `url` is the page people open."""

    number: int
    url: str
    state: str
    draft: bool
    head: str
    base: str
    title: str
    body: str | None = None


DRAFT_PREFIX = "[Draft] "


class IssueComment(BaseModel):
    """A comment on a pull request's conversation."""

    id: int
    url: str
    body: str


def _pull_request(raw: dict[str, Any]) -> PullRequest:
    return PullRequest(
        number=raw["number"],
        url=raw["html_url"],
        state=raw["state"],
        draft=bool(raw.get("draft")),
        head=raw["head"]["ref"],
        base=raw["base"]["ref"],
        title=raw["title"],
        body=raw.get("body"),
    )


class GitHubClient(ServiceClient):
    """GitHub.com (https://api.github.com) or Enterprise style (https://host/api/v3).

    `token` is a personal token or a source of tokens (a GitHub App's installation tokens).
    """

    def __init__(
        self,
        api_url: str,
        token: str | TokenSource,
        transport: httpx.AsyncBaseTransport | None = None,
        secrets: SecretFinder | None = None,
    ) -> None:
        headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
        source = StaticToken(token) if isinstance(token, str) else token
        auth = GitHubAuth(source, api_url)
        super().__init__(
            build_http_client(api_url, headers, auth=auth, transport=transport, secrets=secrets)
        )

    async def _request(self, method: str, path: str, **kwargs: Any) -> Any:
        response = await self._http.request(method, path, **kwargs)
        raise_for_status(SERVICE, response)
        return response.json()

    async def get_repository(self, repository: str) -> Repository:
        """A repository by "owner/name"."""
        return Repository.model_validate(await self._request("GET", f"/repos/{repository}"))

    async def find_open_pull_request(self, repository: str, head: str) -> PullRequest | None:
        """The open pull request from a branch ("branch" or "owner:branch"), if any."""
        if ":" not in head:
            head = f"{repository.split('/')[0]}:{head}"
        params = {"state": "open", "head": head}
        pulls = await self._request("GET", f"/repos/{repository}/pulls", params=params)
        return _pull_request(pulls[0]) if pulls else None

    async def create_pull_request(
        self, repository: str, title: str, body: str, head: str, base: str, draft: bool = False
    ) -> PullRequest:
        """Open a pull request, or return the one already open for `head` (retries are safe)."""
        if existing := await self.find_open_pull_request(repository, head):
            return existing
        payload = {"title": title, "body": body, "head": head, "base": base, "draft": draft}
        try:
            return _pull_request(
                await self._request("POST", f"/repos/{repository}/pulls", json=payload)
            )
        except ApplicationError as err:
            if err.type != f"{SERVICE}ValidationFailed":
                raise
            # Opened by a concurrent attempt between the lookup and the create.
            if "already exists" in err.message:
                if existing := await self.find_open_pull_request(repository, head):
                    return existing
            # Plans without draft pull requests: an ordinary one that says it is a draft.
            if draft and re.search(r"draft pull requests are not supported", err.message, re.I):
                return await self.create_pull_request(
                    repository, f"{DRAFT_PREFIX}{title}", body, head, base, draft=False
                )
            raise

    async def update_pull_request_body(
        self, repository: str, number: int, body: str
    ) -> PullRequest:
        """Replace a pull request's description (safe to retry)."""
        path = f"/repos/{repository}/pulls/{number}"
        return _pull_request(await self._request("PATCH", path, json={"body": body}))

    async def get_pull_request(self, repository: str, number: int) -> PullRequest:
        """A pull request by number."""
        return _pull_request(await self._request("GET", f"/repos/{repository}/pulls/{number}"))

    async def comment_on_pull_request(
        self, repository: str, number: int, body: str
    ) -> IssueComment:
        """Add a comment to a pull request's conversation."""
        path = f"/repos/{repository}/issues/{number}/comments"
        raw = await self._request("POST", path, json={"body": body})
        return IssueComment(id=raw["id"], url=raw["html_url"], body=raw["body"])

    async def add_labels(self, repository: str, number: int, labels: list[str]) -> list[str]:
        """Add labels to a pull request (or issue); returns every label it now has."""
        path = f"/repos/{repository}/issues/{number}/labels"
        raw = await self._request("POST", path, json={"labels": labels})
        return [label["name"] for label in raw]
