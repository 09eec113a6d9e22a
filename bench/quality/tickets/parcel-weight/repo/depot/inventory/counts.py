"""Inventory: counts (counts, by counter)."""

from depot.core.records import Record, field_of


def total_difference(records: list[Record]) -> float:
    """The sum of `difference` over the counts."""
    return sum(field_of(record, "difference", 0) for record in records)


def open_counts(records: list[Record]) -> list[Record]:
    """The counts whose status is `open`."""
    return [record for record in records if record.get("status") == "open"]


def counts_by_counter(records: list[Record]) -> dict[str, list[Record]]:
    """The counts grouped by their `counter`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("counter", "")), []).append(record)
    return grouped


def open_share(records: list[Record]) -> float:
    """The percentage of counts that are `open`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(open_counts(records)) / len(records), 1)


def count_label(record: Record) -> str:
    """A one-line description of one of the counts, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('counter', '-')}): {field_of(record, 'difference', 0)} difference"
