"""Customers: complaints (complaints, by topic)."""

from depot.core.records import Record, field_of


def total_days_open(records: list[Record]) -> float:
    """The sum of `days_open` over the complaints."""
    return sum(field_of(record, "days_open", 0) for record in records)


def escalated_complaints(records: list[Record]) -> list[Record]:
    """The complaints whose status is `escalated`."""
    return [record for record in records if record.get("status") == "escalated"]


def complaints_by_topic(records: list[Record]) -> dict[str, list[Record]]:
    """The complaints grouped by their `topic`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("topic", "")), []).append(record)
    return grouped


def escalated_share(records: list[Record]) -> float:
    """The percentage of complaints that are `escalated`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(escalated_complaints(records)) / len(records), 1)


def complaint_label(record: Record) -> str:
    """A one-line description of one of the complaints, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('topic', '-')}): {field_of(record, 'days_open', 0)} days_open"
