"""Reading workflow histories: the activity calls they made, their length and their size."""

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
