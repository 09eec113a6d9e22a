"""Staff: rota (shifts, by team)."""

from depot.core.records import Record, field_of


def total_hours(records: list[Record]) -> float:
    """The sum of `hours` over the shifts."""
    return sum(field_of(record, "hours", 0) for record in records)


def swapped_shifts(records: list[Record]) -> list[Record]:
    """The shifts whose status is `swapped`."""
    return [record for record in records if record.get("status") == "swapped"]


def shifts_by_team(records: list[Record]) -> dict[str, list[Record]]:
    """The shifts grouped by their `team`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("team", "")), []).append(record)
    return grouped


def swapped_share(records: list[Record]) -> float:
    """The percentage of shifts that are `swapped`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(swapped_shifts(records)) / len(records), 1)


def shift_label(record: Record) -> str:
    """A one-line description of one of the shifts, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('team', '-')}): {field_of(record, 'hours', 0)} hours"
