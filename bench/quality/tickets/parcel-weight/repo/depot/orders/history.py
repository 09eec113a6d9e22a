"""Orders: history (events, by actor)."""

from depot.core.records import Record, field_of


def total_sequence(records: list[Record]) -> float:
    """The sum of `sequence` over the events."""
    return sum(field_of(record, "sequence", 0) for record in records)


def reverted_events(records: list[Record]) -> list[Record]:
    """The events whose status is `reverted`."""
    return [record for record in records if record.get("status") == "reverted"]


def events_by_actor(records: list[Record]) -> dict[str, list[Record]]:
    """The events grouped by their `actor`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("actor", "")), []).append(record)
    return grouped


def reverted_share(records: list[Record]) -> float:
    """The percentage of events that are `reverted`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(reverted_events(records)) / len(records), 1)


def event_label(record: Record) -> str:
    """A one-line description of one of the events, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('actor', '-')}): {field_of(record, 'sequence', 0)} sequence"
