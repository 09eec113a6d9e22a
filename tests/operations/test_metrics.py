"""Metric helpers: the instruments the worker and the workflow record, and the ticket gauge."""

from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from temporalio.exceptions import ApplicationError
from temporalio.runtime import (
    MetricBuffer,
    MetricBufferDurationFormat,
    Runtime,
    TelemetryConfig,
)

from observability.interceptors import error_type
from observability.metrics import (
    ACTIVITY_DURATION,
    ACTIVITY_FAILURES,
    MODEL_TOKENS,
    TICKETS,
    ActivityInstruments,
    TicketGauge,
    metrics_runtime,
    ticket_query,
)
from workflows.messages import Phase, Status
from workflows.metrics import HUMAN_WAIT, record_human_wait


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


async def test_ticket_gauge_counts_every_phase_and_status() -> None:
    runtime, buffer = buffered()
    asked: list[str] = []
    done = ticket_query(Phase.DONE, Status.COMPLETED)

    async def count_workflows(query: str) -> SimpleNamespace:
        asked.append(query)
        return SimpleNamespace(count=3 if query == done else 0)

    client: Any = SimpleNamespace(count_workflows=count_workflows)
    await TicketGauge(client, runtime.metric_meter).refresh()
    assert len(asked) == len(Phase) * len(Status)
    values = {(a["phase"], a["status"]): v for name, v, a in updates(buffer) if name == TICKETS}
    assert values[("done", "completed")] == 3 and values[("planning", "awaiting_approval")] == 0
    assert "`Status` = 'completed'" in done


def test_metrics_off_with_port_zero() -> None:
    assert metrics_runtime("127.0.0.1", 0) is None
