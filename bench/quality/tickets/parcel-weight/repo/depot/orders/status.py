"""Orders: status (orders, by channel)."""

from depot.core.records import Record, field_of


def total_items(records: list[Record]) -> float:
    """The sum of `items` over the orders."""
    return sum(field_of(record, "items", 0) for record in records)


def cancelled_orders(records: list[Record]) -> list[Record]:
    """The orders whose status is `cancelled`."""
    return [record for record in records if record.get("status") == "cancelled"]


def orders_by_channel(records: list[Record]) -> dict[str, list[Record]]:
    """The orders grouped by their `channel`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("channel", "")), []).append(record)
    return grouped


def cancelled_share(records: list[Record]) -> float:
    """The percentage of orders that are `cancelled`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(cancelled_orders(records)) / len(records), 1)


def order_label(record: Record) -> str:
    """A one-line description of one of the orders, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('channel', '-')}): {field_of(record, 'items', 0)} items"
