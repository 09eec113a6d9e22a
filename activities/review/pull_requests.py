"""Pull-request activities: read what CI said, rerun a flaky job, comment and reply exactly
once, on GitHub or, for GitLab projects, on their merge request."""

from collections.abc import Callable

from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.review import merge_requests
from activities.review.ci_reports import moved_on, read_failure
from activities.review.messages import (
    CiFailureReport,
    PostedComment,
    PullRequestCommentInput,
    ReadCiFailureInput,
    RerunJobInput,
    RerunJobResult,
    ReviewReplyInput,
)
from activities.tracker import marker_line
from integrations.github.pulls import PullRequestClient
from integrations.gitlab.client import GitLabClient


class PullRequestActivities:
    """Activities around the GitHub client for following a pull request, and the GitLab one
    for the repositories `on_gitlab` says are GitLab projects."""

    def __init__(
        self,
        github: PullRequestClient,
        gitlab: GitLabClient | None = None,
        on_gitlab: Callable[[str], bool] = lambda _: False,
    ) -> None:
        self._github = github
        self._gitlab = gitlab
        self._on_gitlab = on_gitlab

    def _gitlab_for(self, repository: str) -> GitLabClient | None:
        return self._gitlab if self._gitlab is not None and self._on_gitlab(repository) else None

    @activity.defn
    async def read_ci_failure(self, inp: ReadCiFailureInput) -> CiFailureReport:
        """The failure's details: check output and annotations, or the failed jobs' logs;
        each Actions job behind it classified as a flake or the change's failure."""
        if gitlab := self._gitlab_for(inp.repository):
            return await merge_requests.read_pipeline_failure(gitlab, inp)
        return await read_failure(self._github, inp)

    @activity.defn
    async def rerun_ci_job(self, inp: RerunJobInput) -> RerunJobResult:
        """Run one failed Actions job again, once: a retry finds its rerun under way."""
        if gitlab := self._gitlab_for(inp.repository):
            return await merge_requests.retry_job(gitlab, inp)
        job = await self._github.actions_job(inp.repository, inp.job_id)
        if job.head_sha != inp.head_sha:
            return RerunJobResult(requested=False)  # not the commit the rerun was meant for
        if await moved_on(self._github, inp.repository, job):
            return RerunJobResult(requested=True, already=True)
        try:
            await self._github.rerun_job(inp.repository, inp.job_id)
        except ApplicationError as err:
            if err.type != "GitHubForbidden":
                raise
            details = err.details[0] if err.details and isinstance(err.details[0], dict) else {}
            return RerunJobResult(requested=False, refused=str(details.get("api_message", err)))
        return RerunJobResult(requested=True)

    @activity.defn
    async def comment_on_pull_request(self, inp: PullRequestCommentInput) -> PostedComment:
        """Comment on the conversation once: a retry finds the comment already there."""
        if gitlab := self._gitlab_for(inp.repository):
            return await merge_requests.note_once(gitlab, inp)
        line = marker_line(inp.marker)
        for comment in await self._github.list_issue_comments(inp.repository, inp.number):
            if line in comment.body:
                return PostedComment(comment_id=comment.id, already_posted=True)
        body = f"{inp.body}\n\n<sub>{line}</sub>"
        posted = await self._github.comment_on_pull_request(inp.repository, inp.number, body)
        return PostedComment(comment_id=posted.id)

    @activity.defn
    async def reply_to_review_comment(self, inp: ReviewReplyInput) -> PostedComment:
        """Reply in an inline comment's thread once."""
        if gitlab := self._gitlab_for(inp.repository):
            return await merge_requests.reply_once(gitlab, inp)
        line = marker_line(inp.marker)
        for comment in await self._github.list_review_comments(inp.repository, inp.number):
            if line in comment.body:
                return PostedComment(comment_id=comment.id, already_posted=True)
        body = f"{inp.body}\n\n<sub>{line}</sub>"
        reply = await self._github.reply_to_review_comment(
            inp.repository, inp.number, inp.comment_id, body
        )
        return PostedComment(comment_id=reply.id)
