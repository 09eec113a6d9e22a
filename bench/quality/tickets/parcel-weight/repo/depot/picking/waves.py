"""Picking: waves (waves, by shift)."""

from depot.core.records import Record, field_of


def total_orders(records: list[Record]) -> float:
    """The sum of `orders` over the waves."""
    return sum(field_of(record, "orders", 0) for record in records)


def released_waves(records: list[Record]) -> list[Record]:
    """The waves whose status is `released`."""
    return [record for record in records if record.get("status") == "released"]


def waves_by_shift(records: list[Record]) -> dict[str, list[Record]]:
    """The waves grouped by their `shift`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("shift", "")), []).append(record)
    return grouped


def released_share(records: list[Record]) -> float:
    """The percentage of waves that are `released`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(released_waves(records)) / len(records), 1)


def wave_label(record: Record) -> str:
    """A one-line description of one of the waves, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('shift', '-')}): {field_of(record, 'orders', 0)} orders"
