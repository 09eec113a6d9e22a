"""Packing: gifts (wraps, by style)."""

from depot.core.records import Record, field_of


def total_minutes(records: list[Record]) -> float:
    """The sum of `minutes` over the wraps."""
    return sum(field_of(record, "minutes", 0) for record in records)


def requested_wraps(records: list[Record]) -> list[Record]:
    """The wraps whose status is `requested`."""
    return [record for record in records if record.get("status") == "requested"]


def wraps_by_style(records: list[Record]) -> dict[str, list[Record]]:
    """The wraps grouped by their `style`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("style", "")), []).append(record)
    return grouped


def requested_share(records: list[Record]) -> float:
    """The percentage of wraps that are `requested`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(requested_wraps(records)) / len(records), 1)


def wrap_label(record: Record) -> str:
    """A one-line description of one of the wraps, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('style', '-')}): {field_of(record, 'minutes', 0)} minutes"
