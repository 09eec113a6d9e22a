"""Orders: holds (holds, by reason)."""

from depot.core.records import Record, field_of


def total_days(records: list[Record]) -> float:
    """The sum of `days` over the holds."""
    return sum(field_of(record, "days", 0) for record in records)


def released_holds(records: list[Record]) -> list[Record]:
    """The holds whose status is `released`."""
    return [record for record in records if record.get("status") == "released"]


def holds_by_reason(records: list[Record]) -> dict[str, list[Record]]:
    """The holds grouped by their `reason`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("reason", "")), []).append(record)
    return grouped


def released_share(records: list[Record]) -> float:
    """The percentage of holds that are `released`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(released_holds(records)) / len(records), 1)


def hold_label(record: Record) -> str:
    """A one-line description of one of the holds, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('reason', '-')}): {field_of(record, 'days', 0)} days"
