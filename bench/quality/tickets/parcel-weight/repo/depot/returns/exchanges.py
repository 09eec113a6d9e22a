"""Returns: exchanges (exchanges, by size)."""

from depot.core.records import Record, field_of


def total_items(records: list[Record]) -> float:
    """The sum of `items` over the exchanges."""
    return sum(field_of(record, "items", 0) for record in records)


def shipped_exchanges(records: list[Record]) -> list[Record]:
    """The exchanges whose status is `shipped`."""
    return [record for record in records if record.get("status") == "shipped"]


def exchanges_by_size(records: list[Record]) -> dict[str, list[Record]]:
    """The exchanges grouped by their `size`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("size", "")), []).append(record)
    return grouped


def shipped_share(records: list[Record]) -> float:
    """The percentage of exchanges that are `shipped`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(shipped_exchanges(records)) / len(records), 1)


def exchange_label(record: Record) -> str:
    """A one-line description of one of the exchanges, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('size', '-')}): {field_of(record, 'items', 0)} items"
