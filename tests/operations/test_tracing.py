"""Traces: off by default; with an endpoint, spans for workflows, activities and HTTP calls."""

import asyncio
import builtins
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from temporalio import activity, workflow
from temporalio.client import Client
from temporalio.testing import WorkflowEnvironment
from temporalio.worker import Worker

with workflow.unsafe.imports_passed_through():  # the sandbox re-imports this module
    import httpx
    import pytest
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from observability import tracing
    from observability.tracing import (
        TracingUnavailableError,
        traces_url,
        tracing_interceptors,
    )
    from tests.support.traces import recorded_spans


@activity.defn
async def call_jira(url: str) -> int:
    """An activity that makes one HTTP call."""
    async with httpx.AsyncClient() as http:
        return (await http.get(url)).status_code


@workflow.defn
class TracedWorkflow:
    """Calls the activity once."""

    @workflow.run
    async def run(self, url: str) -> int:
        return await workflow.execute_activity(
            call_jira, url, start_to_close_timeout=timedelta(seconds=10)
        )


async def answer_ok(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """A one-shot HTTP server: 200 to anything."""
    await reader.readuntil(b"\r\n\r\n")
    writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
    await writer.drain()
    writer.close()


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    """Tracing on, with this test's spans kept in memory."""
    with recorded_spans() as spans:
        yield spans


def test_off_without_an_endpoint() -> None:
    assert tracing_interceptors(None, "ticketsmith") == []
    assert traces_url("http://collector:4318/") == "http://collector:4318/v1/traces"


def test_clear_error_when_the_extra_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def without_sdk(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("opentelemetry.sdk"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(tracing, "_configured", {})
    monkeypatch.setattr(builtins, "__import__", without_sdk)
    with pytest.raises(TracingUnavailableError, match=r"ticketsmith\[otel\]"):
        tracing_interceptors("http://collector:4318", "ticketsmith")


async def test_spans_for_workflow_activity_and_http(
    dev_server: WorkflowEnvironment, exporter: InMemorySpanExporter
) -> None:
    base = dev_server.client
    interceptors = tracing_interceptors("http://collector:4318", "ticketsmith-test")
    client = Client(
        base.service_client,
        namespace=base.namespace,
        data_converter=base.data_converter,
        interceptors=interceptors,
    )
    queue = f"traced-{uuid.uuid4()}"
    server = await asyncio.start_server(answer_ok, "127.0.0.1", 0)
    url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/rest/api/3/myself"
    async with (
        server,
        Worker(client, task_queue=queue, workflows=[TracedWorkflow], activities=[call_jira]),
    ):
        result = await client.execute_workflow(
            TracedWorkflow.run, url, id=f"traced-{uuid.uuid4()}", task_queue=queue
        )
    assert result == 200
    tracing.flush_traces()
    spans = {span.name: span for span in exporter.get_finished_spans()}
    assert {"StartWorkflow:TracedWorkflow", "RunWorkflow:TracedWorkflow"} <= spans.keys()
    run, http = spans["RunActivity:call_jira"], spans["GET"]
    assert http.parent is not None and http.parent.span_id == run.context.span_id
    assert run.context.trace_id == spans["StartWorkflow:TracedWorkflow"].context.trace_id
