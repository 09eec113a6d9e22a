"""Notifications: sms (messages, by country)."""

from depot.core.records import Record, field_of


def total_segments(records: list[Record]) -> float:
    """The sum of `segments` over the messages."""
    return sum(field_of(record, "segments", 0) for record in records)


def failed_messages(records: list[Record]) -> list[Record]:
    """The messages whose status is `failed`."""
    return [record for record in records if record.get("status") == "failed"]


def messages_by_country(records: list[Record]) -> dict[str, list[Record]]:
    """The messages grouped by their `country`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("country", "")), []).append(record)
    return grouped


def failed_share(records: list[Record]) -> float:
    """The percentage of messages that are `failed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(failed_messages(records)) / len(records), 1)


def message_label(record: Record) -> str:
    """A one-line description of one of the messages, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('country', '-')}): {field_of(record, 'segments', 0)} segments"
