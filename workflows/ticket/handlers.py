"""The ticket workflow's message handlers: signals for webhooks, updates for the command line."""

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from workflows.ticket.approvals import refusal
    from workflows.ticket.budget import grant, limits_now
    from workflows.ticket.human_input import HumanInput
    from workflows.ticket.messages import (
        AnswerInput,
        ApprovalInput,
        ApprovalPolicy,
        BudgetInput,
        HumanInputAccepted,
        RejectionInput,
        Status,
        TicketStatus,
    )


class HumanHandlers:
    """Handlers only record input; the workflow's main loop acts on it."""

    def __init__(self, status: TicketStatus, policy: ApprovalPolicy | None = None) -> None:
        self._status = status
        self._policy = policy or ApprovalPolicy()
        self._human = HumanInput(status, self._policy)

    @workflow.query
    def status(self) -> TicketStatus:
        """Where the ticket is and what happened so far."""
        return self._status

    @workflow.signal
    def answer(self, inp: AnswerInput) -> None:
        """Answers from a webhook (fire and forget; repeated deliveries are ignored)."""
        self._human.record_answer(inp, workflow.now())

    @workflow.signal
    def approve(self, inp: ApprovalInput) -> None:
        """Approval from a webhook."""
        self._human.record_approval(inp, workflow.now())

    @workflow.signal
    def reject(self, inp: RejectionInput) -> None:
        """Rejection from a webhook."""
        self._human.record_rejection(inp, workflow.now())

    @workflow.signal
    def add_budget(self, inp: BudgetInput) -> None:
        """More model tokens or a higher cost cap, from a `/budget +N` or `/budget +$N` comment."""
        self._grant(inp)

    def _grant(self, inp: BudgetInput) -> None:
        if self._human.first_delivery(inp):
            text = grant(self._status, inp)
            self._human.decide("budget", inp.author, workflow.now(), text, inp.unsigned)

    @workflow.update
    def submit_answer(self, inp: AnswerInput) -> HumanInputAccepted:
        """Answers from the command line."""
        self._human.record_answer(inp, workflow.now())
        return HumanInputAccepted(message="Answers recorded; refining the requirements.")

    @submit_answer.validator
    def _validate_answer(self, inp: AnswerInput) -> None:
        self._human.check(Status.AWAITING_ANSWERS, "answers", inp.text)

    @workflow.update
    def approve_plan(self, inp: ApprovalInput) -> HumanInputAccepted:
        """Approval from the command line."""
        refused = self._refused_at_once(inp)
        if refused:
            return refused
        pushing = bool(self._status.secrets_found)
        self._human.record_approval(inp, workflow.now())
        if not self._policy.open:
            return HumanInputAccepted(message=self._to_be_judged(inp))
        if pushing:
            return HumanInputAccepted(message="Approved: the change is pushed as it is.")
        return HumanInputAccepted(message=f"Plan v{self._status.plan_version} approved.")

    @approve_plan.validator
    def _validate_approval(self, inp: ApprovalInput) -> None:
        self._human.check(Status.AWAITING_APPROVAL, "an approval", "approve")

    @workflow.update
    def reject_plan(self, inp: RejectionInput) -> HumanInputAccepted:
        """Rejection from the command line."""
        refused = self._refused_at_once(inp)
        if refused:
            return refused
        pushing = bool(self._status.secrets_found)
        self._human.record_rejection(inp, workflow.now())
        if not self._policy.open:
            return HumanInputAccepted(message=self._to_be_judged(inp))
        if pushing:
            return HumanInputAccepted(message="Rejected: nothing is pushed; the ticket stops.")
        return HumanInputAccepted(
            message=f"Plan v{self._status.plan_version} rejected; writing the next version."
        )

    def _refused_at_once(self, inp: ApprovalInput | RejectionInput) -> HumanInputAccepted | None:
        """A verdict from someone the approvers rule names no way for (it needs no lookup):
        refused and recorded, the refusal returned."""
        if self._policy.needs_lookup or not self._policy.people:
            return None
        text = refusal(self._policy, inp, None, self._human.under_review())
        if text is None:
            return None
        kind = "approve" if isinstance(inp, ApprovalInput) else "reject"
        self._human.decide("refused", inp.author, workflow.now(), f"/{kind}: {text}", inp.unsigned)
        return HumanInputAccepted(accepted=False, message=text)

    def _to_be_judged(self, inp: ApprovalInput | RejectionInput) -> str:
        recorded = f"{inp.author}'s verdict on {self._human.under_review()} is recorded"
        if self._policy.needs_lookup:
            return (
                f"{recorded}; it counts once the tracker confirms {inp.author} may give it "
                "(`starter.py status` shows the outcome)."
            )
        needed = self._policy.required
        return f"{recorded} (the plan needs {needed} approvals)." if needed > 1 else f"{recorded}."

    @reject_plan.validator
    def _validate_rejection(self, inp: RejectionInput) -> None:
        self._human.check(Status.AWAITING_APPROVAL, "a rejection", inp.reason)

    @workflow.update
    def raise_budget(self, inp: BudgetInput) -> HumanInputAccepted:
        """More model tokens or a higher cost cap, from the command line."""
        self._grant(inp)
        return HumanInputAccepted(message=limits_now(self._status))

    @raise_budget.validator
    def _validate_budget(self, inp: BudgetInput) -> None:
        ended = (Status.COMPLETED, Status.FAILED, Status.CANCELLED, Status.MERGED, Status.CLOSED)
        if self._status.status in ended:
            raise ValueError(f"{self._status.key} is {self._status.status.value}")
