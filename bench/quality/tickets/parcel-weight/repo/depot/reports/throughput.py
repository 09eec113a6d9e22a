"""Reports: throughput (hours, by hall)."""

from depot.core.records import Record, field_of


def total_parcels(records: list[Record]) -> float:
    """The sum of `parcels` over the hours."""
    return sum(field_of(record, "parcels", 0) for record in records)


def peak_hours(records: list[Record]) -> list[Record]:
    """The hours whose status is `peak`."""
    return [record for record in records if record.get("status") == "peak"]


def hours_by_hall(records: list[Record]) -> dict[str, list[Record]]:
    """The hours grouped by their `hall`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("hall", "")), []).append(record)
    return grouped


def peak_share(records: list[Record]) -> float:
    """The percentage of hours that are `peak`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(peak_hours(records)) / len(records), 1)


def hour_label(record: Record) -> str:
    """A one-line description of one of the hours, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('hall', '-')}): {field_of(record, 'parcels', 0)} parcels"
