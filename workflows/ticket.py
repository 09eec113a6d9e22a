"""The ticket workflow: refinement, planning and implementation of one Jira ticket."""

from temporalio import workflow
from temporalio.common import SearchAttributeKey
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from workflows.human_input import HumanInput
    from workflows.messages import (
        AnswerInput,
        ApprovalInput,
        HumanInputAccepted,
        Phase,
        RejectionInput,
        Status,
        TicketInput,
        TicketResult,
        TicketStatus,
    )
    from workflows.steps import TicketSteps

TICKET_KEY = SearchAttributeKey.for_keyword("TicketKey")
PHASE = SearchAttributeKey.for_keyword("Phase")
STATUS = SearchAttributeKey.for_keyword("Status")


@workflow.defn(name="TicketWorkflow")
class TicketWorkflow:
    """One Jira ticket from questions to pull request, waiting on people where it must."""

    @workflow.init
    def __init__(self, inp: TicketInput) -> None:
        self._status = TicketStatus(key=inp.key, phase=Phase.REFINEMENT, status=Status.RUNNING)
        self._human = HumanInput(self._status)
        self._attributes_set = False

    @workflow.run
    async def run(self, inp: TicketInput) -> TicketResult:
        """Refine, plan until approved, then implement where the project allows it."""
        steps = TicketSteps(inp, self._status)
        self._set_state(Phase.REFINEMENT, Status.RUNNING, "Reading the ticket")
        ticket, analysis = await steps.study()
        questions = await steps.ask_questions(ticket, analysis)
        answers: list[str] = []
        if questions.questions:
            await self._wait_for(Status.AWAITING_ANSWERS, "answers to the questions on Jira")
            answers = self._human.take_answers()
        self._set_state(Phase.REFINEMENT, Status.RUNNING, "Refining the requirements")
        requirements = await steps.refine(ticket, analysis, questions.questions, answers)

        feedback: list[str] = []
        while True:
            version = len(feedback) + 1
            self._set_state(Phase.PLANNING, Status.RUNNING, f"Writing plan v{version}")
            plan = await steps.plan(ticket, analysis, requirements, feedback, version)
            await self._wait_for(Status.AWAITING_APPROVAL, f"approval of plan v{version}")
            rejection = self._human.take_verdict()
            if rejection is None:
                break
            feedback.append(rejection.reason)
            if len(feedback) >= inp.max_plan_rejections:
                message = (
                    f"The plan was rejected {len(feedback)} times; ticketsmith stops here. "
                    "Refine the ticket and start it again."
                )
                await steps.comment("gave-up", message)
                self._set_state(Phase.DONE, Status.FAILED, message)
                raise ApplicationError(message, type="PlanRejectedTooOften", non_retryable=True)

        if not inp.project.implement_after_approval:
            message = f"Plan v{plan.version} approved; this project implements by hand."
            await steps.comment("approved", message)
            return self._finish(message)
        self._set_state(Phase.IMPLEMENTATION, Status.RUNNING, "Implementing the plan")
        pr_url = await steps.implement(ticket, plan, requirements)
        return self._finish(f"Pull request opened: {pr_url}")

    async def _wait_for(self, status: Status, what: str) -> None:
        """Suspend durably until the human input this status needs has arrived."""
        self._set_state(self._status.phase, status, f"Waiting for {what}")
        await workflow.wait_condition(
            lambda: self._human.ready_for(status), timeout_summary=f"waiting for {what}"
        )

    def _set_state(self, phase: Phase, status: Status, message: str) -> None:
        """Record where the ticket is, for the query, the search attributes and the Web UI."""
        changed = (phase, status) != (self._status.phase, self._status.status)
        self._status.phase, self._status.status, self._status.message = phase, status, message
        if changed or not self._attributes_set:
            self._attributes_set = True
            workflow.upsert_search_attributes(
                [
                    TICKET_KEY.value_set(self._status.key),
                    PHASE.value_set(phase.value),
                    STATUS.value_set(status.value),
                ]
            )
        workflow.set_current_details(self._details())

    def _details(self) -> str:
        """A short markdown status for the Web UI."""
        lines = [
            f"**{self._status.key}**: {self._status.phase.value} / {self._status.status.value}",
            "",
            self._status.message,
        ]
        if self._status.plan_version:
            lines.append(f"\nPlan version: {self._status.plan_version}")
        if self._status.pr_url:
            lines.append(f"\nPull request: {self._status.pr_url}")
        return "\n".join(lines)

    def _finish(self, message: str) -> TicketResult:
        """Mark the ticket completed and build the result."""
        self._set_state(Phase.DONE, Status.COMPLETED, message)
        return TicketResult(
            key=self._status.key,
            status=Status.COMPLETED,
            plan_version=self._status.plan_version,
            branch=self._status.branch,
            pr_url=self._status.pr_url,
            message=message,
        )

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
        self._human.record_approval(inp, workflow.now())
        return HumanInputAccepted(message=f"Plan v{self._status.plan_version} approved.")

    @approve_plan.validator
    def _validate_approval(self, inp: ApprovalInput) -> None:
        self._human.check(Status.AWAITING_APPROVAL, "an approval", "approve")

    @workflow.update
    def reject_plan(self, inp: RejectionInput) -> HumanInputAccepted:
        """Rejection from the command line."""
        self._human.record_rejection(inp, workflow.now())
        return HumanInputAccepted(
            message=f"Plan v{self._status.plan_version} rejected; writing the next version."
        )

    @reject_plan.validator
    def _validate_rejection(self, inp: RejectionInput) -> None:
        self._human.check(Status.AWAITING_APPROVAL, "a rejection", inp.reason)
