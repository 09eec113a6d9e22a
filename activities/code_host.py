"""Code host activities: open the ticket's pull request (GitHub) or merge request (GitLab)
exactly once."""

from collections.abc import Callable

from temporalio import activity

from activities.messages import OpenPullRequestInput, OpenPullRequestResult
from integrations.github.client import GitHubClient
from integrations.gitlab.client import GitLabClient

# Said once per new run: a retry finds the description already updated and says nothing.
UPDATED = (
    "ticketsmith worked on this ticket again from the base branch's current head; the "
    "description above now describes that run."
)


class CodeHostActivities:
    """Activities around the worker's GitHub and GitLab clients; `on_gitlab` says which
    repositories are GitLab projects."""

    def __init__(
        self,
        github: GitHubClient,
        gitlab: GitLabClient | None = None,
        on_gitlab: Callable[[str], bool] = lambda _: False,
    ) -> None:
        self._github = github
        self._gitlab = gitlab
        self._on_gitlab = on_gitlab

    @activity.defn
    async def open_pull_request(self, inp: OpenPullRequestInput) -> OpenPullRequestResult:
        """Open the pull request, or bring the one open for the branch up to date."""
        if self._gitlab is not None and self._on_gitlab(inp.repository):
            return await self._open_merge_request(self._gitlab, inp)
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

    async def _open_merge_request(
        self, gitlab: GitLabClient, inp: OpenPullRequestInput
    ) -> OpenPullRequestResult:
        """The same on GitLab: a draft is a `Draft:` title, the number the project's iid."""
        if existing := await gitlab.find_open_merge_request(inp.repository, inp.head):
            if existing.description != inp.body:
                existing = await gitlab.update_description(inp.repository, existing.iid, inp.body)
                await gitlab.add_note(inp.repository, existing.iid, UPDATED)
            return OpenPullRequestResult(
                number=existing.iid, url=existing.url, draft=existing.draft
            )
        mr = await gitlab.create_merge_request(
            inp.repository, inp.title, inp.body, inp.head, inp.base, draft=inp.draft
        )
        return OpenPullRequestResult(number=mr.iid, url=mr.url, draft=mr.draft)
