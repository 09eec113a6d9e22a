"""Human input to a ticket: answers, approvals and rejections, deduplicated and checked."""

from datetime import datetime

from temporalio import workflow

from workflows.ticket.budget import limit_reached
from workflows.ticket.messages import (
    AnswerInput,
    ApprovalInput,
    ApprovalPolicy,
    BudgetInput,
    Decision,
    Phase,
    RejectionInput,
    SayInput,
    Status,
    StopInput,
    TicketStatus,
)

HumanSignal = AnswerInput | ApprovalInput | RejectionInput | BudgetInput | SayInput | StopInput
Verdict = ApprovalInput | RejectionInput
WAITING_FOR = {
    Status.AWAITING_ANSWERS: "answers to its questions",
    Status.AWAITING_APPROVAL: "approval or rejection of its plan",
}


class HumanInput:
    """Records what people sent; the workflow's main loop decides what to do with it."""

    def __init__(self, status: TicketStatus, policy: ApprovalPolicy | None = None) -> None:
        self._status = status
        self._policy = policy or ApprovalPolicy()
        self._answers: list[str] = []
        self._verdict: Verdict | None = None
        # Verdicts the project's approvers rule must judge before one counts (main loop).
        self._arrived: list[Verdict] = []
        # True while the main loop judges arrived verdicts: more may arrive meanwhile.
        self.judging = False
        self._seen_deliveries: set[str] = set()

    def check(self, expected: Status, what: str, text: str) -> None:
        """Refuse input the ticket is not waiting for, saying what it waits for (validators)."""
        if not text.strip():
            raise ValueError(f"{what} cannot be empty")
        if self._status.status != expected:
            waiting = WAITING_FOR.get(self._status.status)
            if self._status.secrets_found:
                waiting = "an approver to push what looks like a credential"
            now = f"waiting for {waiting}" if waiting else f"{self._status.status.value}"
            raise ValueError(
                f"{self._status.key} is not waiting for {what}: it is {now} "
                f"(phase {self._status.phase.value})"
            )

    def ready_for(self, status: Status) -> bool:
        """Whether the input a wait in `status` needs has arrived."""
        if status == Status.AWAITING_ANSWERS:
            return bool(self._answers)
        if status == Status.AWAITING_BUDGET:
            return limit_reached(self._status) is None
        return self._verdict is not None or bool(self._arrived)

    def first_delivery(self, inp: HumanSignal) -> bool:
        """False for a delivery already recorded (webhooks may be delivered twice); a new one
        without a checked signature is counted in the status."""
        if inp.delivery_id is not None:
            if inp.delivery_id in self._seen_deliveries:
                return False
            self._seen_deliveries.add(inp.delivery_id)
        if inp.unsigned:
            self._status.unsigned_deliveries += 1
        return True

    def record_answer(self, inp: AnswerInput, at: datetime) -> None:
        """Keep answers that arrive while refining (even before the questions are posted)."""
        if not self.first_delivery(inp) or not inp.text.strip():
            return
        if self._status.phase != Phase.REFINEMENT:
            self._ignored("answers", inp.author)
            return
        self._answers.append(inp.text.strip())
        self._status.answers.append(inp.text.strip())
        self.decide("answer", inp.author, at, inp.text.strip(), inp.unsigned)

    def record_approval(self, inp: ApprovalInput, at: datetime) -> None:
        """Take an approval of the plan under review; others are ignored."""
        if not self.first_delivery(inp):
            return
        if not self._awaiting_verdict():
            self._ignored("an approval", inp.author)
            return
        if not self._policy.open:
            self._arrived.append(inp)
            return
        self._verdict = inp
        self.decide("approve", inp.author, at, self.under_review(), inp.unsigned)

    def record_rejection(self, inp: RejectionInput, at: datetime) -> None:
        """Take a rejection of the plan under review; others are ignored."""
        if not self.first_delivery(inp):
            return
        if not self._awaiting_verdict():
            self._ignored("a rejection", inp.author)
            return
        if not self._policy.open:
            self._arrived.append(inp)
            return
        self._verdict = inp
        self.decide("reject", inp.author, at, inp.reason, inp.unsigned)

    def take_arrived(self) -> list[Verdict]:
        """The verdicts waiting for the approvers rule, emptying the queue."""
        arrived, self._arrived = self._arrived, []
        return arrived

    def decided(self) -> bool:
        """True when a verdict decides the plan under review."""
        return self._verdict is not None

    def settle(self, verdict: Verdict) -> None:
        """Let a verdict the approvers rule accepted decide the plan."""
        self._verdict = verdict

    def under_review(self) -> str:
        """What an approval or a rejection now decides on: the plan, or a held-back push."""
        if self._status.secrets_found:
            return "pushing what looks like a credential, as it is"
        return f"plan v{self._status.plan_version}"

    def _ignored(self, what: str, author: str) -> None:
        """Say in the log why a signal changed nothing (signals cannot answer back)."""
        workflow.logger.info(
            "ignored %s from %s: %s is %s", what, author, self._status.key, self._status.status
        )

    def _awaiting_verdict(self) -> bool:
        waiting = self._status.status == Status.AWAITING_APPROVAL or self.judging
        return waiting and self._verdict is None

    def decide(
        self, kind: str, author: str, at: datetime, text: str, unsigned: bool = False
    ) -> None:
        decision = Decision(kind=kind, author=author, at=at, text=text, unsigned=unsigned)
        self._status.decisions.append(decision)

    def take_answers(self) -> list[str]:
        """The answers received so far, emptying the queue."""
        answers, self._answers = self._answers, []
        return answers

    def take_verdict(self) -> RejectionInput | None:
        """The rejection to act on, or None when the plan was approved."""
        verdict, self._verdict = self._verdict, None
        return verdict if isinstance(verdict, RejectionInput) else None
