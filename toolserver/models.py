"""The typed inputs and outputs of the tool server's tools (their MCP schemas come from these)."""

from typing import Literal

from pydantic import BaseModel, Field

DocKind = Literal["markdown", "html", "pdf"]


class Ticket(BaseModel):
    """A Jira issue as `fetch_ticket` returns it; the description as markdown."""

    key: str
    id: str
    status: str
    assignee: str = Field(description="display name; empty when unassigned")
    summary: str
    description: str = ""
    issue_type: str = ""
    labels: list[str] = Field(default_factory=list)
    reporter: str = ""
    updated: str = ""
    url: str = Field(description="where a person reads the issue")


class TicketBrief(BaseModel):
    """One issue a ticket search found."""

    key: str
    summary: str
    status: str
    assignee: str


class TicketHits(BaseModel):
    """The issues a ticket search found, best match first."""

    query: str
    tickets: list[TicketBrief]


class DocPage(BaseModel):
    """One page of a document's text; markdown and HTML documents are one page."""

    page_number: int = Field(ge=1)
    text: str


class Doc(BaseModel):
    """A document from the store: markdown and HTML as they are, PDFs as pages of text."""

    doc_id: str
    title: str
    kind: DocKind
    url: str
    markdown: str | None = None
    html: str | None = None
    pages: list[DocPage] = Field(default_factory=list)


class DocInfo(BaseModel):
    """One entry of the document catalogue."""

    doc_id: str
    title: str
    kind: DocKind
    page_count: int


class DocCatalogue(BaseModel):
    """Every document the store holds."""

    docs: list[DocInfo]


class SearchResult(BaseModel):
    """One hit of a web search."""

    title: str
    snippet: str
    url: str
    score: float = 0.0


class SearchResults(BaseModel):
    """The hits of a web search, best first."""

    query: str
    results: list[SearchResult]
