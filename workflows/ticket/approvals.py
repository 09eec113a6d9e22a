"""Who may approve or reject a plan: the project's approvers, how many approvals, the reporter."""

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.messages import ApproverFacts, ApproverLookupInput
    from activities.tracker import TrackerActivities
    from workflows.policies import HTTP_RETRY, HTTP_TIMEOUT
    from workflows.ticket.human_input import HumanInput, Verdict
    from workflows.ticket.messages import ApprovalInput, ApprovalPolicy, TicketStatus
    from workflows.ticket.outbox import Outbox


def refusal(
    policy: ApprovalPolicy, verdict: Verdict, facts: ApproverFacts | None, subject: str
) -> str | None:
    """Why a verdict does not count, as a reply for Jira; None when it counts. `subject` is
    what the verdict decides (a plan version, or a push held back)."""
    verb = "approve" if isinstance(verdict, ApprovalInput) else "reject"
    who = f"{verdict.author} may not {verb} {subject}"
    if facts is not None and facts.is_reporter and not policy.reporter_may_approve:
        return (
            f"{who}: the ticket's reporter does not decide its plan. Who may: {policy.describe()}."
        )
    if not policy.approvers:
        return None
    # Only the ids Jira sends: a display name is whatever its owner chose to call themselves.
    ids = {i.casefold() for i in verdict.author_ids or [verdict.author]}
    if ids & {p.casefold() for p in policy.people} or (facts is not None and facts.member_of):
        return None
    return f"{who}. Who may: {policy.describe()}."


def approver_id(verdict: Verdict) -> str:
    """One approver counts once, however many comments they write."""
    return (verdict.author_ids[0] if verdict.author_ids else verdict.author).casefold()


class Approvals:
    """Judges the verdicts that arrive under a project's approvers rule; replies to refusals."""

    def __init__(
        self,
        key: str,
        policy: ApprovalPolicy,
        status: TicketStatus,
        human: HumanInput,
        outbox: Outbox,
    ) -> None:
        self._key = key
        self._policy = policy
        self._status = status
        self._human = human
        self._outbox = outbox
        self._approved_by: list[str] = []

    async def judge(self) -> bool:
        """Judge what arrived; True once a verdict decides the plan (enough approvals, or an
        approver's rejection). Under the default rule the verdict decided as it arrived."""
        self._human.judging = True
        try:
            return await self._judge_arrived()
        finally:
            self._human.judging = False

    async def _judge_arrived(self) -> bool:
        subject = self._human.under_review()
        for verdict in self._human.take_arrived():
            facts = await self._look_up(verdict) if self._policy.needs_lookup else None
            kind = "approve" if isinstance(verdict, ApprovalInput) else "reject"
            reason = refusal(self._policy, verdict, facts, subject)
            now = workflow.now()
            if reason is not None:
                self._human.decide(
                    "refused", verdict.author, now, f"/{kind}: {reason}", verdict.unsigned
                )
                await self._outbox.comment(f"refused-{len(self._status.decisions)}", reason)
                continue
            if not isinstance(verdict, ApprovalInput):
                self._human.decide("reject", verdict.author, now, verdict.reason, verdict.unsigned)
                return self._settle(verdict)
            if approver_id(verdict) not in self._approved_by:
                self._approved_by.append(approver_id(verdict))
                count = f" ({len(self._approved_by)} of {self._policy.required} approvals)"
                text = subject + (count if self._policy.required > 1 else "")
                self._human.decide("approve", verdict.author, now, text, verdict.unsigned)
            if len(self._approved_by) >= self._policy.required:
                return self._settle(verdict)
        return self._human.decided()

    def _settle(self, verdict: Verdict) -> bool:
        self._human.settle(verdict)
        self._approved_by = []
        return True

    async def _look_up(self, verdict: Verdict) -> ApproverFacts:
        return await workflow.execute_activity_method(
            TrackerActivities.look_up_approver,
            ApproverLookupInput(
                key=self._key, author_ids=verdict.author_ids or [verdict.author],
                groups=self._policy.groups,
            ),
            start_to_close_timeout=HTTP_TIMEOUT,
            retry_policy=HTTP_RETRY,
            summary=f"Who is {verdict.author}",
        )  # fmt: skip
