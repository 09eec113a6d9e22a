"""Delivery ids already handled, so a webhook delivered twice acts once (bounded memory)."""

from collections import OrderedDict
from collections.abc import Awaitable, Callable

from fastapi.responses import JSONResponse

from webhooks.responses import ignored


class DeliveryLog:
    """The most recent delivery ids; the oldest are forgotten beyond `size`."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self._seen: OrderedDict[str, None] = OrderedDict()

    def claim(self, delivery_id: str) -> bool:
        """True the first time an id is claimed; False for a delivery already handled."""
        if delivery_id in self._seen:
            self._seen.move_to_end(delivery_id)
            return False
        self._seen[delivery_id] = None
        while len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return True

    def release(self, delivery_id: str) -> None:
        """Forget a claim whose handling failed, so a redelivery is handled."""
        self._seen.pop(delivery_id, None)

    def __len__(self) -> int:
        return len(self._seen)


async def handled_once(
    deliveries: DeliveryLog,
    delivery: str | None,
    event: str,
    act: Callable[[str | None], Awaitable[JSONResponse]],
) -> JSONResponse:
    """Act on a delivery once; a failure lets the sender's redelivery try again."""
    if delivery and not deliveries.claim(delivery):
        return ignored(f"delivery {delivery} was already handled", event=event)
    try:
        return await act(delivery)
    except Exception:
        if delivery:
            deliveries.release(delivery)
        raise
