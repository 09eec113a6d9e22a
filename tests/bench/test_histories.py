"""When a history's activities ran: their intervals, and the time they cover together."""

from google.protobuf.timestamp_pb2 import Timestamp
from temporalio.api.history.v1 import (
    ActivityTaskCompletedEventAttributes,
    ActivityTaskFailedEventAttributes,
    ActivityTaskStartedEventAttributes,
    HistoryEvent,
)

from bench.support.histories import activity_intervals, covered


def at(seconds: float, **attributes: object) -> HistoryEvent:
    """An event at `seconds` after the epoch with the given attributes."""
    stamp = Timestamp(seconds=int(seconds), nanos=round(seconds % 1 * 1e9))
    return HistoryEvent(event_time=stamp, **attributes)  # type: ignore[arg-type]


def test_each_attempt_runs_from_its_start_to_its_end() -> None:
    history = [
        at(1.0, activity_task_started_event_attributes=ActivityTaskStartedEventAttributes(
            scheduled_event_id=5)),
        at(1.5, activity_task_started_event_attributes=ActivityTaskStartedEventAttributes(
            scheduled_event_id=6)),
        at(2.25, activity_task_completed_event_attributes=ActivityTaskCompletedEventAttributes(
            scheduled_event_id=5)),
        at(3.0, activity_task_failed_event_attributes=ActivityTaskFailedEventAttributes(
            scheduled_event_id=6)),
    ]  # fmt: skip

    assert activity_intervals(history) == [(1.0, 2.25), (1.5, 3.0)]


def test_an_activity_still_running_has_no_interval() -> None:
    started = ActivityTaskStartedEventAttributes(scheduled_event_id=5)

    assert activity_intervals([at(1.0, activity_task_started_event_attributes=started)]) == []


def test_overlapping_intervals_count_once_and_gaps_not_at_all() -> None:
    assert covered([(2.0, 3.0), (0.0, 1.0), (0.5, 1.5), (2.5, 2.75)]) == 2.5
    assert covered([]) == 0.0
