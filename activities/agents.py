"""Agent activities: each runs one LangGraph graph with the worker's model."""

from graphs.implementation.graph import implement_plan
from langchain_core.language_models import BaseChatModel
from temporalio import activity

from activities.heartbeat import heartbeating
from activities.messages import (
    AnalyseInput,
    ImplementInput,
    PlanInput,
    QuestionsInput,
    RequirementsInput,
)
from activities.repo import Workspaces
from graphs.analysis.graph import analyse_repository
from graphs.planning.graph import create_plan
from graphs.refinement.graph import generate_questions, refine_requirements
from graphs.schemas import Analysis, Implementation, Plan, QuestionSet, Requirements


class AgentActivities:
    """The agent team, one activity per graph."""

    def __init__(self, model: BaseChatModel, workspaces: Workspaces) -> None:
        self._model = model
        self._workspaces = workspaces

    @activity.defn
    async def analyse_codebase(self, inp: AnalyseInput) -> Analysis:
        """Study the repository at the ticket branch."""
        async with self._workspaces.using(inp.repo, "agents") as workspace:
            repo_dir = await workspace.sync(inp.repo.branch, inp.repo.base_branch)
            return await heartbeating(analyse_repository(self._model, repo_dir, inp.ticket))

    @activity.defn
    async def generate_questions(self, inp: QuestionsInput) -> QuestionSet:
        """Ask what the ticket leaves open (possibly nothing)."""
        return await heartbeating(generate_questions(self._model, inp.ticket, inp.analysis))

    @activity.defn
    async def refine_requirements(self, inp: RequirementsInput) -> Requirements:
        """Turn the ticket and the answers into requirements and acceptance criteria."""
        return await heartbeating(
            refine_requirements(self._model, inp.ticket, inp.analysis, inp.questions, inp.answers)
        )

    @activity.defn
    async def generate_plan(self, inp: PlanInput) -> Plan:
        """Write plan version N, addressing the feedback so far."""
        return await heartbeating(
            create_plan(
                self._model, inp.ticket, inp.analysis, inp.requirements, inp.feedback, inp.version
            )
        )

    @activity.defn
    async def implement_changes(self, inp: ImplementInput) -> Implementation:
        """Write the code the approved plan calls for."""
        async with self._workspaces.using(inp.repo, "agents") as workspace:
            repo_dir = await workspace.sync(inp.repo.branch, inp.repo.base_branch)
            return await heartbeating(
                implement_plan(self._model, repo_dir, inp.ticket, inp.plan, inp.requirements)
            )
