"""Orders: channels (channels, by market)."""

from depot.core.records import Record, field_of


def total_orders(records: list[Record]) -> float:
    """The sum of `orders` over the channels."""
    return sum(field_of(record, "orders", 0) for record in records)


def paused_channels(records: list[Record]) -> list[Record]:
    """The channels whose status is `paused`."""
    return [record for record in records if record.get("status") == "paused"]


def channels_by_market(records: list[Record]) -> dict[str, list[Record]]:
    """The channels grouped by their `market`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("market", "")), []).append(record)
    return grouped


def paused_share(records: list[Record]) -> float:
    """The percentage of channels that are `paused`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(paused_channels(records)) / len(records), 1)


def channel_label(record: Record) -> str:
    """A one-line description of one of the channels, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('market', '-')}): {field_of(record, 'orders', 0)} orders"
