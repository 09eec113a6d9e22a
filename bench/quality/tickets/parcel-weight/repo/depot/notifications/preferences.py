"""Notifications: preferences (preferences, by topic)."""

from depot.core.records import Record, field_of


def total_channels(records: list[Record]) -> float:
    """The sum of `channels` over the preferences."""
    return sum(field_of(record, "channels", 0) for record in records)


def opted_out_preferences(records: list[Record]) -> list[Record]:
    """The preferences whose status is `opted_out`."""
    return [record for record in records if record.get("status") == "opted_out"]


def preferences_by_topic(records: list[Record]) -> dict[str, list[Record]]:
    """The preferences grouped by their `topic`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("topic", "")), []).append(record)
    return grouped


def opted_out_share(records: list[Record]) -> float:
    """The percentage of preferences that are `opted_out`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(opted_out_preferences(records)) / len(records), 1)


def preference_label(record: Record) -> str:
    """A one-line description of one of the preferences, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('topic', '-')}): {field_of(record, 'channels', 0)} channels"
