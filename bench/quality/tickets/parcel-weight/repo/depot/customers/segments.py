"""Customers: segments (segments, by owner)."""

from depot.core.records import Record, field_of


def total_members(records: list[Record]) -> float:
    """The sum of `members` over the segments."""
    return sum(field_of(record, "members", 0) for record in records)


def archived_segments(records: list[Record]) -> list[Record]:
    """The segments whose status is `archived`."""
    return [record for record in records if record.get("status") == "archived"]


def segments_by_owner(records: list[Record]) -> dict[str, list[Record]]:
    """The segments grouped by their `owner`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("owner", "")), []).append(record)
    return grouped


def archived_share(records: list[Record]) -> float:
    """The percentage of segments that are `archived`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(archived_segments(records)) / len(records), 1)


def segment_label(record: Record) -> str:
    """A one-line description of one of the segments, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('owner', '-')}): {field_of(record, 'members', 0)} members"
