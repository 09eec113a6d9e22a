"""Reading workflow histories: the activity calls they made, when activities ran, their length
and their size."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message
from temporalio.api.common.v1 import Payload
from temporalio.api.history.v1 import HistoryEvent
from temporalio.client import Client

from encryption.store import reference_in


@dataclass
class Call:
    """One activity a workflow scheduled: its type name and its encoded input."""

    name: str
    payloads: list[Payload]


@dataclass
class Size:
    """How long and how large a workflow's history is, children included."""

    events: int = 0
    bytes: int = 0
    largest_payload: int = 0
    largest_payload_where: str = ""
    stored: int = 0  # payloads held in the payload store, the history keeping a reference
    stored_bytes: int = 0


@dataclass
class Timing:
    """A workflow's wall time, children included, and how much of it some activity was running."""

    total: float = 0.0
    busy: float = 0.0

    @property
    def idle(self) -> float:
        """Seconds no activity ran: workflow tasks, child starts, the round trips between."""
        return self.total - self.busy


ACTIVITY_ENDS = (
    "activity_task_completed_event_attributes",
    "activity_task_failed_event_attributes",
    "activity_task_timed_out_event_attributes",
    "activity_task_canceled_event_attributes",
)
CHILD_STARTED = "start_child_workflow_execution_initiated_event_attributes"


def seconds(event: HistoryEvent) -> float:
    """When the event happened, in seconds since the epoch."""
    return event.event_time.seconds + event.event_time.nanos / 1e9


def activity_intervals(history: Sequence[HistoryEvent]) -> list[tuple[float, float]]:
    """From start to end, each activity attempt one workflow's history shows ending."""
    started: dict[int, float] = {}
    intervals = []
    for event in history:
        kind = event.WhichOneof("attributes")
        if kind == "activity_task_started_event_attributes":
            started[event.activity_task_started_event_attributes.scheduled_event_id] = seconds(
                event
            )
        elif kind in ACTIVITY_ENDS:
            scheduled = getattr(event, kind).scheduled_event_id
            if scheduled in started:
                intervals.append((started.pop(scheduled), seconds(event)))
    return intervals


def covered(intervals: Sequence[tuple[float, float]]) -> float:
    """Seconds at least one of the intervals covers (overlaps counted once)."""
    total, reached = 0.0, float("-inf")
    for start, end in sorted(intervals):
        if end > reached:
            total += end - max(start, reached)
            reached = end
    return total


async def timing(client: Client, workflow_id: str) -> Timing:
    """A workflow's first to last event, and the time its activities and its children's ran."""
    history = await events(client, workflow_id)
    busy = covered(await intervals_within(client, history))
    return Timing(total=seconds(history[-1]) - seconds(history[0]), busy=busy)


async def intervals_within(
    client: Client, history: Sequence[HistoryEvent]
) -> list[tuple[float, float]]:
    """The activity intervals of a workflow's history and of its children's."""
    found = activity_intervals(history)
    for event in history:
        if event.WhichOneof("attributes") == CHILD_STARTED:
            child = event.start_child_workflow_execution_initiated_event_attributes.workflow_id
            found += await intervals_within(client, await events(client, child))
    return found


async def events(client: Client, workflow_id: str) -> list[HistoryEvent]:
    """Every event of the latest run of a workflow."""
    history = await client.get_workflow_handle(workflow_id).fetch_history()
    return list(history.events)


async def activity_calls(client: Client, workflow_id: str) -> list[Call]:
    """The activities a workflow and its children scheduled, in the order they were scheduled."""
    calls: list[Call] = []
    for event in await events(client, workflow_id):
        kind = event.WhichOneof("attributes")
        if kind == "activity_task_scheduled_event_attributes":
            attrs = event.activity_task_scheduled_event_attributes
            calls.append(Call(attrs.activity_type.name, list(attrs.input.payloads)))
        elif kind == "start_child_workflow_execution_initiated_event_attributes":
            child = event.start_child_workflow_execution_initiated_event_attributes.workflow_id
            calls += await activity_calls(client, child)
    return calls


def payloads_in(message: Any, where: str = "") -> list[tuple[str, Payload]]:
    """Every Payload inside a protobuf message, with the field path that leads to it."""
    found: list[tuple[str, Payload]] = []
    if isinstance(message, Payload):
        return [(where, message)]
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None:
            continue
        if isinstance(value, Message):
            items = [value]
        elif descriptor.message_type.GetOptions().map_entry:
            value_field = descriptor.message_type.fields_by_name["value"]
            items = list(value.values()) if value_field.message_type else []
        else:
            items = list(value)
        for item in items:
            found += payloads_in(item, f"{where}.{descriptor.name}")
    return found


async def size(client: Client, workflow_id: str) -> Size:
    """Events, bytes and the largest single payload of a workflow and its children."""
    total = Size()
    for event in await events(client, workflow_id):
        total.events += 1
        total.bytes += event.ByteSize()
        kind = event.WhichOneof("attributes") or ""
        for where, payload in payloads_in(getattr(event, kind), kind.removesuffix("_attributes")):
            if reference_in(payload) is not None:
                total.stored += 1
                total.stored_bytes += sum(p.size_bytes for p in payload.external_payloads)
            if payload.ByteSize() > total.largest_payload:
                total.largest_payload = payload.ByteSize()
                total.largest_payload_where = f"{workflow_id}: {where}"
        if kind == "start_child_workflow_execution_initiated_event_attributes":
            child = await size(
                client, event.start_child_workflow_execution_initiated_event_attributes.workflow_id
            )
            total.events += child.events
            total.bytes += child.bytes
            total.stored += child.stored
            total.stored_bytes += child.stored_bytes
            if child.largest_payload > total.largest_payload:
                total.largest_payload = child.largest_payload
                total.largest_payload_where = child.largest_payload_where
    return total
