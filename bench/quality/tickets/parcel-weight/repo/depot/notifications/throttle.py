"""Notifications: throttle (windows, by channel)."""

from depot.core.records import Record, field_of


def total_sent(records: list[Record]) -> float:
    """The sum of `sent` over the windows."""
    return sum(field_of(record, "sent", 0) for record in records)


def limited_windows(records: list[Record]) -> list[Record]:
    """The windows whose status is `limited`."""
    return [record for record in records if record.get("status") == "limited"]


def windows_by_channel(records: list[Record]) -> dict[str, list[Record]]:
    """The windows grouped by their `channel`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("channel", "")), []).append(record)
    return grouped


def limited_share(records: list[Record]) -> float:
    """The percentage of windows that are `limited`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(limited_windows(records)) / len(records), 1)


def window_label(record: Record) -> str:
    """A one-line description of one of the windows, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('channel', '-')}): {field_of(record, 'sent', 0)} sent"
