"""The metric the ticket workflow records through `workflow.metric_meter()` (replay-safe), named
once for the workflow and the worker's exporter."""

from datetime import timedelta

from temporalio.common import MetricMeter

HUMAN_WAIT = "ticketsmith_human_wait_seconds"


def record_human_wait(meter: MetricMeter, waiting_for: str, waited: timedelta) -> None:
    """Record one wait on people; `waiting_for` is the status waited in (`awaiting_answers`)."""
    meter.create_histogram_timedelta(
        HUMAN_WAIT, "Time a ticket spent waiting for answers or an approval", "s"
    ).with_additional_attributes({"waiting_for": waiting_for}).record(waited)
