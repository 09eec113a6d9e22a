"""Returns: disposal (lots, by method)."""

from depot.core.records import Record, field_of


def total_units(records: list[Record]) -> float:
    """The sum of `units` over the lots."""
    return sum(field_of(record, "units", 0) for record in records)


def recycled_lots(records: list[Record]) -> list[Record]:
    """The lots whose status is `recycled`."""
    return [record for record in records if record.get("status") == "recycled"]


def lots_by_method(records: list[Record]) -> dict[str, list[Record]]:
    """The lots grouped by their `method`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("method", "")), []).append(record)
    return grouped


def recycled_share(records: list[Record]) -> float:
    """The percentage of lots that are `recycled`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(recycled_lots(records)) / len(records), 1)


def lot_label(record: Record) -> str:
    """A one-line description of one of the lots, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('method', '-')}): {field_of(record, 'units', 0)} units"
