"""Metric helpers: the instruments the worker and the workflow record, and the ticket gauge."""

import asyncio
import logging
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from temporalio.common import SearchAttributePair, TypedSearchAttributes
from temporalio.exceptions import ApplicationError
from temporalio.runtime import (
    MetricBuffer,
    MetricBufferDurationFormat,
    Runtime,
    TelemetryConfig,
)
from temporalio.service import RPCError, RPCStatusCode

from observability.interceptors import error_type
from observability.metrics import (
    ACTIVITY_DURATION,
    ACTIVITY_FAILURES,
    ENDED_STATES,
    MODEL_TOKENS,
    OPEN_STATES,
    PHASE,
    STATUS,
    TICKETS,
    ActivityInstruments,
    TicketGauge,
    metrics_runtime,
    ticket_query,
)
from vocabulary.metrics import HUMAN_WAIT, record_human_wait
from workflows.ticket.messages import Phase, Status


def buffered() -> tuple[Runtime, MetricBuffer]:
    """A runtime whose metrics land in a buffer the test reads."""
    buffer = MetricBuffer(1000, duration_format=MetricBufferDurationFormat.SECONDS)
    return Runtime(telemetry=TelemetryConfig(metrics=buffer)), buffer


def updates(buffer: MetricBuffer) -> list[tuple[str, float, dict[str, Any]]]:
    """(name, value, attributes) of every update so far."""
    return [
        (u.metric.name, u.value, {k: v for k, v in u.attributes.items() if k != "service_name"})
        for u in buffer.retrieve_updates()
    ]


def test_workflow_records_time_waiting_on_people() -> None:
    runtime, buffer = buffered()
    record_human_wait(runtime.metric_meter, "awaiting_approval", timedelta(hours=2))
    assert updates(buffer) == [(HUMAN_WAIT, 7200.0, {"waiting_for": "awaiting_approval"})]


def test_activity_instruments() -> None:
    runtime, buffer = buffered()
    instruments = ActivityInstruments(runtime.metric_meter)
    instruments.finished(timedelta(seconds=1.5))
    instruments.failed("JiraServerError")
    instruments.tokens(321)
    assert updates(buffer) == [
        (ACTIVITY_DURATION, 1.5, {}),
        (ACTIVITY_FAILURES, 1, {"error_type": "JiraServerError"}),
        (MODEL_TOKENS, 321, {}),
    ]


def test_error_types() -> None:
    assert error_type(ApplicationError("no", type="GitHubNotFound")) == "GitHubNotFound"
    assert error_type(ApplicationError("no")) == "ApplicationError"
    assert error_type(TimeoutError()) == "TimeoutError"


def listed(*pairs: tuple[str, str]) -> Any:
    """A `list_workflows` answering running tickets in these phases and statuses."""

    async def list_workflows(query: str) -> Any:
        assert query == "WorkflowType = 'TicketWorkflow' AND ExecutionStatus = 'Running'"
        for phase, status in pairs:
            attributes = [SearchAttributePair(PHASE, phase), SearchAttributePair(STATUS, status)]
            yield SimpleNamespace(typed_search_attributes=TypedSearchAttributes(attributes))

    return list_workflows


async def test_ticket_gauge_lists_running_tickets_once_and_counts_ended_ones() -> None:
    runtime, buffer = buffered()
    asked: list[str] = []
    done = ticket_query(Phase.DONE, Status.COMPLETED)

    async def count_workflows(query: str) -> SimpleNamespace:
        asked.append(query)
        return SimpleNamespace(count=3 if query == done else 0)

    running = [("review", "awaiting_review")] * 2 + [("planning", "running")]
    client: Any = SimpleNamespace(count_workflows=count_workflows, list_workflows=listed(*running))
    gauge = TicketGauge(client, runtime.metric_meter)
    await gauge.refresh()
    assert len(asked) == len(ENDED_STATES) == len(set(asked)) < len(Phase) * len(Status)
    assert ticket_query(Phase.DONE, Status.RUNNING) not in asked
    assert all("ExecutionStatus != 'Running'" in query for query in asked)
    values = {(a["phase"], a["status"]): v for name, v, a in updates(buffer) if name == TICKETS}
    assert values[("done", "completed")] == 3 and values[("planning", "awaiting_approval")] == 0
    assert values[("review", "awaiting_review")] == 2 and values[("planning", "running")] == 1
    assert len(values) == len(OPEN_STATES) + len(ENDED_STATES)
    client.list_workflows = listed()  # the review tickets merged: their pair drops to 0
    await gauge.refresh()
    values = {(a["phase"], a["status"]): v for name, v, a in updates(buffer) if name == TICKETS}
    assert values[("review", "awaiting_review")] == 0


def test_metrics_off_with_port_zero() -> None:
    assert metrics_runtime("127.0.0.1", 0) is None


async def test_ticket_gauge_is_quiet_until_the_namespace_exists(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runtime, _ = buffered()
    answers = ["missing", "missing", "ok", "down"]  # one per refresh, then stop
    stop = asyncio.Event()
    calls = 0

    async def list_workflows(query: str) -> Any:
        nonlocal calls
        refresh, calls = calls, calls + 1
        answer = answers[refresh] if refresh < len(answers) else "stop"
        if answer == "missing":
            raise RPCError("Namespace default is not found.", RPCStatusCode.NOT_FOUND, b"")
        if answer == "down":
            raise RPCError("connection refused", RPCStatusCode.UNAVAILABLE, b"")
        if answer == "stop":
            stop.set()
        for _ in ():
            yield

    async def count_workflows(query: str) -> SimpleNamespace:
        return SimpleNamespace(count=0)

    client: Any = SimpleNamespace(count_workflows=count_workflows, list_workflows=list_workflows)
    with caplog.at_level(logging.DEBUG, logger="ticketsmith.metrics"):
        await asyncio.wait_for(TicketGauge(client, runtime.metric_meter).run(0, stop), 30)
    levels = [(r.levelno, "not found" in r.getMessage()) for r in caplog.records]
    # Not found while the server starts: quiet; down after it counted once: a warning.
    assert levels == [(logging.DEBUG, True), (logging.DEBUG, True), (logging.WARNING, False)]
