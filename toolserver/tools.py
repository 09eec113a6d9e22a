"""The tools: Jira (`fetch_ticket`, `search_tickets`), documents (`get_doc`, `list_docs`), web."""

import re
from typing import Annotated, Literal

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from pydantic import Field
from temporalio.exceptions import ApplicationError

from integrations.jira.client import JiraClient
from toolserver.documents import DocumentNotFoundError, DocumentStore
from toolserver.metrics import ToolMetrics
from toolserver.models import (
    Doc,
    DocCatalogue,
    SearchResults,
    Ticket,
    TicketBrief,
    TicketHits,
)
from toolserver.search import SearchProvider

KEY_PATTERN = re.compile(r"^[A-Z][A-Z0-9_]+-[1-9][0-9]*$")
MAX_RESULTS = 10

TicketKey = Annotated[str, Field(description="a Jira issue key such as PAY-2")]
DocId = Annotated[str, Field(description="a document id from list_docs, such as runbook.md")]
DocKindWanted = Annotated[
    Literal["any", "markdown", "html", "pdf"],
    Field(description="the kind the caller expects; another kind is an error"),
]
Query = Annotated[str, Field(min_length=1, max_length=500, description="what to look for")]
Limit = Annotated[int, Field(ge=1, le=MAX_RESULTS, description="how many results at most")]


def register_tools(
    mcp: FastMCP,
    jira: JiraClient,
    jira_browse_url: str,
    documents: DocumentStore,
    search: SearchProvider,
    metrics: ToolMetrics,
) -> None:
    """Add the tools to the server; a tool's own failure is an MCP tool error, counted."""

    def failed(tool: str, message: str) -> ToolError:
        metrics.errors.labels(tool, "tool", "").inc()
        return ToolError(message)

    @mcp.tool(structured_output=True)
    async def fetch_ticket(key: TicketKey) -> Ticket:
        """Fetch a Jira issue: status, assignee, summary, description and labels."""
        if not KEY_PATTERN.match(key):
            raise failed("fetch_ticket", f"{key!r} is not a Jira issue key; expected like PAY-2")
        try:
            issue = await jira.get_issue(key)
        except ApplicationError as err:
            raise failed("fetch_ticket", f"Jira could not give {key}: {err}") from err
        return Ticket(
            key=issue.key, id=issue.id, status=issue.status, assignee=issue.assignee,
            summary=issue.summary, description=issue.description, issue_type=issue.issue_type,
            labels=issue.labels, reporter=issue.reporter, updated=issue.updated,
            url=f"{jira_browse_url.rstrip('/')}/browse/{issue.key}",
        )  # fmt: skip

    @mcp.tool(structured_output=True)
    async def search_tickets(query: Query, limit: Limit = 5) -> TicketHits:
        """Find Jira issues whose summary, description or labels mention the query's words."""
        words = query.replace('"', " ").replace("\\", " ")
        try:
            issues = await jira.search_issues(f'text ~ "{words}"', limit)
        except ApplicationError as err:
            raise failed("search_tickets", f"Jira could not search: {err}") from err
        tickets = [
            TicketBrief(key=i.key, summary=i.summary, status=i.status, assignee=i.assignee)
            for i in issues
        ]
        return TicketHits(query=query, tickets=tickets)

    @mcp.tool(structured_output=True)
    async def get_doc(doc_id: DocId, kind: DocKindWanted = "any") -> Doc:
        """Read a document: markdown and HTML as written, PDFs as numbered pages of text."""
        try:
            doc = documents.get(doc_id)
        except DocumentNotFoundError as err:
            raise failed("get_doc", str(err)) from err
        if kind not in ("any", doc.kind):
            raise failed("get_doc", f"{doc_id} is a {doc.kind} document, not {kind}")
        return doc

    @mcp.tool(structured_output=True)
    async def list_docs() -> DocCatalogue:
        """List the documents get_doc can read, with their titles, kinds and page counts."""
        return documents.catalogue()

    @mcp.tool(structured_output=True)
    async def search_web(query: Query, limit: Limit = 5) -> SearchResults:
        """Search the web: pages matching the query, best first, with a snippet and URL."""
        return await search.search(query, limit)
