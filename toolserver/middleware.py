"""Tool calls seen at the HTTP layer: injected latency and errors, metrics, logs and spans.

MCP's streamable HTTP transport posts JSON-RPC messages; a `tools/call` names its tool, so
faults can be per tool and act before the call reaches the server (no effect, like a failing
proxy), answering with a real HTTP status the client sees.
"""

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import structlog
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from faults.bodies import buffer_json_body
from toolserver.call_log import TASK_HEADER, CallLog
from toolserver.faults import ToolFaults
from toolserver.metrics import ToolMetrics

log = structlog.get_logger("ticketsmith.toolserver")


def called_tool(body: Any) -> tuple[str, Any, Any] | None:
    """The tool name, arguments and JSON-RPC id of a `tools/call` message, else None."""
    if isinstance(body, dict) and body.get("method") == "tools/call":
        params = body.get("params") or {}
        name = params.get("name")
        if isinstance(name, str):
            return name, params.get("arguments"), body.get("id")
    return None


@contextmanager
def server_span(scope: Scope, tool: str) -> Iterator[None]:
    """A span for the call, continuing the caller's trace, when OpenTelemetry is installed."""
    try:
        from opentelemetry import propagate, trace
    except ImportError:
        yield
        return
    carrier = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
    tracer = trace.get_tracer("ticketsmith.toolserver")
    with tracer.start_as_current_span(
        f"MCP tools/call {tool}",
        context=propagate.extract(carrier),
        kind=trace.SpanKind.SERVER,
        attributes={"mcp.tool": tool, "rpc.system": "jsonrpc", "rpc.method": "tools/call"},
    ):
        yield


class ToolCallMiddleware:
    """Applies the faults to `tools/call` requests, measures and records every call."""

    def __init__(
        self, app: ASGIApp, faults: ToolFaults, metrics: ToolMetrics, calls: CallLog
    ) -> None:
        self.app = app
        self.faults = faults
        self.metrics = metrics
        self.calls = calls

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body, receive = await buffer_json_body(scope, receive)
        call = called_tool(body)
        if call is None:
            await self.app(scope, receive, send)
            return
        tool, arguments, request_id = call
        headers = dict(scope["headers"])
        task = headers.get(TASK_HEADER.encode(), b"").decode("latin-1")
        started = time.perf_counter()
        status = 500

        async def recording_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        hit = self.faults.take(tool)
        self.metrics.calls.labels(tool).inc()
        try:
            with server_span(scope, tool):
                if hit and hit.delay_seconds:
                    await asyncio.sleep(hit.delay_seconds)
                if hit and hit.status_code:
                    await self._injected(hit.status_code, hit.retry_after, tool, request_id)(
                        scope, receive, recording_send
                    )
                    self.metrics.errors.labels(tool, "injected", str(hit.status_code)).inc()
                else:
                    await self.app(scope, receive, recording_send)
        finally:
            took = time.perf_counter() - started
            self.metrics.latency.labels(tool).observe(took)
            self.calls.record(tool, arguments, task, status)
            log.info(
                "tool_call",
                tool=tool,
                task=task,
                status_code=status,
                duration_ms=round(took * 1000, 1),
                injected_delay_ms=round(hit.delay_seconds * 1000, 1) if hit else 0.0,
                injected_status=hit.status_code if hit else None,
                session=headers.get(b"mcp-session-id", b"").decode(),
            )

    @staticmethod
    def _injected(
        status: int, retry_after: float | None, tool: str, request_id: Any
    ) -> JSONResponse:
        """An HTTP error carrying a JSON-RPC error body, as a failing server or proxy sends."""
        headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else None
        body = {
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {"code": -32603, "message": f"injected fault: {tool} answered {status}"},
        }
        return JSONResponse(body, status, headers=headers)
