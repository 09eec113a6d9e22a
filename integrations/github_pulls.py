"""GitHub REST calls of the review phase: checks, CI logs, comments, replies, merge and close."""

from typing import Any

from pydantic import BaseModel

from integrations.github import SERVICE, GitHubClient, IssueComment
from integrations.job_logs import download_log, failure_excerpt

FAILED_STEP = ("failure", "timed_out")


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


class PullRequestClient(GitHubClient):
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

    async def check_run_report(self, repository: str, check_run_id: int) -> str:
        """A check run's output (title, summary, text) and its annotations, as text."""
        run = await self._request("GET", f"/repos/{repository}/check-runs/{check_run_id}")
        output = run.get("output") or {}
        parts = [f"Check `{run.get('name')}` concluded {run.get('conclusion')}."]
        parts += [str(output[k]) for k in ("title", "summary", "text") if output.get(k)]
        if output.get("annotations_count"):
            path = f"/repos/{repository}/check-runs/{check_run_id}/annotations"
            for note in await self._request("GET", path):
                where = f"{note.get('path')}:{note.get('start_line')}"
                parts.append(f"{where}: {note.get('annotation_level')}: {note.get('message')}")
        return "\n\n".join(parts)

    async def workflow_run_report(self, repository: str, run_id: int) -> str:
        """The failed jobs of an Actions run (latest attempt), with the failure in each log."""
        path = f"/repos/{repository}/actions/runs/{run_id}/jobs"
        jobs = (await self._request("GET", path, params={"filter": "latest"}))["jobs"]
        parts = []
        for job in jobs:
            if job.get("conclusion") not in ("failure", "timed_out"):
                continue
            failed = [
                s["name"] for s in job.get("steps") or [] if s.get("conclusion") in FAILED_STEP
            ]
            parts.append(f"Job `{job['name']}` failed at: {', '.join(failed) or 'unknown step'}")
            excerpt = await self.job_log_excerpt(repository, job["id"])
            parts.append(f"Its log, up to the failure:\n{excerpt}")
        return "\n\n".join(parts) or f"Workflow run {run_id} failed; no failed job was found."

    async def job_log_excerpt(self, repository: str, job_id: int) -> str:
        """The lines of a job's log around its failure (read through the signed redirect)."""
        path = f"/repos/{repository}/actions/jobs/{job_id}/logs"
        response = await self._http.get(path, follow_redirects=False)
        return failure_excerpt(await download_log(self._http, SERVICE, response))

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
