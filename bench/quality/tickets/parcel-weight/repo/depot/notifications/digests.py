"""Notifications: digests (digests, by frequency)."""

from depot.core.records import Record, field_of


def total_items(records: list[Record]) -> float:
    """The sum of `items` over the digests."""
    return sum(field_of(record, "items", 0) for record in records)


def skipped_digests(records: list[Record]) -> list[Record]:
    """The digests whose status is `skipped`."""
    return [record for record in records if record.get("status") == "skipped"]


def digests_by_frequency(records: list[Record]) -> dict[str, list[Record]]:
    """The digests grouped by their `frequency`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("frequency", "")), []).append(record)
    return grouped


def skipped_share(records: list[Record]) -> float:
    """The percentage of digests that are `skipped`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(skipped_digests(records)) / len(records), 1)


def digest_label(record: Record) -> str:
    """A one-line description of one of the digests, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('frequency', '-')}): {field_of(record, 'items', 0)} items"
