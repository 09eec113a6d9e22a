"""The research agents as LangGraph nodes: each reads through MCP tools, then asks the model.

The manager turns the question into the specialists' inputs; the Jira, document, PDF and
search agents read their sources and note findings that cite them; synthesis writes the report.
"""

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from graphs.node_types import AsyncNode
from graphs.research.calls import ToolFailedError, call
from graphs.research.sources import KEY, brief, doc_sources, ticket_source, web_sources
from graphs.research.state import (
    MAX_DOCS,
    MAX_QUERIES,
    MAX_TICKETS,
    AgentFindings,
    FindingsAnswer,
    PlanAnswer,
    ResearchPlan,
    ResearchState,
    Source,
)
from graphs.research.synthesis import make_synthesis
from llm.prompting import task_prompt
from llm.structured import ask_structured

Node = AsyncNode[ResearchState]
SEARCH_LIMIT = 5


def make_manager(model: BaseChatModel, tools: Sequence[BaseTool]) -> Node:
    """The manager: looks around (ticket search, catalogue, web), then plans with the model."""

    async def research_manager(state: ResearchState) -> dict[str, Any]:
        question = state["question"]
        tickets, catalogue, hits = await gather_calls(
            tools,
            [
                ("search_tickets", {"query": question, "limit": SEARCH_LIMIT}),
                ("list_docs", {}),
                ("search_web", {"query": question, "limit": SEARCH_LIMIT}),
            ],
        )
        inputs = {
            "question": question,
            "tickets_found": tickets["tickets"],
            "documents": catalogue["docs"],
            "search_hits": [
                {k: r[k] for k in ("title", "url", "snippet")} for r in hits["results"]
            ],
        }
        system, human = task_prompt("research_plan", inputs, question=question)
        answer, tokens = await ask_structured(model, system, human, PlanAnswer)
        kinds = {d["doc_id"]: d["kind"] for d in catalogue["docs"]}
        keys = [k for k in answer.ticket_keys + KEY.findall(question) if KEY.fullmatch(k)]
        wanted = [d for d in dict.fromkeys(answer.doc_ids) if d in kinds]
        plan = ResearchPlan(
            question=question,
            ticket_keys=list(dict.fromkeys(keys))[:MAX_TICKETS],
            doc_ids=[d for d in wanted if kinds[d] != "pdf"][:MAX_DOCS],
            pdf_ids=[d for d in wanted if kinds[d] == "pdf"][:MAX_DOCS],
            search_queries=[q for q in answer.search_queries if q.strip()][:MAX_QUERIES]
            or [question],
            tokens=tokens,
        )
        return {"plan": plan}

    return research_manager


async def gather_calls(
    tools: Sequence[BaseTool], calls: list[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """Calls of several tools at once; the first failure is raised once every call has ended."""
    answers = await asyncio.gather(*(call(tools, n, a) for n, a in calls), return_exceptions=True)
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
    return answers  # type: ignore[return-value]


Reader = Callable[[Sequence[BaseTool], ResearchPlan], Awaitable[tuple[list[Source], list[str]]]]


async def read_tickets(
    tools: Sequence[BaseTool], plan: ResearchPlan
) -> tuple[list[Source], list[str]]:
    """Fetch every planned ticket, all at once."""
    answers = await gather_answers(tools, "fetch_ticket", [{"key": k} for k in plan.ticket_keys])
    sources, problems = [], []
    for key, answer in zip(plan.ticket_keys, answers, strict=True):
        if isinstance(answer, ToolFailedError):
            problems.append(f"{key}: {answer}")
        else:
            sources.append(ticket_source(answer))
    return sources, problems


async def gather_answers(
    tools: Sequence[BaseTool], name: str, calls: list[dict[str, Any]]
) -> list[dict[str, Any] | ToolFailedError]:
    """Several calls of one tool at once; a tool's own error is returned as the answer.

    Any other failure (the server unreachable, a 500) is raised once every call has ended,
    so the answers that did arrive are kept for the retry.
    """
    answers = await asyncio.gather(*(call(tools, name, a) for a in calls), return_exceptions=True)
    for answer in answers:
        if isinstance(answer, BaseException) and not isinstance(answer, ToolFailedError):
            raise answer
    return answers  # type: ignore[return-value]


def document_reader(kind: str) -> Reader:
    """A reader of the planned documents of one kind (`markdown/html` or `pdf`)."""

    async def read(tools: Sequence[BaseTool], plan: ResearchPlan) -> tuple[list[Source], list[str]]:
        ids = plan.pdf_ids if kind == "pdf" else plan.doc_ids
        wanted = "pdf" if kind == "pdf" else "any"
        answers = await gather_answers(
            tools, "get_doc", [{"doc_id": d, "kind": wanted} for d in ids]
        )
        sources, problems = [], []
        for doc_id, answer in zip(ids, answers, strict=True):
            if isinstance(answer, ToolFailedError):
                problems.append(f"{doc_id}: {answer}")
            else:
                sources += doc_sources(answer)
        return sources, problems

    return read


async def read_web(tools: Sequence[BaseTool], plan: ResearchPlan) -> tuple[list[Source], list[str]]:
    """Run every planned search at once; a page found twice is read once."""
    queries = plan.search_queries
    calls = [{"query": q, "limit": SEARCH_LIMIT} for q in queries]
    found: dict[str, Source] = {}
    problems = []
    for query, answer in zip(
        queries, await gather_answers(tools, "search_web", calls), strict=True
    ):
        if isinstance(answer, ToolFailedError):
            problems.append(f"{query!r}: {answer}")
            continue
        for source in web_sources(answer):
            found.setdefault(source.id, source)
    return list(found.values()), problems


def make_specialist(
    agent: str, reader: Reader, model: BaseChatModel, tools: Sequence[BaseTool]
) -> Node:
    """A specialist: read its sources, then have the model note findings that cite them."""

    async def specialist(state: ResearchState) -> dict[str, Any]:
        plan = state["plan"]
        sources, problems = await reader(tools, plan)
        result = AgentFindings(agent=agent, sources=sources, problems=problems)
        if sources:
            inputs = {"question": plan.question, "sources": brief(sources)}
            role = agent.replace("_", " ")
            system, human = task_prompt(
                "research_findings", inputs, agent=role, question=plan.question
            )
            answer, result.tokens = await ask_structured(model, system, human, FindingsAnswer)
            known = {s.id for s in sources}
            result.findings = [f for f in answer.findings if f.source in known]
        return {"findings": [result]}

    specialist.__name__ = agent
    return specialist


READERS: dict[str, Reader] = {
    "jira_agent": read_tickets,
    "doc_agent": document_reader("markdown/html"),
    "pdf_agent": document_reader("pdf"),
    "search_agent": read_web,
}


def make_agent(name: str, model: BaseChatModel, tools: Sequence[BaseTool]) -> Node:
    """The node of one agent by its registry name."""
    if name == "research_manager":
        return make_manager(model, tools)
    if name == "synthesis_agent":
        return make_synthesis(model)
    if name in READERS:
        return make_specialist(name, READERS[name], model, tools)
    known = ", ".join(["research_manager", *READERS, "synthesis_agent"])
    raise ValueError(f"unknown research agent {name!r}; known: {known}")
