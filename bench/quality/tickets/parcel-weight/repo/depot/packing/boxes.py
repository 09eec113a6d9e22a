"""Packing: boxes (boxes, by size)."""

from depot.core.records import Record, field_of


def total_stock(records: list[Record]) -> float:
    """The sum of `stock` over the boxes."""
    return sum(field_of(record, "stock", 0) for record in records)


def retired_boxes(records: list[Record]) -> list[Record]:
    """The boxes whose status is `retired`."""
    return [record for record in records if record.get("status") == "retired"]


def boxes_by_size(records: list[Record]) -> dict[str, list[Record]]:
    """The boxes grouped by their `size`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("size", "")), []).append(record)
    return grouped


def retired_share(records: list[Record]) -> float:
    """The percentage of boxes that are `retired`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(retired_boxes(records)) / len(records), 1)


def box_label(record: Record) -> str:
    """A one-line description of one of the boxes, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('size', '-')}): {field_of(record, 'stock', 0)} stock"
