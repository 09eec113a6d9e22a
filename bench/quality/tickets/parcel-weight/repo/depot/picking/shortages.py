"""Picking: shortages (shortages, by sku)."""

from depot.core.records import Record, field_of


def total_missing(records: list[Record]) -> float:
    """The sum of `missing` over the shortages."""
    return sum(field_of(record, "missing", 0) for record in records)


def resolved_shortages(records: list[Record]) -> list[Record]:
    """The shortages whose status is `resolved`."""
    return [record for record in records if record.get("status") == "resolved"]


def shortages_by_sku(records: list[Record]) -> dict[str, list[Record]]:
    """The shortages grouped by their `sku`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("sku", "")), []).append(record)
    return grouped


def resolved_share(records: list[Record]) -> float:
    """The percentage of shortages that are `resolved`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(resolved_shortages(records)) / len(records), 1)


def shortage_label(record: Record) -> str:
    """A one-line description of one of the shortages, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('sku', '-')}): {field_of(record, 'missing', 0)} missing"
