"""Inventory: valuation (lots, by category)."""

from depot.core.records import Record, field_of


def total_cost(records: list[Record]) -> float:
    """The sum of `cost` over the lots."""
    return sum(field_of(record, "cost", 0) for record in records)


def written_off_lots(records: list[Record]) -> list[Record]:
    """The lots whose status is `written_off`."""
    return [record for record in records if record.get("status") == "written_off"]


def lots_by_category(records: list[Record]) -> dict[str, list[Record]]:
    """The lots grouped by their `category`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("category", "")), []).append(record)
    return grouped


def written_off_share(records: list[Record]) -> float:
    """The percentage of lots that are `written_off`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(written_off_lots(records)) / len(records), 1)


def lot_label(record: Record) -> str:
    """A one-line description of one of the lots, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('category', '-')}): {field_of(record, 'cost', 0)} cost"
