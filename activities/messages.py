"""Typed inputs and results of every activity (one pair each, so fields can be added safely)."""

from datetime import datetime

from pydantic import BaseModel, Field

from activities.secret_findings import SecretFinding
from graphs.schemas import (
    Analysis,
    FileChange,
    Plan,
    Question,
    Requirements,
    TicketContext,
)


class FetchTicketInput(BaseModel):
    """Read one Jira issue."""

    key: str


class PostCommentInput(BaseModel):
    """Post one Jira comment; `marker` makes a retried post land once."""

    key: str
    body: str
    marker: str


class PostCommentResult(BaseModel):
    """The comment that now carries the marker."""

    comment_id: str
    already_posted: bool = False


class ApproverLookupInput(BaseModel):
    """What Jira knows of a plan's approver: is it the reporter, which of these groups."""

    key: str
    author_ids: list[str]
    groups: list[str] = Field(default_factory=list)


class ApproverFacts(BaseModel):
    """The author is the issue's reporter; the asked groups the author belongs to."""

    is_reporter: bool
    member_of: list[str] = Field(default_factory=list)


class TransitionInput(BaseModel):
    """Move a ticket's issue to a status by name; `done` when the ticket's work is done (a
    GitHub issue, which has no statuses, is then closed)."""

    key: str
    status: str
    done: bool = False


class TransitionResult(BaseModel):
    """Whether the issue moved (False when it already was there)."""

    moved: bool


class DiscordNoticeInput(BaseModel):
    """A notice to the project's Discord channel; the webhook URL stays on the worker."""

    jira_project: str
    content: str


class DiscordNoticeResult(BaseModel):
    """Whether a notice was sent (False when the project has no Discord webhook)."""

    sent: bool


class RepoRef(BaseModel):
    """A ticket branch of a repository; the clone URL carries no credentials."""

    workflow_id: str
    repository: str
    clone_url: str
    branch: str
    base_branch: str


class PrepareRepositoryInput(BaseModel):
    """Create the ticket branch (named from key and summary) unless it exists.

    `from_base` (a restart): the branch starts again from the base branch's current head.
    """

    repo: RepoRef
    key: str
    summary: str
    from_base: bool = False


class PrepareRepositoryResult(BaseModel):
    """The ticket branch is on the remote, at this commit."""

    branch: str
    head_sha: str


class CommitFilesInput(BaseModel):
    """Write files on the ticket branch, commit and push (a no-op when nothing changes).

    `approved_secrets`: what an approver let through the scan (never the worker's own values).
    """

    repo: RepoRef
    files: list[FileChange]
    message: str
    approved_secrets: list[SecretFinding] = Field(default_factory=list)


class CommitFilesResult(BaseModel):
    """The branch head after the commit."""

    sha: str
    changed: bool


class RunTestsInput(BaseModel):
    """Run the project's test command on the branch with these changes applied."""

    repo: RepoRef
    changes: list[FileChange] = Field(default_factory=list)
    test_command: str
    timeout_seconds: float = 600
    setup_command: str | None = None


class RunTestsResult(BaseModel):
    """What the test command did, in which environment, and whether a sandbox limit stopped it."""

    passed: bool
    exit_code: int
    output: str
    timed_out: bool = False
    duration_seconds: float = 0
    environment: str = ""
    environment_error: str | None = None
    limit: str | None = None
    sandboxed: bool = False


class OpenPullRequestInput(BaseModel):
    """Open (or find the already open) pull request for the ticket branch."""

    repository: str
    head: str
    base: str
    title: str
    body: str
    draft: bool = False


class OpenPullRequestResult(BaseModel):
    """The pull request on the forge."""

    number: int
    url: str
    draft: bool


class AnalyseInput(BaseModel):
    """Analyse the repository at the ticket branch."""

    repo: RepoRef
    ticket: TicketContext


class QuestionsInput(BaseModel):
    """Ask what the ticket leaves open."""

    ticket: TicketContext
    analysis: Analysis


class RequirementsInput(BaseModel):
    """Turn the ticket and the answers into requirements."""

    ticket: TicketContext
    analysis: Analysis
    questions: list[Question] = Field(default_factory=list)
    answers: list[str] = Field(default_factory=list)
    allow_followup: bool = True


class PlanInput(BaseModel):
    """Plan version `version`, addressing every rejection reason so far."""

    ticket: TicketContext
    analysis: Analysis
    requirements: Requirements | None = None
    feedback: list[str] = Field(default_factory=list)
    version: int = 1
    previous: Plan | None = None
    repo: RepoRef | None = None


class ImplementInput(BaseModel):
    """Implement the approved plan on the ticket branch."""

    repo: RepoRef
    ticket: TicketContext
    plan: Plan
    requirements: Requirements | None = None
    analysis: Analysis | None = None
    test_command: str | None = None
    setup_command: str | None = None
    test_timeout_seconds: float = 600
    max_revisions: int = 15
    run_checks: bool = True  # the check commands the repository's instructions name
    # When the ticket's time for work runs out: no revision starts that would end later.
    finish_by: datetime | None = None
