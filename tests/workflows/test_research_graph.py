"""The research graph on GraphWorkflow with the real agents, tool server and Jira emulator."""

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from langchain_core.messages import BaseMessage
from temporalio.client import Client, WorkflowFailureError
from temporalio.common import SearchAttributeKey
from temporalio.contrib.pydantic import pydantic_data_converter
from temporalio.runtime import MetricBuffer, MetricBufferDurationFormat, Runtime, TelemetryConfig
from temporalio.testing import WorkflowEnvironment

from bench.support.research_results import failures
from graphs.models import ScriptedChatModel
from graphs.research.accuracy import score
from graphs.research.scripted import research_reader
from llm.prompting import read_task
from observability.metrics import RESEARCH_HANDOFF
from research.launch import research_id, start_research
from tests.conftest import venv_binary
from tests.support.research import (
    FACTS,
    SEARCH_ATTRIBUTES,
    ResearchWorker,
    report_of,
    research_worker,
    retried_attempts,
)
from tests.support.toolserver import tool_server
from toolserver.faults import FaultProfile, ToolFault, ToolFaults
from workflows.graph.messages import GraphStatusValue
from workflows.graph.workflow import GraphWorkflow

DEADLINE_S = 120
CITATION = r"\[[^\]]+\]$"


@pytest.fixture(scope="module")
async def dev_server() -> AsyncIterator[WorkflowEnvironment]:
    """A dev server with the search attributes GraphWorkflow sets."""
    env = await WorkflowEnvironment.start_local(
        data_converter=pydantic_data_converter,
        dev_server_existing_path=venv_binary("temporal"),
        dev_server_extra_args=["--headless"],
        search_attributes=[SearchAttributeKey.for_keyword(n) for n in SEARCH_ATTRIBUTES],
    )
    async with env:
        yield env


@pytest.fixture(scope="module")
async def tools(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    async with tool_server(tmp_path_factory.mktemp("research")) as (url, _):
        yield url


@pytest.fixture
async def worker(
    dev_server: WorkflowEnvironment, tools: str, tmp_path: Path
) -> AsyncIterator[ResearchWorker]:
    async with httpx.AsyncClient(base_url=tools) as http:
        (await http.delete("/_faults")).raise_for_status()
    async with research_worker(dev_server.client, tools, research_reader(), tmp_path) as started:
        yield started


def third_call_fails(tool: str) -> FaultProfile:
    """A seeded profile under which the tool's third call, and only it, answers 500."""
    for seed in range(1000):
        fault = ToolFault(tool=tool, status_code=500, rate=0.5, times=1)
        profile = FaultProfile(seed=seed, faults=[fault])
        faults = ToolFaults(profile)
        if [faults.take(tool) is not None for _ in range(3)] == [False, False, True]:
            return profile
    raise AssertionError("no seed makes only the third call fail")


async def set_faults(url: str, profile: dict[str, object]) -> None:
    async with httpx.AsyncClient(base_url=url) as http:
        (await http.put("/_faults", json=profile)).raise_for_status()


async def test_happy_path_writes_a_cited_report(worker: ResearchWorker) -> None:
    started = await start_research(worker.client, worker.settings, FACTS.question)
    result = await asyncio.wait_for(started.handle.result(), DEADLINE_S)
    assert result.status == GraphStatusValue.COMPLETED
    report = report_of(result)
    assert report.sections and report.summary
    known = {s.id for s in report.sources}
    for section in report.sections:
        for line in section.content.splitlines():
            assert line.startswith("- ") and line.endswith("]"), line
            cited = line[line.index(" [") + 2 : -1].split("][")
            assert set(cited) <= known, line
    assert {"PAY-2", "security-review.pdf p.2", "migration-runbook.md"} <= known
    accuracy = score(report, FACTS)
    assert accuracy.share == 1.0, accuracy.missed
    assert "## Sources" in result.state["synthesis"]["result"]["markdown"]
    steps = {s.step: s for s in (await started.handle.query(GraphWorkflow.status)).steps}
    assert {"plan", "fetchTickets", "parseDocs", "readPdfs", "searchContext", "synthesis"} <= set(
        steps
    )
    assert all(s.status == "completed" for s in steps.values())
    handoffs = {
        name: result.state[name]["handoff_seconds"] for name in ("fetchTickets", "synthesis")
    }
    assert all(h is not None and h >= 0 for h in handoffs.values()), handoffs
    assert result.state["fetchTickets"]["after"] == "research_manager"


async def test_intermittent_500s_are_retried_until_every_run_completes(
    worker: ResearchWorker, tools: str
) -> None:
    await set_faults(
        tools, {"seed": 3, "faults": [{"tool": ".*", "status_code": 500, "rate": 0.3}]}
    )
    questions = [FACTS.question, "Who owns the webhook consumer?", "When is the cut-over?"]
    runs = [await start_research(worker.client, worker.settings, q) for q in questions]
    results = await asyncio.wait_for(asyncio.gather(*(r.handle.result() for r in runs)), DEADLINE_S)
    assert all(r.status == GraphStatusValue.COMPLETED for r in results)
    retried = [a for r in runs for a in await retried_attempts(r.handle)]
    assert retried, "a 30% error rate over dozens of calls must have failed some attempt"
    assert all("answered 500" in failure for _, _, failure in retried), retried
    assert score(report_of(results[0]), FACTS).share == 1.0


async def test_a_step_retried_after_a_500_repeats_only_the_failed_call(
    worker: ResearchWorker, tools: str
) -> None:
    # The third fetch_ticket call fails once: the retry answers the first two from its checkpoint.
    await set_faults(tools, third_call_fails("fetch_ticket").model_dump())
    started = await start_research(worker.client, worker.settings, FACTS.question)
    result = await asyncio.wait_for(started.handle.result(), DEADLINE_S)
    tickets = result.state["fetchTickets"]
    assert tickets["attempt"] == 2
    assert tickets["tool_calls"] == 1  # the second attempt called only what had failed
    assert len(report_of(result).sources) == len({s.id for s in report_of(result).sources})
    assert score(report_of(result), FACTS).share == 1.0


async def test_slow_tools_still_complete(worker: ResearchWorker, tools: str) -> None:
    await set_faults(tools, {"faults": [{"tool": ".*", "delay_seconds": 1.5}]})
    started = await start_research(worker.client, worker.settings, FACTS.question)
    result = await asyncio.wait_for(started.handle.result(), DEADLINE_S)
    assert result.status == GraphStatusValue.COMPLETED
    assert score(report_of(result), FACTS).share == 1.0


async def test_a_duplicated_start_is_one_workflow(worker: ResearchWorker) -> None:
    question = "What does the security review say?"
    first, second = await asyncio.gather(
        start_research(worker.client, worker.settings, question),
        start_research(worker.client, worker.settings, question),
    )
    run_ids = {(await h.handle.describe()).run_id for h in (first, second)}
    assert len(run_ids) == 1
    await asyncio.wait_for(first.handle.result(), DEADLINE_S)
    runs = [
        w async for w in worker.client.list_workflows(f"WorkflowId = '{research_id(question)}'")
    ]
    assert len(runs) == 1


async def test_five_questions_at_once(worker: ResearchWorker) -> None:
    questions = [
        "What is blocking the payments migration?",
        "What are the NimbusPay fees?",
        "What did the security review find?",
        "How are webhook events ordered?",
        "When does LegacyPay switch off its v2 API?",
    ]
    runs = await asyncio.gather(
        *(start_research(worker.client, worker.settings, q) for q in questions)
    )
    results = await asyncio.wait_for(asyncio.gather(*(r.handle.result() for r in runs)), DEADLINE_S)
    assert [r.status for r in results] == [GraphStatusValue.COMPLETED] * 5
    assert len({r.handle.id for r in runs}) == 5
    assert all(report_of(r).sections for r in results)


async def test_handoffs_are_exported_as_a_metric(
    dev_server: WorkflowEnvironment, tools: str, tmp_path: Path
) -> None:
    buffer = MetricBuffer(1000, duration_format=MetricBufferDurationFormat.SECONDS)
    runtime = Runtime(telemetry=TelemetryConfig(metrics=buffer))
    base = dev_server.client
    client = await Client.connect(
        base.service_client.config.target_host,
        namespace=base.namespace,
        data_converter=base.data_converter,
        runtime=runtime,
    )
    async with research_worker(client, tools, research_reader(), tmp_path) as worker:
        started = await start_research(client, worker.settings, "What does the runbook say?")
        await asyncio.wait_for(started.handle.result(), DEADLINE_S)
    handoffs = [
        (u.attributes["from_agent"], u.attributes["to_agent"], u.value)
        for u in buffer.retrieve_updates()
        if u.metric.name == RESEARCH_HANDOFF
    ]
    pairs = {(after, agent) for after, agent, _ in handoffs}
    assert ("research_manager", "jira_agent") in pairs
    assert any(agent == "synthesis_agent" for _, agent in pairs)
    assert len(handoffs) == 5 and all(value >= 0 for *_, value in handoffs)


async def test_a_model_answer_that_never_parses_fails_the_run_clearly(
    dev_server: WorkflowEnvironment, tools: str, tmp_path: Path
) -> None:
    reader = research_reader()

    def unusable_report(messages: list[BaseMessage]) -> str:
        task, _ = read_task(messages)
        if task == "research_report":
            return "Here is your report: the migration is blocked by compliance."
        return str(reader.invoke(messages).content)

    model = ScriptedChatModel([unusable_report] * 100)
    async with research_worker(dev_server.client, tools, model, tmp_path) as worker:
        started = await start_research(worker.client, worker.settings, "Who owns PAY-3?")
        with pytest.raises(WorkflowFailureError) as failed:
            await asyncio.wait_for(started.handle.result(), DEADLINE_S)
        status = await started.handle.query(GraphWorkflow.status)
    assert status.status == GraphStatusValue.FAILED
    assert status.message.startswith("Step synthesis failed: ReportAnswer: no usable answer")
    assert "Raw answer: Here is your report" in status.message
    assert await retried_attempts(started.handle) == []  # not worth a retry: no 12 attempts
    (why,) = failures([failed.value])
    assert why.startswith("failed: Step synthesis failed: ReportAnswer: no usable answer"), why
