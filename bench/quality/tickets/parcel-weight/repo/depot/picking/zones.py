"""Picking: zones (zones, by floor)."""

from depot.core.records import Record, field_of


def total_pickers(records: list[Record]) -> float:
    """The sum of `pickers` over the zones."""
    return sum(field_of(record, "pickers", 0) for record in records)


def closed_zones(records: list[Record]) -> list[Record]:
    """The zones whose status is `closed`."""
    return [record for record in records if record.get("status") == "closed"]


def zones_by_floor(records: list[Record]) -> dict[str, list[Record]]:
    """The zones grouped by their `floor`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("floor", "")), []).append(record)
    return grouped


def closed_share(records: list[Record]) -> float:
    """The percentage of zones that are `closed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(closed_zones(records)) / len(records), 1)


def zone_label(record: Record) -> str:
    """A one-line description of one of the zones, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('floor', '-')}): {field_of(record, 'pickers', 0)} pickers"
