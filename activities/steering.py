"""A running implementation or review round hears its ticket: the guidance people gave and a
stop, read with the ticket workflow's `steering` query before each revision, and what a
revision was given sent back as a signal. Steering is for people: a query or signal that
fails is logged and the run goes on."""

from typing import Any

from temporalio import activity
from temporalio.client import Client

from activities.progress import worker_client
from graphs.implementation.steering import Said, SteeringNews


class TicketSteering:
    """The steering of the ticket whose workflow id a run works for."""

    def __init__(self, workflow_id: str, client: Client | None = None) -> None:
        self._workflow_id = workflow_id
        self._client = client or worker_client()

    async def news(self) -> SteeringNews:
        """What people said so far and who asked to stop, as the ticket records it."""
        if self._client is None:
            return SteeringNews()
        try:
            handle = self._client.get_workflow_handle(self._workflow_id)
            raw: dict[str, Any] = await handle.query("steering")
        except Exception as err:  # noqa: BLE001 (a ticket without steering, a busy server)
            activity.logger.warning("could not read %s's steering: %s", self._workflow_id, err)
            return SteeringNews()
        said = [
            Said(id=int(g["id"]), author=str(g["author"]), text=str(g["text"]))
            for g in raw.get("guidance", [])
        ]
        return SteeringNews(said=said, stop_by=str(raw.get("stop_requested_by") or ""))

    async def given(self, ids: list[int], revision: int) -> None:
        """Tell the ticket that a revision was given these pieces of guidance."""
        if self._client is None or not ids:
            return
        handle = self._client.get_workflow_handle(self._workflow_id)
        try:
            await handle.signal("guidance_given", {"ids": ids, "revision": revision})
        except Exception as err:  # noqa: BLE001
            activity.logger.warning("could not tell %s what was used: %s", self._workflow_id, err)
