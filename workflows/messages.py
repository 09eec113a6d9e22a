"""Typed inputs, results and human-input payloads of the ticket workflow and its activities."""

from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, Field

from graphs.progress import ImplementationProgress
from graphs.schemas import (
    Analysis,
    FileChange,
    Implementation,
    Plan,
    Question,
    QuestionSet,
    Requirements,
    TicketContext,
)
from workflows.review_messages import PullRequestView, ReviewPolicy

__all__ = [
    "Analysis",
    "FileChange",
    "Implementation",
    "Plan",
    "Question",
    "QuestionSet",
    "Requirements",
    "ImplementationProgress",
    "TicketContext",
]


class Phase(StrEnum):
    """The three phases of a ticket, plus where it ends."""

    REFINEMENT = "refinement"
    PLANNING = "planning"
    IMPLEMENTATION = "implementation"
    REVIEW = "review"
    DONE = "done"


class Status(StrEnum):
    """What a ticket is doing right now."""

    RUNNING = "running"
    AWAITING_ANSWERS = "awaiting_answers"
    AWAITING_APPROVAL = "awaiting_approval"
    AWAITING_BUDGET = "awaiting_budget"
    AWAITING_REVIEW = "awaiting_review"
    COMPLETED = "completed"
    MERGED = "merged"
    CLOSED = "closed"
    FAILED = "failed"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class TicketProject(BaseModel):
    """The parts of a project's config a ticket run needs (no secrets)."""

    jira_project: str
    repository: str
    clone_url: str
    base_branch: str = "main"
    test_command: str = "python -m pytest -q"
    setup_command: str | None = None
    implement_after_approval: bool = False


class WaitPolicy(BaseModel):
    """How long to wait for people: remind every interval, up to a count; expire after a limit."""

    reminder_interval: timedelta = timedelta(hours=24)
    max_reminders: int = 3
    expire_after: timedelta = timedelta(days=7)


class TicketInput(BaseModel):
    """Start a ticket workflow."""

    key: str
    project: TicketProject
    max_plan_rejections: int = 5
    max_followup_rounds: int = 2
    auto: bool = False
    waits: WaitPolicy = Field(default_factory=WaitPolicy)
    token_budget: int | None = None
    agent_task_queue: str | None = None
    review: ReviewPolicy = Field(default_factory=ReviewPolicy)
    # Started again with --restart after an earlier run: the branch starts from the current base.
    restarted: bool = False
    # Started by a webhook delivery no signature vouched for (TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED).
    unsigned_start: bool = False


class ImplementationInput(BaseModel):
    """Implement an approved plan on the ticket branch and open the pull request."""

    key: str
    project: TicketProject
    branch: str
    ticket: TicketContext
    plan: Plan
    requirements: Requirements | None = None
    analysis: Analysis | None = None
    agent_task_queue: str | None = None


class ImplementationResult(BaseModel):
    """The pull request and what the tests said."""

    pr_url: str
    draft: bool
    tests_passed: bool
    tokens: int = 0
    pr_number: int | None = None
    head_sha: str | None = None
    tests_note: str = ""  # an environment that could not be built, a sandbox limit hit


class PhaseUsage(BaseModel):
    """Time and model tokens one phase took; `waiting_seconds` is time spent waiting on people."""

    phase: Phase
    started_at: datetime
    ended_at: datetime | None = None
    tokens: int = 0
    waiting_seconds: float = 0.0
    waiting_since: datetime | None = None  # set while the phase waits on people


class TicketResult(BaseModel):
    """How a ticket ended."""

    key: str
    status: Status
    plan_version: int = 0
    branch: str | None = None
    pr_url: str | None = None
    pr_draft: bool | None = None
    tests_passed: bool | None = None
    message: str = ""
    usage: list[PhaseUsage] = Field(default_factory=list)
    pull_request: PullRequestView | None = None
    # The status query's last answer: a closed ticket's status is read from here, no replay.
    final_status: "TicketStatus | None" = None

    def as_status(self) -> "TicketStatus":
        """The ended ticket's status: its last recorded answer, else what the result says."""
        if self.final_status is not None:
            return self.final_status
        return TicketStatus(
            key=self.key, phase=Phase.DONE, status=self.status, plan_version=self.plan_version,
            branch=self.branch, pr_url=self.pr_url, pr_draft=self.pr_draft,
            tests_passed=self.tests_passed, message=self.message, usage=self.usage,
        )  # fmt: skip


class AnswerInput(BaseModel):
    """Answers to the clarifying questions."""

    text: str
    author: str = "unknown"
    delivery_id: str | None = None
    unsigned: bool = False  # from a webhook delivery without a checked signature


class ApprovalInput(BaseModel):
    """Approval of the current plan."""

    author: str = "unknown"
    delivery_id: str | None = None
    unsigned: bool = False  # from a webhook delivery without a checked signature


class RejectionInput(BaseModel):
    """Rejection of the current plan, with the reason that guides the next one."""

    reason: str
    author: str = "unknown"
    delivery_id: str | None = None
    unsigned: bool = False  # from a webhook delivery without a checked signature


class BudgetInput(BaseModel):
    """More model tokens for a ticket."""

    tokens: int = Field(gt=0)
    author: str = "unknown"
    delivery_id: str | None = None
    unsigned: bool = False  # from a webhook delivery without a checked signature


class Decision(BaseModel):
    """One human input the workflow acted on."""

    kind: str
    author: str
    at: datetime
    text: str = ""
    unsigned: bool = False  # it came in a webhook delivery no signature vouched for


class HumanInputAccepted(BaseModel):
    """What an update returns when the workflow took the input."""

    accepted: bool = True
    message: str


class TicketStatus(BaseModel):
    """The status query's answer."""

    key: str
    phase: Phase
    status: Status
    questions: list[Question] = Field(default_factory=list)
    # Which round of questions is open (1: the first; follow-ups may repeat a question).
    question_round: int = 0
    answers: list[str] = Field(default_factory=list)
    plan_version: int = 0
    plan_markdown: str | None = None
    branch: str | None = None
    pr_url: str | None = None
    pr_draft: bool | None = None
    tests_passed: bool | None = None
    tests_note: str = ""
    decisions: list[Decision] = Field(default_factory=list)
    # Webhook deliveries (signals, the start) the ticket took without a checked signature.
    unsigned_deliveries: int = 0
    tokens: int = 0
    token_budget: int | None = None
    message: str = ""
    usage: list[PhaseUsage] = Field(default_factory=list)
    pull_request: PullRequestView | None = None
    step: str | None = None
    step_started_at: datetime | None = None
    implementation: ImplementationProgress | None = None
