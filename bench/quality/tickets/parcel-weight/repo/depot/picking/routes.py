"""Picking: routes (stops, by aisle)."""

from depot.core.records import Record, field_of


def total_distance(records: list[Record]) -> float:
    """The sum of `distance` over the stops."""
    return sum(field_of(record, "distance", 0) for record in records)


def skipped_stops(records: list[Record]) -> list[Record]:
    """The stops whose status is `skipped`."""
    return [record for record in records if record.get("status") == "skipped"]


def stops_by_aisle(records: list[Record]) -> dict[str, list[Record]]:
    """The stops grouped by their `aisle`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("aisle", "")), []).append(record)
    return grouped


def skipped_share(records: list[Record]) -> float:
    """The percentage of stops that are `skipped`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(skipped_stops(records)) / len(records), 1)


def stop_label(record: Record) -> str:
    """A one-line description of one of the stops, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('aisle', '-')}): {field_of(record, 'distance', 0)} distance"
