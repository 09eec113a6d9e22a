"""The ticket workflow: refinement, planning and implementation of one Jira ticket."""

import asyncio
from collections.abc import Callable
from datetime import datetime

from temporalio import workflow
from temporalio.exceptions import (
    ActivityError,
    ApplicationError,
    ChildWorkflowError,
    is_cancelled_exception,
)

with workflow.unsafe.imports_passed_through():
    from vocabulary.failures import failure_in_words
    from workflows.review.handlers import PullRequestHandlers
    from workflows.review.phase import ReviewPhase
    from workflows.review.rounds import PullRequestRounds
    from workflows.ticket.approvals import Approvals
    from workflows.ticket.budget import (
        COST_CAP,
        Limit,
        awaited,
        limit_reached,
        paused_notice,
        spend,
    )
    from workflows.ticket.handlers import HumanHandlers
    from workflows.ticket.implementation import ImplementationWorkflow
    from workflows.ticket.messages import (
        Analysis,
        ImplementationInput,
        ImplementationProgress,
        ImplementationResult,
        Phase,
        Plan,
        Question,
        Requirements,
        Status,
        TicketContext,
        TicketInput,
        TicketResult,
    )
    from workflows.ticket.outbox import Outbox
    from workflows.ticket.questions import NO_REPEATED_QUESTIONS, unasked
    from workflows.ticket.secret_approval import (
        SECRETS_APPROVAL,
        approval_comment,
        not_approvable,
        rejected,
        still_held,
        waiting_for,
    )
    from workflows.ticket.steering import SteeringHandlers
    from workflows.ticket.steps import TicketSteps
    from workflows.ticket.texts import ANSWERED, answer_comment
    from workflows.ticket.tracker import Tracker
    from workflows.ticket.waits import Waiter, work_ends_at

# An approved plan that answers the ticket's question ends the ticket with the answer on Jira.
ANSWER_ONLY = "answer-only"


class Expired(Exception):
    """A wait for people ran out; the ticket ends as expired."""


@workflow.defn(name="TicketWorkflow")
class TicketWorkflow(HumanHandlers, PullRequestHandlers, SteeringHandlers):
    """One Jira ticket from questions to pull request, waiting on people where it must."""

    @workflow.init
    def __init__(self, inp: TicketInput) -> None:
        self._tracker = Tracker(inp)
        HumanHandlers.__init__(self, self._tracker.status, inp.approval)
        PullRequestHandlers.__init__(self, self._tracker.status)
        self._inp = inp
        self._outbox = Outbox(inp.key, inp.project.jira_project, inp.project.tracker_name)
        self._approvals = Approvals(
            inp.key, inp.approval, self._tracker.status, self._human, self._outbox
        )
        self._waiter = Waiter(inp.key, inp.waits, self._outbox)

    @workflow.run
    async def run(self, inp: TicketInput) -> TicketResult:
        """Run the phases; end as completed, expired, failed or cancelled, saying so."""
        try:
            return await self._phases(inp)
        except Expired as expired:
            return self._tracker.result(Status.EXPIRED, str(expired))
        except (asyncio.CancelledError, ActivityError, ChildWorkflowError, ApplicationError) as err:
            if is_cancelled_exception(err):
                await self._stopped(Status.CANCELLED, "Work on this ticket was cancelled.")
            else:
                await self._stopped(
                    Status.FAILED, f"Work on this ticket stopped. {failure_in_words(err)}"
                )
            raise

    async def _phases(self, inp: TicketInput) -> TicketResult:
        steps = TicketSteps(inp, self._status, self._outbox, self._check_budget, self._tracker)
        self._tracker.set(Phase.REFINEMENT, Status.RUNNING, "Reading the ticket")
        ticket, analysis = await steps.study()
        requirements = await self._refine(steps, ticket, analysis)
        plan = await self._plan(steps, ticket, analysis, requirements)
        if plan.answer_only and workflow.patched(ANSWER_ONLY):
            return await self._answer(plan)
        if not (inp.project.implement_after_approval or inp.auto):
            message = f"Plan v{plan.version} approved; this project implements by hand."
            await self._outbox.comment("approved", message)
            return await self._finish(message)
        if workflow.patched("comment-on-approval") and not inp.auto:
            await self._outbox.comment(
                f"approved-v{plan.version}",
                f"Plan v{plan.version} approved by {self._approver()}; implementing it now.",
            )
        await self._check_budget()
        self._tracker.set(Phase.IMPLEMENTATION, Status.RUNNING, "Implementing the plan")
        work = ImplementationInput(
            key=inp.key,
            project=inp.project,
            branch=steps.repo.branch,
            ticket=ticket,
            plan=plan,
            requirements=requirements,
            analysis=analysis,
            agent_task_queue=inp.agent_task_queue,
            usage=[u for u in self._status.usage if u.phase != Phase.IMPLEMENTATION],
            finish_by=self._work_ends_at(),
        )
        with self._tracker.step(f"Implement plan v{plan.version}"):
            done = await self._implement(work, "", f"Implement plan v{plan.version}")
        self._status.steering.stop_requested_by = ""  # a stop ends the run it was sent to
        if done.secrets_found and workflow.patched(SECRETS_APPROVAL):
            spend(self._status, done.tokens, done.cost)
            done = await self._push_if_approved(work, done)
        spend(self._status, done.tokens, done.cost)
        self._status.pr_url = done.pr_url
        self._status.pr_draft, self._status.tests_passed = done.draft, done.tests_passed
        self._status.tests_note = done.tests_note
        self._status.pr_draft_reason = done.draft_reason
        # Tickets that started before the review phase existed end when the PR opens.
        if (
            workflow.patched("review-phase")
            and inp.review.follow_pull_request
            and done.pr_number is not None
        ):
            return await self._review(inp, steps, ticket, done)
        return await self._finish(f"Pull request opened: {done.pr_url}")

    async def _answer(self, plan: Plan) -> TicketResult:
        """Post the approved answer and move the issue as done: no change, no pull request."""
        approver = None if self._inp.auto else self._approver()
        await asyncio.gather(
            self._outbox.comment(f"answered-v{plan.version}", answer_comment(plan, approver)),
            self._outbox.transition(self._inp.review.done_status, done=True),
        )
        return await self._finish(ANSWERED)

    async def _implement(
        self, work: ImplementationInput, suffix: str, summary: str
    ) -> ImplementationResult:
        """The implementation child workflow, to its pull request."""
        return await workflow.execute_child_workflow(
            ImplementationWorkflow.run,
            work,
            id=f"{workflow.info().workflow_id}-implementation{suffix}",
            static_summary=summary,
        )

    async def _push_if_approved(
        self, work: ImplementationInput, held: ImplementationResult
    ) -> ImplementationResult:
        """Ask an approver about what the credential scan held back; push it once approved."""
        found = held.secrets_found
        if any(f.own for f in found):
            raise not_approvable(work.branch, found)
        self._status.secrets_found = found
        await self._outbox.comment("secrets-found", approval_comment(work.key, work.branch, found))
        await self._wait(Status.AWAITING_APPROVAL, waiting_for(found))
        while not await self._approvals.judge():  # the project's approvers rule
            await self._wait(Status.AWAITING_APPROVAL, waiting_for(found), False)
        rejection = self._human.take_verdict()
        self._status.secrets_found = []
        if rejection is not None:
            raise rejected(rejection.author, rejection.reason)
        self._tracker.set(Phase.IMPLEMENTATION, Status.RUNNING, "Pushing the approved change")
        approved = work.model_copy(
            update={"implemented": held.implementation, "approved_secrets": found}
        )
        with self._tracker.step("Push the approved change"):
            pushed = await self._implement(approved, "-approved", "Push the approved change")
        if pushed.secrets_found:  # the branch moved under it into findings nobody approved
            raise still_held(work.branch, pushed.secrets_found)
        return pushed

    async def _review(
        self,
        inp: TicketInput,
        steps: TicketSteps,
        ticket: TicketContext,
        done: ImplementationResult,
    ) -> TicketResult:
        """Follow the pull request until it is merged, closed, or left alone too long."""
        self._status.pull_request = self._pr_view
        self._pr_view.number = done.pr_number
        if done.head_sha:
            self._inbox.moved_to(done.head_sha, by_us=True)
        rounds = PullRequestRounds(
            inp, self._status, self._outbox, self._inbox, steps.repo, ticket,
            done.pr_number or 0, self._check_budget,
        )  # fmt: skip
        phase = ReviewPhase(inp, self._tracker, self._outbox, self._inbox, rounds, done.pr_url)
        status, message = await phase.follow()
        self._tracker.event(status.value, message)
        if status == Status.EXPIRED:
            await asyncio.gather(
                self._outbox.comment("review-expired", message),
                self._outbox.notify(f"{inp.key}: {message}"),
            )
        return self._tracker.result(status, message)

    async def _refine(
        self, steps: TicketSteps, ticket: TicketContext, analysis: Analysis
    ) -> Requirements:
        """Ask, wait for answers, refine; ask bounded follow-up rounds while anything is open."""
        if self._inp.auto:
            return await steps.refine(ticket, analysis, [], [])
        pending = list((await steps.ask_questions(ticket, analysis)).questions)
        asked: list[Question] = []
        answers: list[str] = []
        rounds = 0
        while True:
            if pending:
                await self._wait(
                    Status.AWAITING_ANSWERS,
                    f"answers to the questions on {self._inp.project.tracker_name}",
                )
                answers += self._human.take_answers()
                asked += pending
            self._tracker.set(Phase.REFINEMENT, Status.RUNNING, "Refining the requirements")
            allow = rounds < self._inp.max_followup_rounds
            requirements = await steps.refine(ticket, analysis, asked, answers, allow)
            pending = list(getattr(requirements, "followup_questions", []))
            if pending and workflow.patched(NO_REPEATED_QUESTIONS):
                pending = unasked(pending, asked)
            if not pending or rounds >= self._inp.max_followup_rounds:
                self._status.questions = []
                return requirements
            rounds += 1
            await steps.post_questions(ticket, pending, requirements.produced_offline, rounds + 1)

    async def _plan(
        self,
        steps: TicketSteps,
        ticket: TicketContext,
        analysis: Analysis,
        requirements: Requirements,
    ) -> Plan:
        """Plan until approved; each rejection's reason goes into the next version."""
        feedback: list[str] = []
        plan: Plan | None = None
        while True:
            version = len(feedback) + 1
            self._tracker.set(Phase.PLANNING, Status.RUNNING, f"Writing plan v{version}")
            plan = await steps.plan(ticket, analysis, requirements, feedback, plan)
            if self._inp.auto:
                return plan
            await self._wait(Status.AWAITING_APPROVAL, f"approval of plan v{version}")
            while not await self._approvals.judge():  # the project's approvers rule
                await self._wait(Status.AWAITING_APPROVAL, f"approval of plan v{version}", False)
            rejection = self._human.take_verdict()
            if rejection is None:
                return plan
            feedback.append(rejection.reason)
            if len(feedback) >= self._inp.max_plan_rejections:
                message = (
                    f"The plan was rejected {len(feedback)} times; ticketsmith stops here. "
                    "Refine the ticket and start it again with `starter.py KEY --restart`."
                )
                raise ApplicationError(message, type="PlanRejectedTooOften", non_retryable=True)

    def _work_ends_at(self) -> datetime | None:
        """When the ticket's minutes of work run out, if it has a limit."""
        minutes = self._inp.work_minutes
        if minutes is None:
            return None
        now = workflow.now()
        return work_ends_at(minutes, workflow.info().start_time, now, self._waiter.waited)

    async def _wait(
        self,
        status: Status,
        what: str,
        announce: bool = True,
        ready: Callable[[], bool] | None = None,
    ) -> None:
        """Suspend durably until the input arrives (or `ready` says so); raise Expired when it
        never does. `announce` False waits on quietly (input arrived that did not count).
        """
        phase = self._status.phase
        notice = f"{self._inp.key} is waiting for {what}."
        # Notify first, so that once the status says "waiting" nothing else is in flight.
        notify_first = workflow.patched("notify-before-waiting")
        if notify_first and announce:
            await self._outbox.notify(notice)
        self._tracker.set(phase, status, f"Waiting for {what}")
        self._tracker.event("suspended", what)
        if not notify_first and announce:
            await self._outbox.notify(notice)
        arrived = ready or (lambda: self._human.ready_for(status))
        if not await self._waiter.wait(arrived, status, what):
            self._tracker.set(Phase.DONE, Status.EXPIRED, f"Expired waiting for {what}")
            self._tracker.event("expired", what)
            raise Expired(f"Expired waiting for {what}")
        self._tracker.event("resumed", what)
        self._tracker.set(phase, Status.RUNNING, f"Received {what}")

    async def _check_budget(self) -> None:
        """Suspend as awaiting_budget while the ticket has used up its tokens or its cost cap."""
        while limit := limit_reached(self._status):
            if limit == Limit.COST and not workflow.patched(COST_CAP):
                return
            step = "budget" if limit == Limit.TOKENS else "cost-cap"
            await self._outbox.comment(
                f"{step}-{self._status.tokens}", paused_notice(self._inp.key, self._status, limit)
            )

            def raised(paused: Limit = limit) -> bool:
                """The limit it paused at is raised: it goes on, or pauses at the other one."""
                return limit_reached(self._status) != paused

            await self._wait(Status.AWAITING_BUDGET, awaited(limit), ready=raised)

    @workflow.signal(name="report_progress")
    def report_progress(self, progress: ImplementationProgress) -> None:
        """The implementation activity's latest progress (shown by status, watch and the Web UI)."""
        self._tracker.report(progress)

    def _approver(self) -> str:
        """Who approved the plan last."""
        approvals = [d.author for d in self._status.decisions if d.kind == "approve"]
        return approvals[-1] if approvals else "unknown"

    async def _finish(self, message: str) -> TicketResult:
        self._tracker.event("completed", message)
        await self._outbox.notify(f"{self._inp.key} completed: {message}")
        return self._tracker.result(Status.COMPLETED, message)

    async def _stopped(self, status: Status, message: str) -> None:
        """Record why work stopped and say so on Jira and Discord (best effort)."""
        phase = self._status.phase
        self._tracker.set(phase, status, message)
        self._tracker.event(status.value, message)
        where = (
            f" The branch `{self._status.branch}` is left as it is." if self._status.branch else ""
        )
        try:
            await asyncio.gather(
                self._outbox.comment(status.value, message + where),
                self._outbox.notify(f"{self._inp.key}: {message}"),
            )
        except ActivityError as err:
            workflow.logger.warning("could not report that %s stopped: %s", self._inp.key, err)
