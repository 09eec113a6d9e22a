"""The tool server through the MCP SDK's own client: tools, schemas and answers."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import ClientSession

from tests.support.toolserver import mcp_session, tool_server

TOOLS = {"fetch_ticket", "search_tickets", "get_doc", "list_docs", "search_web"}


@pytest.fixture(scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[str, Any]]:
    async with tool_server(tmp_path_factory.mktemp("tools")) as started:
        yield started


async def call(session: ClientSession, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """A successful call's structured answer, checked against the tool's output schema."""
    schemas = {t.name: t.outputSchema for t in (await session.list_tools()).tools}
    result = await session.call_tool(tool, args)
    assert not result.isError, result.content
    assert result.structuredContent is not None
    jsonschema.validate(result.structuredContent, schemas[tool])
    return result.structuredContent


async def test_every_tool_has_valid_input_and_output_schemas(server: tuple[str, Any]) -> None:
    async with mcp_session(server[0]) as session:
        tools = (await session.list_tools()).tools
        assert {t.name for t in tools} == TOOLS
        for tool in tools:
            assert tool.description, tool.name
            jsonschema.Draft202012Validator.check_schema(tool.inputSchema)
            assert tool.outputSchema is not None, tool.name
            jsonschema.Draft202012Validator.check_schema(tool.outputSchema)
        fetch = next(t for t in tools if t.name == "fetch_ticket")
        assert fetch.inputSchema["required"] == ["key"]


async def test_fetch_ticket_reads_jira(server: tuple[str, Any]) -> None:
    async with mcp_session(server[0]) as session:
        ticket = await call(session, "fetch_ticket", {"key": "PAY-2"})
        assert ticket["key"] == "PAY-2" and ticket["id"]
        assert ticket["status"] == "In Progress"
        assert ticket["assignee"] == "Dan Okafor"
        assert ticket["summary"] == "PCI DSS attestation (SAQ-D) for NimbusPay is not signed"
        assert "CISO" in ticket["description"]
        assert ticket["url"].endswith("/browse/PAY-2")


async def test_fetch_ticket_errors_are_tool_errors(server: tuple[str, Any]) -> None:
    async with mcp_session(server[0]) as session:
        missing = await session.call_tool("fetch_ticket", {"key": "PAY-99"})
        assert missing.isError and "PAY-99" in missing.content[0].text  # type: ignore[union-attr]
        malformed = await session.call_tool("fetch_ticket", {"key": "not a key"})
        assert malformed.isError
        assert "not a Jira issue key" in malformed.content[0].text  # type: ignore[union-attr]


async def test_search_tickets_ranks_by_shared_words(server: tuple[str, Any]) -> None:
    async with mcp_session(server[0]) as session:
        hits = await call(session, "search_tickets", {"query": "sandbox consumer sequence"})
        assert hits["tickets"][0]["key"] == "PAY-3"
        assert {"key", "summary", "status", "assignee"} <= set(hits["tickets"][0])


async def test_get_doc_reads_markdown_html_and_pdf_pages(server: tuple[str, Any]) -> None:
    async with mcp_session(server[0]) as session:
        runbook = await call(session, "get_doc", {"doc_id": "migration-runbook.md"})
        assert runbook["kind"] == "markdown" and "2026-03-14" in runbook["markdown"]
        page = await call(session, "get_doc", {"doc_id": "architecture.html"})
        assert page["kind"] == "html" and "<h1>" in page["html"]
        assert "<" not in page["pages"][0]["text"]
        review = await call(session, "get_doc", {"doc_id": "security-review.pdf", "kind": "pdf"})
        assert [p["page_number"] for p in review["pages"]] == [1, 2]
        assert "expected on 2026-02-20" in review["pages"][1]["text"]
        assert "2026-02-20" not in review["pages"][0]["text"]


async def test_get_doc_errors_name_what_exists(server: tuple[str, Any]) -> None:
    async with mcp_session(server[0]) as session:
        missing = await session.call_tool("get_doc", {"doc_id": "nope.md"})
        assert missing.isError and "migration-runbook.md" in missing.content[0].text  # type: ignore[union-attr]
        wrong = await session.call_tool(
            "get_doc", {"doc_id": "migration-runbook.md", "kind": "pdf"}
        )
        assert wrong.isError and "markdown document" in wrong.content[0].text  # type: ignore[union-attr]


async def test_list_docs_and_search_web(server: tuple[str, Any]) -> None:
    async with mcp_session(server[0]) as session:
        catalogue = await call(session, "list_docs", {})
        kinds = {d["doc_id"]: (d["kind"], d["page_count"]) for d in catalogue["docs"]}
        assert kinds["nimbuspay-contract.pdf"] == ("pdf", 3)
        assert kinds["architecture.html"] == ("html", 1)
        found = await call(session, "search_web", {"query": "webhook events order", "limit": 2})
        assert len(found["results"]) == 2
        assert found["results"][0]["url"] == "https://docs.nimbuspay.example/webhooks/ordering"
        assert "sequence" in found["results"][0]["snippet"]


async def test_documents_are_served_at_their_urls(server: tuple[str, Any], tmp_path: Path) -> None:
    import httpx

    async with httpx.AsyncClient(base_url=server[0]) as http:
        pdf = await http.get("/docs/security-review.pdf")
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        assert (await http.get("/docs/nope.pdf")).status_code == 404
