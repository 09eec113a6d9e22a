"""Packing: queues (queues, by station)."""

from depot.core.records import Record, field_of


def total_waiting(records: list[Record]) -> float:
    """The sum of `waiting` over the queues."""
    return sum(field_of(record, "waiting", 0) for record in records)


def stalled_queues(records: list[Record]) -> list[Record]:
    """The queues whose status is `stalled`."""
    return [record for record in records if record.get("status") == "stalled"]


def queues_by_station(records: list[Record]) -> dict[str, list[Record]]:
    """The queues grouped by their `station`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("station", "")), []).append(record)
    return grouped


def stalled_share(records: list[Record]) -> float:
    """The percentage of queues that are `stalled`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(stalled_queues(records)) / len(records), 1)


def queue_label(record: Record) -> str:
    """A one-line description of one of the queues, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('station', '-')}): {field_of(record, 'waiting', 0)} waiting"
