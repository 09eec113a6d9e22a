"""The research agents as activities, one per agent, named as graph definitions name them.

Each runs its LangGraph node with the tools of one MCP session on the tool server. The answers
a step's tool calls got are kept by its task id (the step's idempotency key) on this worker and,
cut small, in its heartbeat details (`activities.research.journal`): a retry, here or on another
worker after this one was lost, calls again only what no earlier attempt got an answer to. Every
call reads, so a retried or duplicated step changes nothing anywhere. Each step's output
carries when it started and ended, and the time since the step it waited for (the handoff).
"""

from collections import OrderedDict
from datetime import UTC, datetime, timedelta
from typing import Any

import openai
from langchain_core.language_models import BaseChatModel
from pydantic import ValidationError
from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.agents import model_answers
from activities.heartbeat import Checkpoint, heartbeating
from activities.research.journal import StepProgress, ToolCallJournal
from activities.research.tools import mcp_tools, tool_server_error
from graphs.dsl.calls import AgentCall, AgentResult
from graphs.research.calls import ToolMissingError
from graphs.research.graph import run_agent
from graphs.research.state import AgentFindings, ResearchPlan, ResearchState, StepOutput
from graphs.research.synthesis import report_markdown
from observability.metrics import ActivityInstruments

SPECIALISTS = ("jira_agent", "doc_agent", "pdf_agent", "search_agent")
MAX_JOURNALS = 1000  # steps whose tool answers this worker keeps for their retries


def predecessors(call: AgentCall) -> list[StepOutput]:
    """The outputs of earlier research steps among the step's inputs."""
    found = []
    for value in call.input.values():
        if isinstance(value, dict) and {"agent", "result", "finished_at"} <= value.keys():
            found.append(StepOutput.model_validate(value))
    return found


def research_state(agent: str, call: AgentCall, before: list[StepOutput]) -> ResearchState:
    """The graph state an agent's node reads, from the step's inputs."""
    question = call.input.get("question")
    plans = [ResearchPlan.model_validate(p.result) for p in before if p.agent == "research_manager"]
    if agent == "research_manager":
        if not isinstance(question, str) or not question.strip():
            raise ApplicationError(
                "research_manager needs a non-empty `question` input",
                type="AgentInputError",
                non_retryable=True,
            )
        return {"question": question.strip(), "findings": []}
    if agent in SPECIALISTS:
        if not plans:
            raise ApplicationError(
                f"{agent} needs the research_manager's output as an input (`plan: plan`)",
                type="AgentInputError",
                non_retryable=True,
            )
        return {"question": plans[0].question, "plan": plans[0], "findings": []}
    findings = [AgentFindings.model_validate(p.result) for p in before if p.agent in SPECIALISTS]
    text = question if isinstance(question, str) else (plans[0].question if plans else "")
    return {"question": text, "findings": findings}


class ResearchActivities:
    """The research team: a model and the tool server's address."""

    def __init__(self, model: BaseChatModel, toolserver_url: str) -> None:
        self._model = model
        self._url = toolserver_url
        self._journals: OrderedDict[str, StepProgress] = OrderedDict()

    def _progress(self, task_id: str) -> StepProgress:
        """What earlier attempts of this step got: kept here by task id, or heartbeated."""
        progress = self._journals.get(task_id) or StepProgress.resumed(
            Checkpoint.previous(), _now()
        )
        self._journals[task_id] = progress
        self._journals.move_to_end(task_id)
        while len(self._journals) > MAX_JOURNALS:
            self._journals.popitem(last=False)
        return progress

    async def _run(self, agent: str, call: AgentCall) -> AgentResult:
        info = activity.info()
        checkpoint = Checkpoint()
        progress = self._progress(call.idempotency_key)
        before = predecessors(call)
        started = progress.started_at
        handoff, after = self._handoff(agent, started, before, first=info.attempt == 1)
        journal = ToolCallJournal(checkpoint, progress)
        checkpoint.details = (progress,)
        state = research_state(agent, call, before)
        try:
            async with mcp_tools(self._url, call.idempotency_key, journal) as tools:
                with model_answers():
                    update = await heartbeating(
                        run_agent(agent, self._model, tools, state), checkpoint=checkpoint
                    )
        except Exception as err:  # often wrapped in the MCP client's exception groups
            # Without the chain: a group's tracebacks would exceed the failure size limit.
            raise failure(err, self._url) from None
        result, tokens = _result_of(update)
        output = StepOutput(
            agent=agent, result=result, started_at=started, finished_at=_now(),
            handoff_seconds=handoff, after=after, attempt=info.attempt, tool_calls=journal.calls,
            resumed_calls=journal.resumed,
        )  # fmt: skip
        summary = (
            f"{agent}: {journal.calls} tool calls, {journal.resumed} answered from earlier"
            f" attempts, attempt {info.attempt}"
        )
        return AgentResult(output=output.model_dump(mode="json"), tokens=tokens, summary=summary)

    @staticmethod
    def _handoff(
        agent: str, started: datetime, before: list[StepOutput], first: bool
    ) -> tuple[float | None, str | None]:
        """Seconds since the latest predecessor ended (recorded as a metric on a first attempt)."""
        if not before:
            return None, None
        last = max(before, key=lambda p: p.finished_at)
        seconds = max(0.0, (started - last.finished_at).total_seconds())
        if first:
            instruments = ActivityInstruments(activity.metric_meter())
            instruments.handoff(last.agent, agent, timedelta(seconds=seconds))
        return round(seconds, 4), last.agent

    @activity.defn(name="research_manager")
    async def research_manager(self, call: AgentCall) -> AgentResult:
        """Turn the question into the specialists' inputs."""
        return await self._run("research_manager", call)

    @activity.defn(name="jira_agent")
    async def jira_agent(self, call: AgentCall) -> AgentResult:
        """Read the planned Jira tickets and note findings."""
        return await self._run("jira_agent", call)

    @activity.defn(name="doc_agent")
    async def doc_agent(self, call: AgentCall) -> AgentResult:
        """Read the planned markdown and HTML documents and note findings."""
        return await self._run("doc_agent", call)

    @activity.defn(name="pdf_agent")
    async def pdf_agent(self, call: AgentCall) -> AgentResult:
        """Read the planned PDFs page by page and note findings."""
        return await self._run("pdf_agent", call)

    @activity.defn(name="search_agent")
    async def search_agent(self, call: AgentCall) -> AgentResult:
        """Search the web and note findings."""
        return await self._run("search_agent", call)

    @activity.defn(name="synthesis_agent")
    async def synthesis_agent(self, call: AgentCall) -> AgentResult:
        """Write the report from every specialist's findings."""
        return await self._run("synthesis_agent", call)

    def all(self) -> list[Any]:
        """Every research activity, for the worker."""
        return [
            self.research_manager, self.jira_agent, self.doc_agent, self.pdf_agent,
            self.search_agent, self.synthesis_agent,
        ]  # fmt: skip


def failure(error: Exception, url: str) -> ApplicationError:
    """What Temporal should make of a step's failure: ours as it is, the model's, else the
    tool server's."""
    leaf: BaseException = error
    while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
        leaf = leaf.exceptions[0]
    if isinstance(leaf, ApplicationError):
        return leaf
    if isinstance(leaf, openai.APIError):
        return model_error(leaf)
    if isinstance(leaf, ToolMissingError | ValidationError):
        kind = "ToolMissing" if isinstance(leaf, ToolMissingError) else "AgentInputError"
        return ApplicationError(str(leaf), type=kind, non_retryable=True)
    return tool_server_error(error, url)


def model_error(error: openai.APIError) -> ApplicationError:
    """A model call that failed: retried unless the model's server refused the request."""
    status = getattr(error, "status_code", None)
    retryable = status is None or status >= 500 or status in (408, 429)
    return ApplicationError(
        f"the model call failed ({type(error).__name__}: {error})",
        {"status_code": status},
        type="ModelUnavailable",
        non_retryable=not retryable,
    )


def _result_of(update: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The node's update as a JSON result, and the model tokens it used."""
    if "report" in update:
        report = update["report"]
        return {
            **report.model_dump(mode="json"),
            "markdown": report_markdown(report),
        }, report.tokens
    if "plan" in update:
        return update["plan"].model_dump(mode="json"), update["plan"].tokens
    findings = update["findings"][0]
    return findings.model_dump(mode="json"), findings.tokens


def _now() -> datetime:
    return datetime.now(UTC)
