"""Billing: dunning (reminders, by level)."""

from depot.core.records import Record, field_of


def total_days_overdue(records: list[Record]) -> float:
    """The sum of `days_overdue` over the reminders."""
    return sum(field_of(record, "days_overdue", 0) for record in records)


def sent_reminders(records: list[Record]) -> list[Record]:
    """The reminders whose status is `sent`."""
    return [record for record in records if record.get("status") == "sent"]


def reminders_by_level(records: list[Record]) -> dict[str, list[Record]]:
    """The reminders grouped by their `level`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("level", "")), []).append(record)
    return grouped


def sent_share(records: list[Record]) -> float:
    """The percentage of reminders that are `sent`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(sent_reminders(records)) / len(records), 1)


def reminder_label(record: Record) -> str:
    """A one-line description of one of the reminders, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('level', '-')}): {field_of(record, 'days_overdue', 0)} days_overdue"
