"""Tracker activities: read the ticket, post idempotent comments, move the issue, look up an
approver, on the tracker the ticket's project names (Jira or GitHub Issues)."""

from collections.abc import Callable, Sequence
from typing import Protocol

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
from integrations.jira.criteria_section import split_criteria


class TrackedIssue(Protocol):
    key: str
    summary: str
    description: str
    labels: list[str]
    acceptance_criteria: str


class TrackedComment(Protocol):
    id: str
    body: str


class IssueTracker(Protocol):
    """What the ticket workflow asks of a tracker (`JiraClient`, `GitHubIssues`)."""

    def marked(self, markdown: str, marker: str) -> str: ...
    async def get_issue(self, key: str) -> TrackedIssue: ...
    async def list_comments(self, key: str) -> Sequence[TrackedComment]: ...
    async def add_comment(self, key: str, markdown: str) -> TrackedComment: ...
    async def reporter_ids(self, key: str) -> list[str]: ...
    async def member_of(self, key: str, user_id: str, groups: list[str]) -> list[str]: ...
    async def transition_to(self, key: str, status: str, done: bool = False) -> bool: ...


def marker_line(marker: str) -> str:
    """The footer that identifies a comment, so a retried post is recognised."""
    return f"ticketsmith ref: {marker}"


class TrackerActivities:
    """Activities around the worker's trackers; `tracker_for` picks a ticket key's tracker."""

    def __init__(self, tracker_for: Callable[[str], IssueTracker]) -> None:
        self._tracker_for = tracker_for

    # The activity names are those of recorded histories, from when Jira was the only tracker.
    @activity.defn(name="fetch_jira_ticket")
    async def fetch_ticket(self, inp: FetchTicketInput) -> TicketContext:
        """Read the issue the workflow works on.

        Criteria written as a section of the description, when the criteria field is empty,
        become the ticket's acceptance criteria.
        """
        issue = await self._tracker_for(inp.key).get_issue(inp.key)
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

    @activity.defn(name="post_jira_comment")
    async def post_comment(self, inp: PostCommentInput) -> PostCommentResult:
        """Post a comment once: an attempt after a lost response finds the first one."""
        tracker = self._tracker_for(inp.key)
        line = marker_line(inp.marker)
        for comment in await tracker.list_comments(inp.key):
            if line in comment.body:
                activity.logger.info("comment %s already posted", inp.marker)
                return PostCommentResult(comment_id=comment.id, already_posted=True)
        comment = await tracker.add_comment(inp.key, tracker.marked(inp.body, line))
        return PostCommentResult(comment_id=comment.id)

    @activity.defn
    async def look_up_approver(self, inp: ApproverLookupInput) -> ApproverFacts:
        """Whether a verdict's author reported the issue, and which asked groups they are in."""
        tracker = self._tracker_for(inp.key)
        reporter = set(await tracker.reporter_ids(inp.key))
        member_of: list[str] = []
        if inp.groups and inp.author_ids:
            member_of = await tracker.member_of(inp.key, inp.author_ids[0], inp.groups)
        return ApproverFacts(is_reporter=bool(reporter & set(inp.author_ids)), member_of=member_of)

    @activity.defn(name="transition_jira_issue")
    async def transition_issue(self, inp: TransitionInput) -> TransitionResult:
        """Move the issue to the named status (a no-op when it is there already, and on
        trackers without statuses)."""
        moved = await self._tracker_for(inp.key).transition_to(inp.key, inp.status, inp.done)
        return TransitionResult(moved=moved)
