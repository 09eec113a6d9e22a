"""Staff: overtime (entries, by team)."""

from depot.core.records import Record, field_of


def total_hours(records: list[Record]) -> float:
    """The sum of `hours` over the entries."""
    return sum(field_of(record, "hours", 0) for record in records)


def approved_entries(records: list[Record]) -> list[Record]:
    """The entries whose status is `approved`."""
    return [record for record in records if record.get("status") == "approved"]


def entries_by_team(records: list[Record]) -> dict[str, list[Record]]:
    """The entries grouped by their `team`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("team", "")), []).append(record)
    return grouped


def approved_share(records: list[Record]) -> float:
    """The percentage of entries that are `approved`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(approved_entries(records)) / len(records), 1)


def entry_label(record: Record) -> str:
    """A one-line description of one of the entries, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('team', '-')}): {field_of(record, 'hours', 0)} hours"
