"""Typed payloads of the review phase: pull-request events as signals, rounds, checks."""

from datetime import timedelta
from enum import StrEnum

from pydantic import BaseModel

from workflows.ticket.status_messages import CheckState, PullRequestView, RoundRecord

__all__ = ["CheckState", "PullRequestView", "RoundRecord"]


class ReviewPolicy(BaseModel):
    """How a ticket follows its pull request after opening it."""

    follow_pull_request: bool = True
    done_status: str = "Done"
    max_ci_fix_rounds: int = 3
    max_review_rounds: int = 5
    # Reruns of a flaky Actions job on one head commit before its failure goes to a fix round.
    ci_reruns_per_commit: int = 3
    expire_after: timedelta = timedelta(days=14)
    # How long to gather a review's deliveries or a CI run's checks into one round.
    batch_window: timedelta = timedelta(seconds=5)


class CheckInput(BaseModel):
    """A check run, check suite, workflow run or commit status that completed on a commit."""

    source: str  # check_run | check_suite | workflow_run | status
    name: str
    head_sha: str
    conclusion: str  # success, failure, timed_out, error, cancelled, ...
    check_run_id: int | None = None
    workflow_run_id: int | None = None
    details_url: str | None = None
    description: str = ""
    delivery_id: str | None = None
    unsigned: bool = False  # from a delivery without a checked signature


class CommentKind(StrEnum):
    """Where a comment was written."""

    INLINE = "inline"  # on a line of the diff: answered in its thread
    REVIEW = "review"  # the body of a submitted review
    CONVERSATION = "conversation"  # the pull request's conversation tab


class ReviewComment(BaseModel):
    """One comment from a person, as untrusted text."""

    id: int
    kind: CommentKind
    body: str
    author: str
    path: str | None = None
    line: int | None = None
    thread_id: int | None = None  # the thread's first comment, which replies go to


class ReviewFeedbackInput(BaseModel):
    """Review comments (a review, inline comments, or a conversation comment to the bot)."""

    comments: list[ReviewComment]
    state: str = "commented"  # changes_requested | commented | approved
    author: str = "unknown"
    trusted: bool = True  # False: the author may not start rounds; they get one reply
    delivery_id: str | None = None
    unsigned: bool = False  # from a delivery without a checked signature


class PullRequestChangeInput(BaseModel):
    """The pull request was closed, merged or pushed to."""

    action: str  # closed | synchronize | reopened | edited
    merged: bool = False
    head_sha: str | None = None
    before: str | None = None  # the head before a push (`synchronize`)
    sender: str = "unknown"
    delivery_id: str | None = None
    unsigned: bool = False  # from a delivery without a checked signature


class BaseMovedInput(BaseModel):
    """The pull request's base branch got new commits (a `push` to it)."""

    base: str
    sha: str
    delivery_id: str | None = None
    unsigned: bool = False  # from a delivery without a checked signature
