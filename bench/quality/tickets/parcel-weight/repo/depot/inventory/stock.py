"""Inventory: stock (items, by location)."""

from depot.core.records import Record, field_of


def total_quantity(records: list[Record]) -> float:
    """The sum of `quantity` over the items."""
    return sum(field_of(record, "quantity", 0) for record in records)


def reserved_items(records: list[Record]) -> list[Record]:
    """The items whose status is `reserved`."""
    return [record for record in records if record.get("status") == "reserved"]


def items_by_location(records: list[Record]) -> dict[str, list[Record]]:
    """The items grouped by their `location`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("location", "")), []).append(record)
    return grouped


def reserved_share(records: list[Record]) -> float:
    """The percentage of items that are `reserved`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(reserved_items(records)) / len(records), 1)


def item_label(record: Record) -> str:
    """A one-line description of one of the items, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('location', '-')}): {field_of(record, 'quantity', 0)} quantity"
