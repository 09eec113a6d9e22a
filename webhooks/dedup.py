"""Delivery ids already handled, so a webhook delivered twice acts once (bounded memory)."""

from collections import OrderedDict


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
