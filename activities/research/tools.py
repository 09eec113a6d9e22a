"""The research activities' side of MCP: the tool server's tools in one session (each call
through the step's journal, `activities.research.journal`), each call traced as a span of the
activity's trace, and the tool server's failures as Temporal should retry them."""

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import timedelta

import httpx
from langchain_core.tools import BaseTool
from langchain_mcp_adapters.interceptors import ToolCallInterceptor
from langchain_mcp_adapters.tools import load_mcp_tools
from mcp.client.streamable_http import streamable_http_client
from temporalio.exceptions import ApplicationError

from activities.mcp_http import CheckedSession, call_http_status, mcp_http_client
from graphs.research.calls import http_status

CALL_TIMEOUT = timedelta(seconds=30)


@contextmanager
def client_span(tool: str) -> Iterator[None]:
    """A client span around one MCP call when OpenTelemetry is installed (a no-op otherwise)."""
    try:
        from opentelemetry import trace
    except ImportError:
        yield
        return
    with trace.get_tracer("ticketsmith.research").start_as_current_span(
        f"MCP tools/call {tool}",
        kind=trace.SpanKind.CLIENT,
        attributes={"mcp.tool": tool, "rpc.system": "jsonrpc", "rpc.method": "tools/call"},
    ):
        yield


@asynccontextmanager
async def mcp_tools(
    url: str, task_id: str, journal: ToolCallInterceptor
) -> AsyncIterator[list[BaseTool]]:
    """The tool server's tools in one MCP session; `task_id` goes with every request."""
    headers = {"X-Ticketsmith-Task": task_id}
    timeout = httpx.Timeout(CALL_TIMEOUT.total_seconds(), read=300)
    async with (
        mcp_http_client(headers, timeout) as http,
        streamable_http_client(f"{url.rstrip('/')}/mcp", http_client=http) as (read, write, _),
        CheckedSession(read, write) as session,
    ):
        await session.initialize()
        yield await load_mcp_tools(session, tool_interceptors=[journal])


def tool_server_error(error: BaseException, url: str) -> ApplicationError:
    """A failure reaching the tool server, as Temporal should retry it (or not)."""
    leaf: BaseException = error
    while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
        leaf = leaf.exceptions[0]
    status = call_http_status(leaf) or http_status(error)
    retryable = status is None or status >= 500 or status in (408, 429)
    what = f"answered {status}" if status else f"could not be reached ({first_message(error)})"
    return ApplicationError(
        f"the tool server at {url} {what}",
        {"status_code": status},
        type="ToolServerUnavailable" if retryable else "ToolServerRefused",
        non_retryable=not retryable,
    )


def first_message(error: BaseException) -> str:
    """The first leaf error's message of an error group, or the error's own."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return f"{type(error).__name__}: {error}"
