"""What a ticket's status says: the status query's answer and a ticket's result.

Apart from workflows/ticket/messages.py so that the gRPC reads of `status` and `watch` build only
these models (over HTTP they read the answer's JSON and build none).
"""

from datetime import datetime

from pydantic import BaseModel, Field

from activities.secret_findings import SecretFinding
from graphs.cost import ModelCost
from graphs.progress import ImplementationProgress
from graphs.question import Question
from vocabulary.ticket_states import Phase, Status


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
