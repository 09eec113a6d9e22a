"""Typed inputs and results of the review phase's activities."""

from pydantic import BaseModel, Field

from activities.messages import RepoRef
from graphs.review.comment_scope import InlineComment
from graphs.schemas import TicketContext
from integrations.github.ci_failures import CiVerdict
from llm.cost import ModelCost

__all__ = ["CiVerdict", "InlineComment"]


class ReadCiFailureInput(BaseModel):
    """What failed on a commit: a check run, an Actions run, or a commit status."""

    repository: str
    name: str
    check_run_id: int | None = None
    workflow_run_id: int | None = None
    pipeline_id: int | None = None  # a GitLab pipeline
    details_url: str | None = None
    description: str = ""


class FailedJob(BaseModel):
    """An Actions job behind a CI failure, and the verdict on its log."""

    id: int
    name: str
    run_id: int
    verdict: CiVerdict


class CiFailureReport(BaseModel):
    """The failure as text (check output, annotations, job log tail): untrusted; and what CI
    said of it, classified before any model call."""

    text: str
    verdict: CiVerdict | None = None  # None: nothing to tell it by (a suite, a status)
    jobs: list[FailedJob] = Field(default_factory=list)  # the Actions jobs a rerun would run
    # Its run went on (rerun since, passed, or still running): the run's own report counts.
    superseded: bool = False


class RerunJobInput(BaseModel):
    """Run one failed CI job (Actions or GitLab) of the pull request's head commit again."""

    repository: str
    job_id: int
    head_sha: str


class RerunJobResult(BaseModel):
    """Whether a rerun of the job is under way; `already`: it was asked for before this call
    (a retry whose first try got through, or a person); `refused`: GitHub's reason for not
    rerunning it (a token without `actions: write`, a job too old)."""

    requested: bool
    already: bool = False
    refused: str = ""


class PullRequestCommentInput(BaseModel):
    """Post one comment on the pull request; `marker` makes a retried post land once."""

    repository: str
    number: int
    body: str
    marker: str


class ReviewReplyInput(BaseModel):
    """Reply once in the thread of an inline comment."""

    repository: str
    number: int
    comment_id: int
    body: str
    marker: str
    discussion_id: str | None = None  # GitLab: the discussion a reply goes to


class PostedComment(BaseModel):
    """The comment that carries the marker."""

    comment_id: int
    already_posted: bool = False


class ReviseInput(BaseModel):
    """Revise the pull request's branch so the feedback is addressed (one round)."""

    repo: RepoRef
    ticket: TicketContext
    kind: str  # ci | review
    feedback: str  # untrusted text from the pull request, quoted as data in prompts
    paths: list[str] = Field(default_factory=list)
    test_command: str | None = None
    setup_command: str | None = None
    max_revisions: int = 3
    run_checks: bool = True  # the check commands the repository's instructions name
    # A review round's inline comments: changes to definitions none is about are put back.
    comments: list[InlineComment] = Field(default_factory=list)


class UpdateFromBaseInput(BaseModel):
    """Merge the base branch into the pull request's branch when they conflict."""

    repo: RepoRef
    key: str
    test_command: str | None = None
    setup_command: str | None = None


class UpdateFromBaseResult(BaseModel):
    """What the merge did: nothing needed, merged (resolving files), or stopped on conflicts."""

    merged: bool
    sha: str | None = None
    resolved: list[str] = Field(default_factory=list)
    unresolved: list[str] = Field(default_factory=list)
    tests_passed: bool | None = None
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)
