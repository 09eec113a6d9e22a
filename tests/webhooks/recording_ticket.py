"""A stand-in ticket workflow that keeps every signal it is sent, to see what a webhook sent."""

from collections.abc import Sequence
from typing import Any

from temporalio import workflow
from temporalio.common import RawValue, SearchAttributeKey

STATUS = SearchAttributeKey.for_keyword("Status")


@workflow.defn
class RecordingTicket:
    """Runs until terminated, in a given Status if any; answers which signals arrived."""

    def __init__(self) -> None:
        self.received: list[dict[str, Any]] = []

    @workflow.run
    async def run(self, status: str | None = None) -> None:
        """With `status`, shows it as the ticket's Status search attribute, as a ticket does."""
        if status is not None:
            workflow.upsert_search_attributes([STATUS.value_set(status)])
        await workflow.wait_condition(lambda: False)

    @workflow.signal(dynamic=True)
    def record(self, name: str, args: Sequence[RawValue]) -> None:
        payload = workflow.payload_converter().from_payload(args[0].payload, dict)
        self.received.append({"signal": name, "payload": payload})

    @workflow.query
    def signals(self) -> list[dict[str, Any]]:
        return self.received
