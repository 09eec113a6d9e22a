"""Orders: splits (splits, by warehouse)."""

from depot.core.records import Record, field_of


def total_lines(records: list[Record]) -> float:
    """The sum of `lines` over the splits."""
    return sum(field_of(record, "lines", 0) for record in records)


def merged_splits(records: list[Record]) -> list[Record]:
    """The splits whose status is `merged`."""
    return [record for record in records if record.get("status") == "merged"]


def splits_by_warehouse(records: list[Record]) -> dict[str, list[Record]]:
    """The splits grouped by their `warehouse`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("warehouse", "")), []).append(record)
    return grouped


def merged_share(records: list[Record]) -> float:
    """The percentage of splits that are `merged`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(merged_splits(records)) / len(records), 1)


def split_label(record: Record) -> str:
    """A one-line description of one of the splits, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('warehouse', '-')}): {field_of(record, 'lines', 0)} lines"
