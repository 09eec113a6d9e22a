"""A stand-in ticket workflow that keeps every signal it is sent, to see what a webhook sent."""

from collections.abc import Sequence
from typing import Any

from temporalio import workflow
from temporalio.common import RawValue


@workflow.defn
class RecordingTicket:
    """Runs until terminated; answers which signals arrived, with their payloads as JSON."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

    @workflow.run
    async def run(self) -> None:
        await workflow.wait_condition(lambda: False)

    @workflow.signal(dynamic=True)
    def record(self, name: str, args: Sequence[RawValue]) -> None:
        payload = workflow.payload_converter().from_payload(args[0].payload, dict)
        self.received.append({"signal": name, "payload": payload})

    @workflow.query
    def signals(self) -> list[dict[str, Any]]:
        return self.received
