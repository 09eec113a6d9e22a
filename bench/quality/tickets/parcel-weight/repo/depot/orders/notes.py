"""Orders: notes (notes, by author)."""

from depot.core.records import Record, field_of


def total_length(records: list[Record]) -> float:
    """The sum of `length` over the notes."""
    return sum(field_of(record, "length", 0) for record in records)


def internal_notes(records: list[Record]) -> list[Record]:
    """The notes whose status is `internal`."""
    return [record for record in records if record.get("status") == "internal"]


def notes_by_author(records: list[Record]) -> dict[str, list[Record]]:
    """The notes grouped by their `author`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("author", "")), []).append(record)
    return grouped


def internal_share(records: list[Record]) -> float:
    """The percentage of notes that are `internal`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(internal_notes(records)) / len(records), 1)


def note_label(record: Record) -> str:
    """A one-line description of one of the notes, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('author', '-')}): {field_of(record, 'length', 0)} length"
