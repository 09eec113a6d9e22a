"""GitHub activities: open the ticket's pull request exactly once."""

from temporalio import activity

from activities.messages import OpenPullRequestInput, OpenPullRequestResult
from integrations.github import GitHubClient


class GitHubActivities:
    """Activities around one GitHub client built by the worker."""

    def __init__(self, github: GitHubClient) -> None:
        self._github = github

    @activity.defn
    async def open_pull_request(self, inp: OpenPullRequestInput) -> OpenPullRequestResult:
        """Open the pull request, or bring the one open for the branch up to date."""
        if existing := await self._github.find_open_pull_request(inp.repository, inp.head):
            # A restarted ticket's pull request describes the new run, not the old one.
            pr = await self._github.update_pull_request_body(
                inp.repository, existing.number, inp.body
            )
            return OpenPullRequestResult(number=pr.number, url=pr.url, draft=pr.draft)
        pr = await self._github.create_pull_request(
            inp.repository, inp.title, inp.body, inp.head, inp.base, draft=inp.draft
        )
        return OpenPullRequestResult(number=pr.number, url=pr.url, draft=pr.draft)
