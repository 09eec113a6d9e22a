"""Typed payloads of the review phase: pull-request events as signals, rounds, checks, and what
the status shows of the pull request."""

from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, Field


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

    source: str  # check_run | check_suite | workflow_run | status | pipeline
    name: str
    head_sha: str
    conclusion: str  # success, failure, timed_out, error, cancelled, ...
    check_run_id: int | None = None
    workflow_run_id: int | None = None
    pipeline_id: int | None = None  # a GitLab pipeline
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
    discussion_id: str | None = None  # GitLab: the discussion replies go to


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


class CheckState(BaseModel):
    """The last known conclusion of one check on the pull request's head."""

    name: str
    conclusion: str
    head_sha: str


class RoundRecord(BaseModel):
    """One round of work on the pull request."""

    number: int
    kind: str  # ci | review | base | rerun (of flaky CI jobs: no commit)
    trigger: str
    started_at: datetime
    commit: str | None = None
    files: list[str] = Field(default_factory=list)
    outcome: str = ""


class PullRequestView(BaseModel):
    """What the status query shows about the pull request."""

    number: int | None = None
    head_sha: str | None = None
    state: str = "open"
    checks: list[CheckState] = Field(default_factory=list)
    rounds: list[RoundRecord] = Field(default_factory=list)
    ci_rounds: int = 0
    review_rounds: int = 0
    ci_reruns: int = 0  # reruns of flaky CI jobs asked for, on every head
    waiting_for: str = ""
