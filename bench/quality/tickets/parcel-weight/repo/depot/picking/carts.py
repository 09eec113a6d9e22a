"""Picking: carts (carts, by zone)."""

from depot.core.records import Record, field_of


def total_slots(records: list[Record]) -> float:
    """The sum of `slots` over the carts."""
    return sum(field_of(record, "slots", 0) for record in records)


def full_carts(records: list[Record]) -> list[Record]:
    """The carts whose status is `full`."""
    return [record for record in records if record.get("status") == "full"]


def carts_by_zone(records: list[Record]) -> dict[str, list[Record]]:
    """The carts grouped by their `zone`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("zone", "")), []).append(record)
    return grouped


def full_share(records: list[Record]) -> float:
    """The percentage of carts that are `full`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(full_carts(records)) / len(records), 1)


def cart_label(record: Record) -> str:
    """A one-line description of one of the carts, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('zone', '-')}): {field_of(record, 'slots', 0)} slots"
