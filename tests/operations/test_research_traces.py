"""MCP calls in traces: a client span per call, continued by the tool server's span."""

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from activities.research.journal import StepProgress, ToolCallJournal
from activities.research.tools import mcp_tools
from graphs.research.calls import call
from tests.support.toolserver import tool_server
from tests.support.traces import recorded_spans


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    with recorded_spans() as exporter:
        yield exporter


class FakeCheckpoint:
    """Heartbeats go nowhere outside an activity."""

    details: tuple[object, ...] = ()

    def save(self, progress: object) -> None:
        self.details = (progress,)


async def test_each_mcp_call_is_a_span_the_tool_server_continues(
    spans: InMemorySpanExporter, tmp_path: Path
) -> None:
    progress = StepProgress(started_at=datetime.now(UTC))
    journal = ToolCallJournal(FakeCheckpoint(), progress)  # type: ignore[arg-type]
    async with tool_server(tmp_path) as (url, _):
        with trace.get_tracer("test").start_as_current_span("RunActivity:jira_agent") as outer:
            async with mcp_tools(url, "task-1", journal) as tools:
                ticket = await call(tools, "fetch_ticket", {"key": "PAY-2"})
    assert ticket["assignee"] == "Dan Okafor"
    finished = spans.get_finished_spans()
    client = next(
        s for s in finished if s.name == "MCP tools/call fetch_ticket" and s.kind.name == "CLIENT"
    )
    server = next(
        s for s in finished if s.name == "MCP tools/call fetch_ticket" and s.kind.name == "SERVER"
    )
    trace_id = outer.get_span_context().trace_id
    assert client.context.trace_id == server.context.trace_id == trace_id
    assert client.parent is not None and client.parent.span_id == outer.get_span_context().span_id
    assert server.attributes is not None and server.attributes["mcp.tool"] == "fetch_ticket"
    assert journal.calls == 1
