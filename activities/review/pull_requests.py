"""Pull-request activities: read what CI said, comment and reply exactly once."""

from temporalio import activity

from activities.jira import marker_line
from activities.review.messages import (
    CiFailureReport,
    PostedComment,
    PullRequestCommentInput,
    ReadCiFailureInput,
    ReviewReplyInput,
)
from integrations.github_pulls import PullRequestClient

REPORT_LIMIT = 8_000


class PullRequestActivities:
    """Activities around the GitHub client for following a pull request."""

    def __init__(self, github: PullRequestClient) -> None:
        self._github = github

    @activity.defn
    async def read_ci_failure(self, inp: ReadCiFailureInput) -> CiFailureReport:
        """The failure's details: check output and annotations, or the failed job's log."""
        parts = [f"`{inp.name}` failed." + (f" {inp.description}" if inp.description else "")]
        if inp.check_run_id is not None:
            parts.append(await self._github.check_run_report(inp.repository, inp.check_run_id))
        if inp.workflow_run_id is not None:
            parts.append(
                await self._github.workflow_run_report(inp.repository, inp.workflow_run_id)
            )
        if inp.details_url:
            parts.append(f"Details: {inp.details_url}")
        text = "\n\n".join(parts)
        return CiFailureReport(text=text[-REPORT_LIMIT:])

    @activity.defn
    async def comment_on_pull_request(self, inp: PullRequestCommentInput) -> PostedComment:
        """Comment on the conversation once: a retry finds the comment already there."""
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
        line = marker_line(inp.marker)
        for comment in await self._github.list_review_comments(inp.repository, inp.number):
            if line in comment.body:
                return PostedComment(comment_id=comment.id, already_posted=True)
        body = f"{inp.body}\n\n<sub>{line}</sub>"
        reply = await self._github.reply_to_review_comment(
            inp.repository, inp.number, inp.comment_id, body
        )
        return PostedComment(comment_id=reply.id)
