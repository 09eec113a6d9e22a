"""Inventory: cycle (zones, by shift)."""

from depot.core.records import Record, field_of


def total_items(records: list[Record]) -> float:
    """The sum of `items` over the zones."""
    return sum(field_of(record, "items", 0) for record in records)


def due_zones(records: list[Record]) -> list[Record]:
    """The zones whose status is `due`."""
    return [record for record in records if record.get("status") == "due"]


def zones_by_shift(records: list[Record]) -> dict[str, list[Record]]:
    """The zones grouped by their `shift`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("shift", "")), []).append(record)
    return grouped


def due_share(records: list[Record]) -> float:
    """The percentage of zones that are `due`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(due_zones(records)) / len(records), 1)


def zone_label(record: Record) -> str:
    """A one-line description of one of the zones, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('shift', '-')}): {field_of(record, 'items', 0)} items"
