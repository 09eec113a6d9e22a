"""Packing: stations (stations, by hall)."""

from depot.core.records import Record, field_of


def total_parcels(records: list[Record]) -> float:
    """The sum of `parcels` over the stations."""
    return sum(field_of(record, "parcels", 0) for record in records)


def idle_stations(records: list[Record]) -> list[Record]:
    """The stations whose status is `idle`."""
    return [record for record in records if record.get("status") == "idle"]


def stations_by_hall(records: list[Record]) -> dict[str, list[Record]]:
    """The stations grouped by their `hall`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("hall", "")), []).append(record)
    return grouped


def idle_share(records: list[Record]) -> float:
    """The percentage of stations that are `idle`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(idle_stations(records)) / len(records), 1)


def station_label(record: Record) -> str:
    """A one-line description of one of the stations, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('hall', '-')}): {field_of(record, 'parcels', 0)} parcels"
