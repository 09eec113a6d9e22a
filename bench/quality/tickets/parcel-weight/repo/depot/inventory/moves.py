"""Inventory: moves (moves, by reason)."""

from depot.core.records import Record, field_of


def total_units(records: list[Record]) -> float:
    """The sum of `units` over the moves."""
    return sum(field_of(record, "units", 0) for record in records)


def pending_moves(records: list[Record]) -> list[Record]:
    """The moves whose status is `pending`."""
    return [record for record in records if record.get("status") == "pending"]


def moves_by_reason(records: list[Record]) -> dict[str, list[Record]]:
    """The moves grouped by their `reason`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("reason", "")), []).append(record)
    return grouped


def pending_share(records: list[Record]) -> float:
    """The percentage of moves that are `pending`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(pending_moves(records)) / len(records), 1)


def move_label(record: Record) -> str:
    """A one-line description of one of the moves, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('reason', '-')}): {field_of(record, 'units', 0)} units"
