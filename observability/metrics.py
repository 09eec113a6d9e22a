"""Worker metrics: the Temporal runtime's Prometheus endpoint and ticketsmith's own instruments.

Names are listed in the README ("Metrics"); the workflow's own is named in `vocabulary/metrics.py`.
"""

import asyncio
import logging
import time
from collections import Counter
from datetime import timedelta

from temporalio.client import Client
from temporalio.common import MetricMeter, SearchAttributeKey
from temporalio.runtime import PrometheusConfig, Runtime, TelemetryConfig

from vocabulary.metrics import HUMAN_WAIT
from vocabulary.ticket_states import Phase, Status

TICKETS = "ticketsmith_tickets"
MODEL_TOKENS = "ticketsmith_model_tokens"  # exported with the `_total` suffix
ACTIVITY_FAILURES = "ticketsmith_activity_failures"  # exported with the `_total` suffix
ACTIVITY_DURATION = "ticketsmith_activity_duration_seconds"
# From the end of one research agent step to the start of the next (the seed's A2A latency).
RESEARCH_HANDOFF = "ticketsmith_research_handoff_seconds"

WORKING_PHASES = (Phase.REFINEMENT, Phase.PLANNING, Phase.IMPLEMENTATION, Phase.REVIEW)
MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
BUCKETS: dict[str, list[float]] = {
    ACTIVITY_DURATION: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, MINUTE, 5 * MINUTE, 20 * MINUTE],
    HUMAN_WAIT: [MINUTE, 10 * MINUTE, HOUR, 4 * HOUR, DAY, 3 * DAY, 7 * DAY],
    RESEARCH_HANDOFF: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
}

log = logging.getLogger("ticketsmith.metrics")


def metrics_runtime(host: str, port: int) -> Runtime | None:
    """A Temporal runtime serving Prometheus metrics on host:port; None when port is 0."""
    if not port:
        return None
    prometheus = PrometheusConfig(
        bind_address=f"{host}:{port}",
        counters_total_suffix=True,
        durations_as_seconds=True,
        histogram_bucket_overrides=BUCKETS,
    )
    return Runtime(telemetry=TelemetryConfig(metrics=prometheus))


class ActivityInstruments:
    """Per-activity instruments, created from the activity's metric meter."""

    def __init__(self, meter: MetricMeter) -> None:
        self._meter = meter

    def finished(self, took: timedelta) -> None:
        """Record one attempt's duration, whatever its outcome."""
        self._meter.create_histogram_timedelta(
            ACTIVITY_DURATION, "Time per activity attempt", "s"
        ).record(took)

    def failed(self, error_type: str) -> None:
        """Count one failed attempt by error type."""
        self._meter.create_counter(
            ACTIVITY_FAILURES, "Failed activity attempts by error type"
        ).with_additional_attributes({"error_type": error_type}).add(1)

    def handoff(self, after: str, agent: str, took: timedelta) -> None:
        """Record the time from the end of the step `after` ran in to the start of `agent`."""
        self._meter.create_histogram_timedelta(
            RESEARCH_HANDOFF, "Time from the end of one research step to the start of the next", "s"
        ).with_additional_attributes({"from_agent": after, "to_agent": agent}).record(took)

    def tokens(self, used: int) -> None:
        """Count model tokens an agent activity reported."""
        self._meter.create_counter(MODEL_TOKENS, "Model tokens used", "tokens").add(max(used, 0))


# Where a running ticket can be, published (as 0) even when no ticket is there.
OPEN_STATES: list[tuple[Phase, Status]] = [
    *((Phase.REFINEMENT, s) for s in (Status.RUNNING, Status.AWAITING_ANSWERS)),
    *((Phase.PLANNING, s) for s in (Status.RUNNING, Status.AWAITING_APPROVAL)),
    (Phase.IMPLEMENTATION, Status.RUNNING),
    *((Phase.REVIEW, s) for s in (Status.RUNNING, Status.AWAITING_REVIEW)),
    *((phase, Status.AWAITING_BUDGET) for phase in WORKING_PHASES),
]
# How a ticket can have ended: failed and cancelled ones keep the phase they stopped in.
ENDED_STATES: list[tuple[Phase, Status]] = [
    *((Phase.DONE, s) for s in (Status.COMPLETED, Status.MERGED, Status.CLOSED, Status.EXPIRED)),
    *((phase, s) for phase in WORKING_PHASES for s in (Status.FAILED, Status.CANCELLED)),
]
RUNNING_TICKETS = "WorkflowType = 'TicketWorkflow' AND ExecutionStatus = 'Running'"
PHASE = SearchAttributeKey.for_keyword("Phase")
STATUS = SearchAttributeKey.for_keyword("Status")
# A server that has just started may not know the namespace yet: the gauge stays quiet
# until it has counted once, or this long after the worker started.
QUIET_START_S = 600.0


def ticket_query(phase: Phase, status: Status) -> str:
    """The visibility query for ended tickets in one phase and status."""
    return (
        f"WorkflowType = 'TicketWorkflow' AND Phase = '{phase.value}' "
        f"AND `Status` = '{status.value}' AND ExecutionStatus != 'Running'"
    )


class TicketGauge:
    """Publishes how many tickets are in each phase and status, counted in Temporal visibility.

    Running tickets come from one listing, grouped here: visibility groups counts only by
    ExecutionStatus. Ended tickets, too many to list, are counted per way a ticket can end.
    """

    def __init__(self, client: Client, meter: MetricMeter) -> None:
        self._client = client
        self._gauge = meter.create_gauge(TICKETS, "Tickets by phase and status")
        self._counted = False
        self._quiet_until = time.monotonic() + QUIET_START_S
        self._open_seen: set[tuple[str, str]] = {(p.value, s.value) for p, s in OPEN_STATES}

    async def refresh(self) -> None:
        """List the running tickets once and count the ended ones; publish every pair."""
        running: Counter[tuple[str, str]] = Counter()
        async for ticket in self._client.list_workflows(RUNNING_TICKETS):
            attributes = ticket.typed_search_attributes
            running[(attributes.get(PHASE) or "", attributes.get(STATUS) or "")] += 1
        ended = await asyncio.gather(
            *(self._client.count_workflows(ticket_query(p, s)) for p, s in ENDED_STATES)
        )
        self._open_seen |= set(running)  # a pair seen once is set back to 0 when it empties
        for phase, status in self._open_seen:
            self._gauge.set(running[(phase, status)], {"phase": phase, "status": status})
        for (phase, status), count in zip(ENDED_STATES, ended, strict=True):
            self._gauge.set(count.count, {"phase": phase.value, "status": status.value})
        self._counted = True

    async def run(self, interval: float, stop: asyncio.Event) -> None:
        """Refresh every `interval` seconds until `stop` is set; errors are logged, not fatal."""
        while not stop.is_set():
            try:
                await self.refresh()
            except Exception as err:  # visibility may be briefly unavailable
                starting = not self._counted and time.monotonic() < self._quiet_until
                log.log(
                    logging.DEBUG if starting else logging.WARNING,
                    "could not count tickets for the %s gauge: %s",
                    TICKETS,
                    err,
                )
            try:
                await asyncio.wait_for(stop.wait(), timeout=interval)
            except TimeoutError:
                pass
