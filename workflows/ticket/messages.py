"""Typed inputs, results, human-input payloads and the status of the ticket workflow and its
implementation child."""

from datetime import datetime, timedelta

from pydantic import BaseModel, Field, model_validator

from activities.secret_findings import SecretFinding
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
from llm.cost import ModelCost
from vocabulary.ticket_states import Phase, Status
from workflows.review.messages import PullRequestView, ReviewPolicy

__all__ = [
    "Phase",
    "Status",
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
    # The GitHub issue the pull request closes on merge ("#42", "owner/name#42"); None on Jira.
    closes_issue: str | None = None

    @property
    def tracker_name(self) -> str:
        """The tracker the ticket lives in, as people are told: "GitHub" or "Jira"."""
        return "GitHub" if self.closes_issue else "Jira"


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
        who = [*self.people, *(f"members of the group {g}" for g in self.groups)]
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


class PhaseUsage(BaseModel):
    """Time, model tokens and their cost one phase took; `waiting_seconds` is time spent
    waiting on people."""

    phase: Phase
    started_at: datetime
    ended_at: datetime | None = None
    tokens: int = 0
    cost: ModelCost = Field(default_factory=ModelCost)
    waiting_seconds: float = 0.0
    waiting_since: datetime | None = None  # set while the phase waits on people


class Decision(BaseModel):
    """One human input the workflow acted on."""

    kind: str
    author: str
    at: datetime
    text: str = ""
    unsigned: bool = False  # it came in a webhook delivery no signature vouched for


class Guidance(BaseModel):
    """What a person said to a running implementation or review round, for its next revision."""

    id: int
    text: str  # untrusted: quoted to the model as a person's words
    author: str
    at: datetime
    used_in_revision: int | None = None  # None while it waits for the next revision


class Steering(BaseModel):
    """What the running implementation reads from its ticket: every guidance, a stop."""

    guidance: list[Guidance] = Field(default_factory=list)
    stop_requested_by: str = ""


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
    pr_draft_reason: str = ""
    tests_passed: bool | None = None
    tests_note: str = ""
    decisions: list[Decision] = Field(default_factory=list)
    # Webhook deliveries (signals, the start) the ticket took without a checked signature.
    unsigned_deliveries: int = 0
    tokens: int = 0
    token_budget: int | None = None
    cost: ModelCost = Field(default_factory=ModelCost)
    cost_cap: float | None = None  # dollars
    message: str = ""
    usage: list[PhaseUsage] = Field(default_factory=list)
    pull_request: PullRequestView | None = None
    step: str | None = None
    step_started_at: datetime | None = None
    implementation: ImplementationProgress | None = None
    # What the credential scan found in the change while it waits for an approver.
    secrets_found: list[SecretFinding] = Field(default_factory=list)
    # What people said to the running implementation (`starter.py say`, a comment), and a stop.
    steering: Steering = Field(default_factory=Steering)


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
