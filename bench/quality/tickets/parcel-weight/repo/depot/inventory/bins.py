"""Inventory: bins (bins, by aisle)."""

from depot.core.records import Record, field_of


def total_capacity(records: list[Record]) -> float:
    """The sum of `capacity` over the bins."""
    return sum(field_of(record, "capacity", 0) for record in records)


def blocked_bins(records: list[Record]) -> list[Record]:
    """The bins whose status is `blocked`."""
    return [record for record in records if record.get("status") == "blocked"]


def bins_by_aisle(records: list[Record]) -> dict[str, list[Record]]:
    """The bins grouped by their `aisle`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("aisle", "")), []).append(record)
    return grouped


def blocked_share(records: list[Record]) -> float:
    """The percentage of bins that are `blocked`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(blocked_bins(records)) / len(records), 1)


def bin_label(record: Record) -> str:
    """A one-line description of one of the bins, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('aisle', '-')}): {field_of(record, 'capacity', 0)} capacity"
