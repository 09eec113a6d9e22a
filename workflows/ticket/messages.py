"""Typed inputs, results and human-input payloads of the ticket workflow and its activities."""

from datetime import datetime, timedelta

from pydantic import BaseModel, Field, model_validator

from activities.messages import SecretFinding
from graphs.cost import ModelCost
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
from workflows.review.messages import ReviewPolicy
from workflows.ticket.status_messages import (
    Decision,
    Guidance,
    Phase,
    PhaseUsage,
    Status,
    TicketResult,
    TicketStatus,
)

__all__ = [
    "Decision",
    "Guidance",
    "Phase",
    "PhaseUsage",
    "Status",
    "TicketResult",
    "TicketStatus",
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


class TicketProject(BaseModel):
    """The parts of a project's config a ticket run needs (no secrets)."""

    jira_project: str
    repository: str
    clone_url: str
    base_branch: str = "main"
    test_command: str = "python -m pytest -q"
    setup_command: str | None = None
    implement_after_approval: bool = False
    # Run the check commands the repository's instructions name (lint, type check) with the tests.
    instruction_checks: bool = True


class ApprovalPolicy(BaseModel):
    """Who may approve or reject a plan, and how many approvals it needs (the default: anyone,
    one approval)."""

    # Jira account ids or user names, and `group:NAME` for members of a Jira group.
    approvers: list[str] = Field(default_factory=list)
    required: int = Field(default=1, ge=1)
    reporter_may_approve: bool = True

    @property
    def open(self) -> bool:
        """True when anyone's verdict counts and one approval is enough."""
        return not self.approvers and self.reporter_may_approve and self.required == 1

    @property
    def people(self) -> list[str]:
        """The approvers named one by one."""
        return [a for a in self.approvers if not a.startswith("group:")]

    @property
    def groups(self) -> list[str]:
        """The Jira groups whose members may approve."""
        return [a.removeprefix("group:") for a in self.approvers if a.startswith("group:")]

    @property
    def needs_lookup(self) -> bool:
        """True when deciding needs Jira: a group to look up or a reporter to recognise."""
        return bool(self.groups) or not self.reporter_may_approve

    def describe(self) -> str:
        """Who may approve, for a reply on Jira."""
        who = [*self.people, *(f"members of the Jira group {g}" for g in self.groups)]
        text = ", ".join(who) if who else "anyone on the issue"
        if not self.reporter_may_approve:
            text += " (not the ticket's reporter)"
        if self.required > 1:
            text += f"; the plan needs {self.required} approvals"
        return text


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
    cost_cap: float | None = None  # dollars the model calls may cost before the ticket pauses
    # Minutes of work (waits for people aside) after which the implementation ends with its
    # best revision and the pull request opens.
    work_minutes: float | None = Field(default=None, gt=0)
    agent_task_queue: str | None = None
    review: ReviewPolicy = Field(default_factory=ReviewPolicy)
    # Started again with --restart after an earlier run: the branch starts from the current base.
    restarted: bool = False
    # Started by a webhook delivery no signature vouched for (TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED).
    unsigned_start: bool = False
    approval: ApprovalPolicy = Field(default_factory=ApprovalPolicy)


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
    # A change written before whose push the scan held back, pushed now with what an approver
    # let through (no model call again).
    implemented: Implementation | None = None
    approved_secrets: list[SecretFinding] = Field(default_factory=list)
    # The ticket's phases so far, for the model cost the pull request's description shows.
    usage: list[PhaseUsage] = Field(default_factory=list)
    # When the ticket's time for work runs out (`TicketInput.work_minutes`), if it has one.
    finish_by: datetime | None = None


class ImplementationResult(BaseModel):
    """The pull request and what the tests said; or, when the credential scan held the push
    back, what it found and the change, for an approver to let through."""

    pr_url: str
    draft: bool
    tests_passed: bool
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)
    pr_number: int | None = None
    head_sha: str | None = None
    tests_note: str = ""  # an environment that could not be built, a sandbox limit hit
    draft_reason: str = ""  # why the pull request is a draft ("" when it is ready for review)
    secrets_found: list[SecretFinding] = Field(default_factory=list)
    implementation: Implementation | None = None  # the change held back, when secrets_found


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
    # Every id Jira knows the author by (account id, user name, key): approvers are matched on them.
    author_ids: list[str] = Field(default_factory=list)
    unsigned: bool = False  # from a webhook delivery without a checked signature


class RejectionInput(BaseModel):
    """Rejection of the current plan, with the reason that guides the next one."""

    reason: str
    author: str = "unknown"
    delivery_id: str | None = None
    # Every id Jira knows the author by (account id, user name, key): approvers are matched on them.
    author_ids: list[str] = Field(default_factory=list)
    unsigned: bool = False  # from a webhook delivery without a checked signature


class BudgetInput(BaseModel):
    """More model tokens, or more dollars of cost cap, for a ticket: one of the two."""

    tokens: int | None = Field(default=None, gt=0)
    dollars: float | None = Field(default=None, gt=0)
    author: str = "unknown"
    delivery_id: str | None = None
    unsigned: bool = False  # from a webhook delivery without a checked signature

    @model_validator(mode="after")
    def _one_amount(self) -> "BudgetInput":
        if (self.tokens is None) == (self.dollars is None):
            raise ValueError("give either more tokens (+50000) or more dollars (+$5), one of them")
        return self


class SayInput(BaseModel):
    """Guidance for the running implementation's next revision (a comment, `starter.py say`)."""

    text: str
    author: str = "unknown"
    delivery_id: str | None = None
    unsigned: bool = False  # from a webhook delivery without a checked signature


class GuidanceGiven(BaseModel):
    """The running implementation gave these pieces of guidance to a revision."""

    ids: list[int]
    revision: int


class StopInput(BaseModel):
    """End the running implementation early with its best revision (`/stop`)."""

    author: str = "unknown"
    delivery_id: str | None = None
    unsigned: bool = False  # from a webhook delivery without a checked signature


class HumanInputAccepted(BaseModel):
    """What an update returns when the workflow took the input."""

    accepted: bool = True
    message: str
