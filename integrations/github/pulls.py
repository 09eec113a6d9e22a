"""GitHub REST calls of the review phase: checks, comments, replies, merge and close (and,
through `ActionsClient`, Actions runs, jobs and logs)."""

from typing import Any

from pydantic import BaseModel, Field

from integrations.github.actions import ActionsClient
from integrations.github.client import IssueComment


class PullRequestState(BaseModel):
    """Where a pull request stands: open, merged or closed, and whether it can merge."""

    number: int
    url: str
    state: str
    merged: bool
    mergeable: bool | None
    head: str
    head_sha: str
    base: str


class ReviewCommentRef(BaseModel):
    """A comment on a line of the diff."""

    id: int
    body: str
    in_reply_to_id: int | None = None


class CheckRunFacts(BaseModel):
    """What a check run says of itself; `text` is its output and annotations, untrusted."""

    name: str
    conclusion: str | None
    app: str  # the slug of the app that made it: `github-actions` for an Actions job's
    text: str
    annotations: list[str] = Field(default_factory=list)


class PullRequestClient(ActionsClient):
    """The GitHub client with what following a pull request needs."""

    async def pull_request_state(self, repository: str, number: int) -> PullRequestState:
        """A pull request's state, merge state and head commit."""
        raw = await self._request("GET", f"/repos/{repository}/pulls/{number}")
        return PullRequestState(
            number=raw["number"],
            url=raw["html_url"],
            state=raw["state"],
            merged=bool(raw.get("merged")),
            mergeable=raw.get("mergeable"),
            head=raw["head"]["ref"],
            head_sha=raw["head"]["sha"],
            base=raw["base"]["ref"],
        )

    async def list_issue_comments(self, repository: str, number: int) -> list[IssueComment]:
        """The pull request's conversation comments (first 100)."""
        path = f"/repos/{repository}/issues/{number}/comments"
        raw = await self._request("GET", path, params={"per_page": 100})
        return [IssueComment(id=c["id"], url=c["html_url"], body=c["body"] or "") for c in raw]

    async def list_review_comments(self, repository: str, number: int) -> list[ReviewCommentRef]:
        """The comments on the diff's lines (first 100)."""
        path = f"/repos/{repository}/pulls/{number}/comments"
        raw = await self._request("GET", path, params={"per_page": 100})
        return [
            ReviewCommentRef(
                id=c["id"], body=c["body"] or "", in_reply_to_id=c.get("in_reply_to_id")
            )
            for c in raw
        ]

    async def reply_to_review_comment(
        self, repository: str, number: int, comment_id: int, body: str
    ) -> ReviewCommentRef:
        """Reply in the thread of a comment on the diff."""
        path = f"/repos/{repository}/pulls/{number}/comments/{comment_id}/replies"
        raw = await self._request("POST", path, json={"body": body})
        return ReviewCommentRef(id=raw["id"], body=raw["body"], in_reply_to_id=comment_id)

    async def check_run(self, repository: str, check_run_id: int) -> CheckRunFacts:
        """A check run: its conclusion, app, output (title, summary, text) and annotations."""
        run = await self._request("GET", f"/repos/{repository}/check-runs/{check_run_id}")
        output = run.get("output") or {}
        parts = [f"Check `{run.get('name')}` concluded {run.get('conclusion')}."]
        parts += [str(output[k]) for k in ("title", "summary", "text") if output.get(k)]
        notes = []
        if output.get("annotations_count"):
            path = f"/repos/{repository}/check-runs/{check_run_id}/annotations"
            for note in await self._request("GET", path):
                where = f"{note.get('path')}:{note.get('start_line')}"
                notes.append(f"{where}: {note.get('annotation_level')}: {note.get('message')}")
        return CheckRunFacts(
            name=str(run.get("name")), conclusion=run.get("conclusion"),
            app=str((run.get("app") or {}).get("slug") or ""),
            text="\n\n".join(parts + notes), annotations=notes,
        )  # fmt: skip

    async def merge_pull_request(self, repository: str, number: int, method: str = "merge") -> str:
        """Merge a pull request; returns the merge commit's sha."""
        path = f"/repos/{repository}/pulls/{number}/merge"
        raw = await self._request("PUT", path, json={"merge_method": method})
        return str(raw["sha"])

    async def close_pull_request(self, repository: str, number: int) -> PullRequestState:
        """Close a pull request without merging it."""
        path = f"/repos/{repository}/pulls/{number}"
        await self._request("PATCH", path, json={"state": "closed"})
        return await self.pull_request_state(repository, number)

    async def find_pull_request(self, repository: str, head: str) -> PullRequestState | None:
        """The newest pull request from a branch, open or closed."""
        owner = repository.split("/")[0]
        params = {"state": "all", "head": f"{owner}:{head}"}
        pulls: list[dict[str, Any]] = await self._request(
            "GET", f"/repos/{repository}/pulls", params=params
        )
        return await self.pull_request_state(repository, pulls[0]["number"]) if pulls else None
