"""Picking: batches (batches, by wave)."""

from depot.core.records import Record, field_of


def total_orders(records: list[Record]) -> float:
    """The sum of `orders` over the batches."""
    return sum(field_of(record, "orders", 0) for record in records)


def printed_batches(records: list[Record]) -> list[Record]:
    """The batches whose status is `printed`."""
    return [record for record in records if record.get("status") == "printed"]


def batches_by_wave(records: list[Record]) -> dict[str, list[Record]]:
    """The batches grouped by their `wave`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("wave", "")), []).append(record)
    return grouped


def printed_share(records: list[Record]) -> float:
    """The percentage of batches that are `printed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(printed_batches(records)) / len(records), 1)


def batch_label(record: Record) -> str:
    """A one-line description of one of the batches, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('wave', '-')}): {field_of(record, 'orders', 0)} orders"
