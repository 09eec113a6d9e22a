"""Staff: handover (notes, by shift)."""

from depot.core.records import Record, field_of


def total_items(records: list[Record]) -> float:
    """The sum of `items` over the notes."""
    return sum(field_of(record, "items", 0) for record in records)


def read_notes(records: list[Record]) -> list[Record]:
    """The notes whose status is `read`."""
    return [record for record in records if record.get("status") == "read"]


def notes_by_shift(records: list[Record]) -> dict[str, list[Record]]:
    """The notes grouped by their `shift`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("shift", "")), []).append(record)
    return grouped


def read_share(records: list[Record]) -> float:
    """The percentage of notes that are `read`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(read_notes(records)) / len(records), 1)


def note_label(record: Record) -> str:
    """A one-line description of one of the notes, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('shift', '-')}): {field_of(record, 'items', 0)} items"
