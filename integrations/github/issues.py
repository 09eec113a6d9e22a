"""GitHub Issues as a tracker: a ticket's issue, its comments, its reporter and approver teams."""

from collections.abc import Callable
from typing import Any

import httpx
from pydantic import BaseModel
from temporalio.exceptions import ApplicationError

from integrations.github.auth import TokenSource
from integrations.github.client import SERVICE, GitHubClient
from integrations.security.secrets import SecretFinder

# A ticket key to the repository ("owner/name") and number of its issue.
IssueLocator = Callable[[str], tuple[str, int]]
PAGE_SIZE = 100


class TrackedIssue(BaseModel):
    """The parts of a ticket's issue ticketsmith works from; the description as markdown."""

    key: str
    summary: str
    description: str
    labels: list[str]
    reporter: str
    state: str
    acceptance_criteria: str = ""


class TrackedComment(BaseModel):
    """One comment on a ticket's issue, its body as written (GitHub-flavoured Markdown)."""

    id: str
    author_id: str
    body: str


class GitHubIssues(GitHubClient):
    """The tracker operations on the GitHub issue each ticket key names."""

    def __init__(
        self,
        api_url: str,
        token: str | TokenSource,
        locate: IssueLocator,
        transport: httpx.AsyncBaseTransport | None = None,
        secrets: SecretFinder | None = None,
    ) -> None:
        super().__init__(api_url, token, transport, secrets)
        self._locate = locate

    def marked(self, markdown: str, marker: str) -> str:
        """A comment with its marker as an HTML comment: GitHub renders it as nothing."""
        return f"{markdown}\n\n<!-- {marker} -->"

    async def _issue_json(self, key: str) -> dict[str, Any]:
        repository, number = self._locate(key)
        raw: dict[str, Any] = await self._request("GET", f"/repos/{repository}/issues/{number}")
        if raw.get("pull_request"):
            raise ApplicationError(
                f"{repository}#{number} is a pull request, not an issue: {key} names an issue",
                type=f"{SERVICE}NotFound",
                non_retryable=True,
            )
        return raw

    async def get_issue(self, key: str) -> TrackedIssue:
        """The ticket's issue: title, body, labels and who opened it."""
        raw = await self._issue_json(key)
        labels = [str(label["name"]) for label in raw.get("labels") or [] if label.get("name")]
        return TrackedIssue(
            key=key,
            summary=str(raw.get("title") or key),
            description=str(raw.get("body") or ""),
            labels=labels,
            reporter=str((raw.get("user") or {}).get("login") or ""),
            state=str(raw.get("state") or "open"),
        )

    async def list_comments(self, key: str) -> list[TrackedComment]:
        """Every comment of the issue, oldest first, across pages."""
        repository, number = self._locate(key)
        comments: list[TrackedComment] = []
        page = 1
        while True:
            params = {"per_page": PAGE_SIZE, "page": page}
            path = f"/repos/{repository}/issues/{number}/comments"
            batch = await self._request("GET", path, params=params)
            comments += [_comment(raw) for raw in batch]
            if len(batch) < PAGE_SIZE:
                return comments
            page += 1

    async def add_comment(self, key: str, markdown: str) -> TrackedComment:
        """Post a comment in GitHub-flavoured Markdown."""
        repository, number = self._locate(key)
        path = f"/repos/{repository}/issues/{number}/comments"
        return _comment(await self._request("POST", path, json={"body": markdown}))

    async def reporter_ids(self, key: str) -> list[str]:
        """The login of whoever opened the issue."""
        reporter = (await self.get_issue(key)).reporter
        return [reporter] if reporter else []

    async def member_of(self, key: str, login: str, teams: list[str]) -> list[str]:
        """The teams (`org/slug`, or `slug` of the issue repository's owner) `login` is an
        active member of."""
        owner = self._locate(key)[0].split("/", 1)[0]
        found = []
        for team in teams:
            org, _, slug = team.rpartition("/")
            path = f"/orgs/{org or owner}/teams/{slug}/memberships/{login}"
            try:
                membership = await self._request("GET", path)
            except ApplicationError as err:
                if err.type == f"{SERVICE}NotFound":
                    continue
                raise
            if membership.get("state") == "active":
                found.append(team)
        return found

    async def transition_to(self, key: str, status: str, done: bool = False) -> bool:
        """An issue has no statuses: it is closed as completed when the work is `done` (the
        merge's `Fixes #n` closes it only on the default branch) and is left as it is
        otherwise; False when nothing changed."""
        if not done:
            return False
        repository, number = self._locate(key)
        if (await self._issue_json(key)).get("state") == "closed":
            return False
        changes = {"state": "closed", "state_reason": "completed"}
        await self._request("PATCH", f"/repos/{repository}/issues/{number}", json=changes)
        return True


def _comment(raw: dict[str, Any]) -> TrackedComment:
    author = str((raw.get("user") or {}).get("login") or "")
    return TrackedComment(id=str(raw["id"]), author_id=author, body=str(raw.get("body") or ""))
