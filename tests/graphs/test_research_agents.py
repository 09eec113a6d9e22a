"""The research graph in one process over the real tool server: scripted and offline models."""

import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from langchain_core.tools import BaseTool
from langchain_mcp_adapters.sessions import StreamableHttpConnection, create_session
from langchain_mcp_adapters.tools import load_mcp_tools

from graphs.offline import OfflineChatModel
from graphs.research.accuracy import score
from graphs.research.graph import research, run_agent
from graphs.research.scripted import research_reader
from graphs.research.state import (
    AgentFindings,
    Claim,
    Finding,
    ReportAnswer,
    ResearchPlan,
    SectionAnswer,
    Source,
)
from graphs.research.synthesis import render, report_markdown
from tests.support.research import FACTS
from tests.support.toolserver import tool_server


@pytest.fixture(scope="module")
async def url(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    async with tool_server(tmp_path_factory.mktemp("agents")) as (base, _):
        yield base


async def with_tools(url: str, work: Any) -> Any:
    """Run `work(tools)` inside one MCP session (opened and closed in the same task)."""
    connection = StreamableHttpConnection(transport="streamable_http", url=f"{url}/mcp")
    async with create_session(connection) as session:
        await session.initialize()
        tools: list[BaseTool] = await load_mcp_tools(session)
        return await work(tools)


async def test_the_scripted_reader_states_every_fact_with_its_source(url: str) -> None:
    report = await with_tools(url, lambda tools: research(research_reader(), tools, FACTS.question))
    accuracy = score(report, FACTS)
    assert accuracy.share == 1.0, accuracy.missed
    assert report.dropped_claims == 0
    markdown = report_markdown(report)
    assert "[security-review.pdf p.2]" in markdown and "[PAY-3]" in markdown


async def test_the_offline_model_reports_what_it_found_and_says_it_is_offline(url: str) -> None:
    report = await with_tools(url, lambda t: research(OfflineChatModel(), t, FACTS.question))
    assert report.summary.startswith("Produced offline")
    assert {s.title for s in report.sections} >= {"Jira tickets", "PDF documents"}
    assert score(report, FACTS).stated >= 3


async def test_a_missing_ticket_is_a_problem_not_a_failure(url: str) -> None:
    plan = ResearchPlan(question="q", ticket_keys=["PAY-2", "PAY-99"])
    state: Any = {"question": "q", "plan": plan, "findings": []}
    update = await with_tools(url, lambda t: run_agent("jira_agent", research_reader(), t, state))
    found: AgentFindings = update["findings"][0]
    assert [s.id for s in found.sources] == ["PAY-2"]
    assert len(found.problems) == 1 and found.problems[0].startswith("PAY-99:")


async def test_the_manager_keeps_only_documents_that_exist_sorted_by_kind(url: str) -> None:
    plan = {"ticket_keys": ["PAY-1", "nonsense"], "doc_ids": ["nope.md", "security-review.pdf",
            "migration-runbook.md"], "search_queries": []}  # fmt: skip
    state: Any = {"question": "What blocks PAY-3?", "findings": []}
    update = await with_tools(
        url, lambda t: run_agent("research_manager", research_reader(plan), t, state)
    )
    made: ResearchPlan = update["plan"]
    assert made.ticket_keys == ["PAY-1", "PAY-3"]
    assert (made.doc_ids, made.pdf_ids) == (["migration-runbook.md"], ["security-review.pdf"])
    assert made.search_queries == ["What blocks PAY-3?"]


def test_claims_citing_no_known_source_are_left_out() -> None:
    source = Source(id="PAY-2", kind="ticket", title="t", text="x")
    findings = [AgentFindings(agent="jira_agent", sources=[source],
                              findings=[Finding(claim="x", source="PAY-2")])]  # fmt: skip
    answer = ReportAnswer(
        summary="Two blockers.",
        summary_sources=["PAY-2", "made-up"],
        sections=[SectionAnswer(title="Blockers", claims=[
            Claim(text="PAY-2 is not signed.", sources=["PAY-2"]),
            Claim(text="An invented claim.", sources=["invented.pdf p.9"]),
        ])],
    )  # fmt: skip
    report = render("q", answer, findings, tokens=0)
    assert report.sections[0].content == "- PAY-2 is not signed. [PAY-2]"
    assert report.summary == "Two blockers. [PAY-2]"
    assert report.dropped_claims == 1


def test_every_citation_of_the_report_names_one_of_its_sources() -> None:
    pdf = Source(id="plan.pdf p.1", kind="pdf", title="Plan, page 1", text="x",
                 url="http://docs/plan.pdf#page=1")  # fmt: skip
    tickets = [
        Source(
            id=key, kind="ticket", title=f"ticket {key}", text="x", url=f"http://jira/browse/{key}"
        )  # fmt: skip
        for key in ("OPS-7", "OPS-8")
    ]
    findings = [AgentFindings(agent="jira_agent", sources=[pdf, *tickets])]
    answer = ReportAnswer(
        summary="Vendor sign-off is missing [OPS-7][OPS-8] and [OPS-99] is unknown.",
        summary_sources=["OPS-7"],
        sections=[SectionAnswer(title="Plan", claims=[
            Claim(text="The cut-over waits [see notes] for the audit.", sources=["plan.pdf p.1"]),
        ])],
    )  # fmt: skip
    report = render("q", answer, findings, tokens=0)
    markdown = report_markdown(report)
    listed = {source.id for source in report.sources}
    assert listed == {"plan.pdf p.1", "OPS-7", "OPS-8"}
    assert report.summary == "Vendor sign-off is missing and is unknown. [OPS-7][OPS-8]"
    assert "[see notes]" in report.sections[0].content
    sources_part = markdown.split("## Sources", 1)[1]
    assert "[OPS-8] ticket OPS-8 <http://jira/browse/OPS-8>" in sources_part
    body = markdown.split("## Sources", 1)[0]
    for cited in re.findall(r"\[([A-Z]+-\d+|[\w.]+ p\.\d+)\]", body):
        assert cited in listed, f"{cited} is cited but not among the sources"
