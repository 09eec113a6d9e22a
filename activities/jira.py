"""Jira activities: read the ticket, post idempotent comments, move the issue, look up an
approver."""

from temporalio import activity

from activities.messages import (
    ApproverFacts,
    ApproverLookupInput,
    FetchTicketInput,
    PostCommentInput,
    PostCommentResult,
    TransitionInput,
    TransitionResult,
)
from graphs.schemas import TicketContext
from integrations.jira.client import JiraClient
from integrations.jira.criteria_section import split_criteria


def marker_line(marker: str) -> str:
    """The footer that identifies a comment, so a retried post is recognised."""
    return f"ticketsmith ref: {marker}"


class JiraActivities:
    """Activities around one Jira client built by the worker."""

    def __init__(self, jira: JiraClient) -> None:
        self._jira = jira

    @activity.defn
    async def fetch_jira_ticket(self, inp: FetchTicketInput) -> TicketContext:
        """Read the issue the workflow works on.

        Criteria written as a section of the description, when the criteria field is empty,
        become the ticket's acceptance criteria.
        """
        issue = await self._jira.get_issue(inp.key)
        description, criteria = issue.description, issue.acceptance_criteria.strip()
        if not criteria:
            description, criteria = split_criteria(description)
        return TicketContext(
            key=issue.key,
            summary=issue.summary,
            description=description,
            labels=list(issue.labels),
            acceptance_criteria=criteria or None,
        )

    @activity.defn
    async def post_jira_comment(self, inp: PostCommentInput) -> PostCommentResult:
        """Post a comment once: an attempt after a lost response finds the first one."""
        line = marker_line(inp.marker)
        for comment in await self._jira.list_comments(inp.key):
            if line in comment.body:
                activity.logger.info("comment %s already posted", inp.marker)
                return PostCommentResult(comment_id=comment.id, already_posted=True)
        comment = await self._jira.add_comment(inp.key, f"{inp.body}\n\n_{line}_")
        return PostCommentResult(comment_id=comment.id)

    @activity.defn
    async def look_up_approver(self, inp: ApproverLookupInput) -> ApproverFacts:
        """Whether a verdict's author reported the issue, and which asked groups they are in."""
        reporter = set(await self._jira.reporter_ids(inp.key))
        member_of: list[str] = []
        if inp.groups and inp.author_ids:
            theirs = {g.casefold() for g in await self._jira.user_groups(inp.author_ids[0])}
            member_of = [g for g in inp.groups if g.casefold() in theirs]
        return ApproverFacts(is_reporter=bool(reporter & set(inp.author_ids)), member_of=member_of)

    @activity.defn
    async def transition_jira_issue(self, inp: TransitionInput) -> TransitionResult:
        """Move the issue to the named status (a no-op when it is there already)."""
        return TransitionResult(moved=await self._jira.transition_to(inp.key, inp.status))
