"""Agent activities: each runs one LangGraph graph with the worker's model.

They heartbeat while their graph runs, so they can be cancelled. The implementation activity
heartbeats every completed step of its graph, and a retry (after a worker died, say) resumes
from them. A model that keeps answering something unusable fails the activity for good.
"""

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool
from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.heartbeat import Checkpoint, heartbeating
from activities.messages import (
    AnalyseInput,
    ImplementInput,
    PlanInput,
    QuestionsInput,
    RepoRef,
    RequirementsInput,
)
from activities.progress import ProgressReporter
from activities.repo import Workspaces
from activities.steering import TicketSteering
from activities.testing.tester import WorkspaceTester, instruction_checks
from graphs.analysis import (
    analyse_repository,
    index_repository,
    make_context_query_tool,
    make_find_definition_tool,
)
from graphs.analysis.scan import detect_frameworks, detect_test_command, scan_files
from graphs.implementation.graph import MAX_REVISIONS, implement_plan
from graphs.implementation.journal import Progress
from graphs.planning.graph import create_plan
from graphs.refinement.graph import generate_questions, refine_requirements
from graphs.schemas import Analysis, Implementation, Plan, QuestionSet, Requirements
from llm.structured import ModelAnswerError, trim

WORKSPACE = "agents"
TEST_TIMEOUT_SECONDS = 600.0
# Heartbeat details stay well below the server's payload limit; larger progress is not saved.
MAX_CHECKPOINT_BYTES = 1_000_000
# The ticket's time kept for what follows the loop: the commit, the push and the PR (under a
# second when measured; a minute kept a second revision from starting).
FINISH_RESERVE_S = 30.0


@contextmanager
def model_answers() -> Iterator[None]:
    """Make a model that kept answering something unusable a non-retryable failure."""
    try:
        yield
    except ModelAnswerError as err:
        raise ApplicationError(
            str(err), trim(err.raw), type="ModelAnswerError", non_retryable=True
        ) from err


def report_tokens(step: str, tokens: int) -> None:
    """Log the model tokens one step used."""
    activity.logger.info("step %s used %d model tokens", step, tokens)


def test_command_for(inp: ImplementInput, repo_dir: Path) -> str | None:
    """The project's test command, else the one the repository's layout reveals."""
    command: str | None = getattr(inp, "test_command", None)
    if command:
        return command
    files = scan_files(repo_dir)
    return detect_test_command(repo_dir, files, detect_frameworks(repo_dir, files))


def seconds_until(finish_by: datetime | None) -> float | None:
    """The seconds the loop has for revisions before the ticket's time for work runs out,
    the steps after the loop (the last tests, the push, the pull request) set aside."""
    if finish_by is None:
        return None
    return (finish_by - datetime.now(UTC)).total_seconds() - FINISH_RESERVE_S


class AgentActivities:
    """The agent team, one activity per graph."""

    def __init__(
        self,
        model: BaseChatModel,
        workspaces: Workspaces,
        max_revisions: int = MAX_REVISIONS,
        example_tests: bool = False,
        minutes: float | None = None,
        definition_edits: bool = True,
        definition_targets: bool = False,
        first_draft: bool = False,
        bare_revisions: bool = False,
        candidates: int = 1,
    ) -> None:
        self._model = model
        self._workspaces = workspaces
        self._example_tests = example_tests
        self._definition_edits = definition_edits
        self._definition_targets = definition_targets
        self._first_draft = first_draft
        self._bare_revisions = bare_revisions
        self._candidates = candidates
        self._max_revisions = max_revisions
        self._minutes = minutes

    async def _code_tools(self, repo: RepoRef | None) -> list[BaseTool]:
        """`context_query` and `find_definition` over the ticket branch, when the input names
        the repository."""
        if repo is None or not repo.branch:
            return []
        async with self._workspaces.using(repo, WORKSPACE) as workspace:
            repo_dir = await workspace.sync(repo.branch, repo.base_branch)
            index = await asyncio.to_thread(index_repository, repo_dir)
        return [make_context_query_tool(index), make_find_definition_tool(index)]

    @activity.defn
    async def analyse_codebase(self, inp: AnalyseInput) -> Analysis:
        """Study the repository at the ticket branch."""
        async with self._workspaces.using(inp.repo, WORKSPACE) as workspace:
            repo_dir = await workspace.sync(inp.repo.branch, inp.repo.base_branch)
            with model_answers():
                analysis = await heartbeating(analyse_repository(self._model, repo_dir, inp.ticket))
        activity.logger.info("the repository's environment: %s", analysis.environment)
        report_tokens("analyse_codebase", analysis.tokens)
        return analysis

    @activity.defn
    async def generate_questions(self, inp: QuestionsInput) -> QuestionSet:
        """Ask what the ticket leaves open (possibly nothing)."""
        with model_answers():
            questions = await heartbeating(
                generate_questions(self._model, inp.ticket, inp.analysis)
            )
        report_tokens("generate_questions", questions.tokens)
        return questions

    @activity.defn
    async def refine_requirements(self, inp: RequirementsInput) -> Requirements:
        """Turn the ticket and the answers into requirements, or ask follow-up questions."""
        with model_answers():
            requirements = await heartbeating(
                refine_requirements(
                    self._model,
                    inp.ticket,
                    inp.analysis,
                    inp.questions,
                    inp.answers,
                    allow_followup=getattr(inp, "allow_followup", True),
                )
            )
        report_tokens("refine_requirements", requirements.tokens)
        return requirements

    @activity.defn
    async def generate_plan(self, inp: PlanInput) -> Plan:
        """Write plan version N, addressing the feedback so far and saying what changed."""
        tools = await self._code_tools(getattr(inp, "repo", None))
        with model_answers():
            plan = await heartbeating(
                create_plan(
                    self._model,
                    inp.ticket,
                    inp.analysis,
                    inp.requirements,
                    inp.feedback,
                    inp.version,
                    getattr(inp, "previous", None),
                    tools=tools,
                )
            )
        report_tokens(f"generate_plan v{inp.version}", plan.tokens)
        return plan

    @activity.defn
    async def implement_changes(self, inp: ImplementInput) -> Implementation:
        """Implement the plan (workers, tests, QA), resuming from an earlier attempt's steps."""
        checkpoint = Checkpoint()
        progress = self._resumed_progress(checkpoint)
        max_revisions = min(getattr(inp, "max_revisions", MAX_REVISIONS), self._max_revisions)
        reporter = ProgressReporter(inp.repo.workflow_id, max_revisions)

        def save(latest: Progress) -> None:
            reporter.recorded(latest)
            details = latest.model_dump(mode="json")
            if len(json.dumps(details)) > MAX_CHECKPOINT_BYTES:
                activity.logger.warning("progress too large for a heartbeat; not checkpointed")
                return
            checkpoint.save(details)

        async with self._workspaces.using(inp.repo, WORKSPACE) as workspace:
            repo_dir = await workspace.sync(inp.repo.branch, inp.repo.base_branch)
            command = test_command_for(inp, repo_dir)
            timeout = float(getattr(inp, "test_timeout_seconds", TEST_TIMEOUT_SECONDS))
            tester = None
            if command:
                setup = getattr(inp, "setup_command", None)
                checks = instruction_checks(repo_dir) if getattr(inp, "run_checks", True) else []
                tester = WorkspaceTester(
                    self._workspaces, inp.repo, command, timeout, setup, checks
                )
            work = implement_plan(
                self._model,
                repo_dir,
                inp.ticket,
                inp.plan,
                inp.requirements,
                analysis=getattr(inp, "analysis", None),
                tester=tester,
                max_revisions=max_revisions,
                example_tests=self._example_tests,
                definition_edits=self._definition_edits,
                definition_targets=self._definition_targets,
                first_draft=self._first_draft,
                bare_revisions=self._bare_revisions,
                candidates=self._candidates,
                minutes=self._minutes,
                seconds_left=seconds_until(getattr(inp, "finish_by", None)),
                progress=progress,
                on_progress=save,
                on_start=reporter.started,
                steering=TicketSteering(inp.repo.workflow_id),
            )
            sending = asyncio.create_task(reporter.run())
            try:
                with model_answers():
                    implementation = await heartbeating(work, checkpoint=checkpoint)
            finally:
                sending.cancel()
            await reporter.send()
        report_tokens("implement_changes", implementation.tokens)
        return implementation

    @staticmethod
    def _resumed_progress(checkpoint: Checkpoint) -> Progress | None:
        """The progress an earlier attempt heartbeated, kept in the checkpoint until it grows."""
        previous: Any = Checkpoint.previous()
        if not previous:
            return None
        progress = Progress.model_validate(previous)
        checkpoint.details = (previous,)
        activity.logger.info("resuming the implementation from %d completed steps", progress.steps)
        return progress
