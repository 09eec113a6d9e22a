"""GitHub activities: open the ticket's pull request exactly once."""

from temporalio import activity

from activities.messages import OpenPullRequestInput, OpenPullRequestResult
from integrations.github.client import GitHubClient

# Said once per new run: a retry finds the description already updated and says nothing.
UPDATED = (
    "ticketsmith worked on this ticket again from the base branch's current head; the "
    "description above now describes that run."
)


class GitHubActivities:
    """Activities around one GitHub client built by the worker."""

    def __init__(self, github: GitHubClient) -> None:
        self._github = github

    @activity.defn
    async def open_pull_request(self, inp: OpenPullRequestInput) -> OpenPullRequestResult:
        """Open the pull request, or bring the one open for the branch up to date."""
        if existing := await self._github.find_open_pull_request(inp.repository, inp.head):
            if existing.body == inp.body:  # opened by this run (a retry), or nothing changed
                return OpenPullRequestResult(
                    number=existing.number, url=existing.url, draft=existing.draft
                )
            # A restarted ticket's pull request describes the new run, not the old one.
            pr = await self._github.update_pull_request_body(
                inp.repository, existing.number, inp.body
            )
            await self._github.comment_on_pull_request(inp.repository, pr.number, UPDATED)
            return OpenPullRequestResult(number=pr.number, url=pr.url, draft=pr.draft)
        pr = await self._github.create_pull_request(
            inp.repository, inp.title, inp.body, inp.head, inp.base, draft=inp.draft
        )
        return OpenPullRequestResult(number=pr.number, url=pr.url, draft=pr.draft)
