"""The refinement and planning steps: every call out is an activity with a timeout and retries."""

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import nullcontext
from typing import Any, TypeVar

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.agents import AgentActivities
    from activities.messages import (
        AnalyseInput,
        FetchTicketInput,
        PlanInput,
        PrepareRepositoryInput,
        QuestionsInput,
        RepoRef,
        RequirementsInput,
    )
    from activities.repo import RepoActivities
    from activities.tracker import TrackerActivities
    from workflows.policies import (
        ANALYSIS_RETRY,
        GIT_RETRY,
        GIT_TIMEOUT,
        HTTP_RETRY,
        HTTP_TIMEOUT,
        LLM_HEARTBEAT,
        LLM_RETRY,
        LLM_TIMEOUT,
    )
    from workflows.ticket import texts
    from workflows.ticket.budget import spend
    from workflows.ticket.messages import (
        Analysis,
        FileChange,
        Plan,
        Question,
        QuestionSet,
        Requirements,
        TicketContext,
        TicketInput,
        TicketStatus,
    )
    from workflows.ticket.outbox import Outbox
    from workflows.ticket.tracker import Tracker

PLAN_DIR = ".ticketsmith"
T = TypeVar("T")


class TicketSteps:
    """Runs the activities of one ticket and keeps the status current."""

    def __init__(
        self,
        inp: TicketInput,
        status: TicketStatus,
        outbox: Outbox,
        before_agent: Callable[[], Awaitable[None]],
        tracker: Tracker | None = None,
    ) -> None:
        self._inp = inp
        self._step = tracker.step if tracker else lambda _: nullcontext()
        self._status = status
        self._outbox = outbox
        self._before_agent = before_agent
        self.repo = RepoRef(
            workflow_id=workflow.info().workflow_id,
            repository=inp.project.repository,
            clone_url=inp.project.clone_url,
            branch="",
            base_branch=inp.project.base_branch,
        )

    @property
    def plan_path(self) -> str:
        """Where the plan file lives on the ticket branch."""
        return f"{PLAN_DIR}/{self._inp.key}-plan.md"

    async def _agent(
        self, activity: Callable[..., Awaitable[T]], arg: Any, summary: str,
        retry: RetryPolicy = LLM_RETRY,
    ) -> T:  # fmt: skip
        """Run one agent graph on the agent task queue, after the budget check."""
        await self._before_agent()
        with self._step(summary):
            result: Any = await workflow.execute_activity_method(
                activity,
                arg,
                task_queue=self._inp.agent_task_queue,
                start_to_close_timeout=LLM_TIMEOUT,
                heartbeat_timeout=LLM_HEARTBEAT,
                retry_policy=retry,
                summary=summary,
            )
        spend(self._status, result.tokens, result.cost)
        return result  # type: ignore[no-any-return]

    async def study(self) -> tuple[TicketContext, Analysis]:
        """Fetch the ticket, prepare the branch and analyse the codebase."""
        fetch = f"Fetch {self._inp.key} from {self._inp.project.tracker_name}"
        with self._step(fetch):
            ticket = await workflow.execute_activity_method(
                TrackerActivities.fetch_ticket,
                FetchTicketInput(key=self._inp.key),
                start_to_close_timeout=HTTP_TIMEOUT,
                retry_policy=HTTP_RETRY,
                summary=fetch,
            )
        with self._step("Prepare the ticket branch"):
            prepared = await workflow.execute_activity_method(
                RepoActivities.prepare_repository,
                PrepareRepositoryInput(
                    repo=self.repo,
                    key=ticket.key,
                    summary=ticket.summary,
                    from_base=self._inp.restarted,
                ),
                start_to_close_timeout=GIT_TIMEOUT,
                retry_policy=GIT_RETRY,
                summary="Prepare the ticket branch",
            )
        self.repo = self.repo.model_copy(update={"branch": prepared.branch})
        self._status.branch = prepared.branch
        analysis: Analysis = await self._agent(
            AgentActivities.analyse_codebase,
            AnalyseInput(repo=self.repo, ticket=ticket),
            "Analyse the codebase",
            retry=ANALYSIS_RETRY,
        )
        return ticket, analysis

    async def ask_questions(self, ticket: TicketContext, analysis: Analysis) -> QuestionSet:
        """Generate clarifying questions and post them, when the ticket leaves anything open."""
        questions: QuestionSet = await self._agent(
            AgentActivities.generate_questions,
            QuestionsInput(ticket=ticket, analysis=analysis),
            "Generate clarifying questions",
        )
        await self.post_questions(ticket, questions.questions, questions.produced_offline, 1)
        return questions

    async def post_questions(
        self, ticket: TicketContext, questions: list[Question], offline: bool, round_number: int
    ) -> None:
        """Post a round of questions to Jira and Discord and show them in the status."""
        self._status.questions = list(questions)
        self._status.question_round = round_number
        if not questions:
            return
        body = texts.questions_comment(questions, offline)
        await self._outbox.comment(f"questions-{round_number}", body)

    async def refine(
        self,
        ticket: TicketContext,
        analysis: Analysis,
        questions: list[Question],
        answers: list[str],
        allow_followup: bool = True,
    ) -> Requirements:
        """Turn the ticket and its answers into requirements (maybe with follow-up questions)."""
        requirements: Requirements = await self._agent(
            AgentActivities.refine_requirements,
            RequirementsInput(
                ticket=ticket,
                analysis=analysis,
                questions=questions,
                answers=answers,
                allow_followup=allow_followup,
            ),
            "Refine the requirements",
        )
        return requirements

    async def plan(
        self,
        ticket: TicketContext,
        analysis: Analysis,
        requirements: Requirements,
        feedback: list[str],
        previous: Plan | None,
    ) -> Plan:
        """Write the next plan version, then commit it and post it to Jira in parallel."""
        version = previous.version + 1 if previous else 1
        plan: Plan = await self._agent(
            AgentActivities.generate_plan,
            PlanInput(
                ticket=ticket,
                analysis=analysis,
                requirements=requirements,
                feedback=feedback,
                version=version,
                previous=previous,
                repo=self.repo,
            ),
            f"Write plan v{version}",
        )
        body = texts.plan_comment(plan, previous, feedback, self.repo.branch, self.plan_path)
        await asyncio.gather(
            self._outbox.commit(
                self.repo,
                [FileChange(path=self.plan_path, content=plan.markdown)],
                f"{ticket.key}: plan v{version}",
            ),
            self._outbox.comment(f"plan-v{version}", body),
        )
        self._status.plan_version = version
        self._status.plan_markdown = plan.markdown
        return plan
