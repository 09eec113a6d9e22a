"""What the research agents exchange: the plan, sources, findings and the report."""

import operator
from datetime import datetime
from typing import Annotated, Any, Literal, TypedDict

from pydantic import BaseModel, BeforeValidator, Field

SourceKind = Literal["ticket", "doc", "pdf", "web"]
AGENTS = (
    "research_manager",
    "jira_agent",
    "doc_agent",
    "pdf_agent",
    "search_agent",
    "synthesis_agent",
)
MAX_TICKETS, MAX_DOCS, MAX_QUERIES, MAX_FINDINGS = 8, 6, 3, 24
MAX_SECTIONS, MAX_CLAIMS = 8, 16


def capped(limit: int) -> BeforeValidator:
    """Cut a list to `limit` items before the length check (this module imports no model code)."""
    return BeforeValidator(lambda value: value[:limit] if isinstance(value, list) else value)


class PlanAnswer(BaseModel):
    """The manager model's answer: what each specialist should look at."""

    ticket_keys: Annotated[list[str], capped(MAX_TICKETS)] = Field(max_length=MAX_TICKETS)
    doc_ids: Annotated[list[str], capped(MAX_DOCS * 2)] = Field(max_length=MAX_DOCS * 2)
    search_queries: Annotated[list[str], capped(MAX_QUERIES)] = Field(max_length=MAX_QUERIES)


class ResearchPlan(BaseModel):
    """The specialists' inputs, checked against what exists."""

    question: str
    ticket_keys: list[str] = Field(default_factory=list)
    doc_ids: list[str] = Field(default_factory=list)
    pdf_ids: list[str] = Field(default_factory=list)
    search_queries: list[str] = Field(default_factory=list)
    tokens: int = 0


class Source(BaseModel):
    """Something an agent read: its citation id, text and where it lives."""

    id: str = Field(description="the citation: PAY-2, runbook.md, contract.pdf p.3 or a URL")
    kind: SourceKind
    title: str
    text: str
    url: str = ""


class Finding(BaseModel):
    """One claim and the source it comes from."""

    claim: str = Field(min_length=1)
    source: str = Field(description="the id of the source the claim comes from")


class FindingsAnswer(BaseModel):
    """A specialist model's answer."""

    findings: Annotated[list[Finding], capped(MAX_FINDINGS)] = Field(max_length=MAX_FINDINGS)


class AgentFindings(BaseModel):
    """What one specialist agent found, with the sources it read."""

    agent: str
    sources: list[Source] = Field(default_factory=list)
    findings: list[Finding] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list, description="what could not be read")
    tokens: int = 0


class Claim(BaseModel):
    """A sentence of the report and the sources backing it."""

    text: str = Field(min_length=1)
    sources: list[str] = Field(min_length=1, max_length=4)


class SectionAnswer(BaseModel):
    """One section as the synthesis model writes it."""

    title: str
    claims: Annotated[list[Claim], capped(MAX_CLAIMS)] = Field(max_length=MAX_CLAIMS)


class ReportAnswer(BaseModel):
    """The synthesis model's answer."""

    summary: str
    summary_sources: Annotated[list[str], capped(6)] = Field(default_factory=list, max_length=6)
    sections: Annotated[list[SectionAnswer], capped(MAX_SECTIONS)] = Field(max_length=MAX_SECTIONS)


class ReportSection(BaseModel):
    """A section of the report: markdown whose every claim ends with its citations."""

    title: str
    content: str
    sources: list[str] = Field(default_factory=list)


class Report(BaseModel):
    """The research report: `{sections: [{title, content}], summary}`."""

    question: str
    summary: str
    sections: list[ReportSection]
    sources: list[Source] = Field(default_factory=list)
    dropped_claims: int = Field(default=0, description="claims left out for citing nothing known")
    tokens: int = 0


class ResearchState(TypedDict, total=False):
    """The graph's state: specialists' findings merge into one list for synthesis."""

    question: str
    plan: ResearchPlan
    findings: Annotated[list[AgentFindings], operator.add]
    report: Report


class StepOutput(BaseModel):
    """What a research agent step leaves in the graph's state: its result and its timing."""

    agent: str
    result: dict[str, Any]
    started_at: datetime
    finished_at: datetime
    # From the end of the step this one waited for (the latest, when it waited for several).
    handoff_seconds: float | None = None
    after: str | None = Field(default=None, description="the agent of that step")
    attempt: int = 1
    tool_calls: int = Field(default=0, description="calls this attempt made to the tool server")
    resumed_calls: int = Field(
        default=0, description="calls answered from earlier attempts' checkpoint, not repeated"
    )
