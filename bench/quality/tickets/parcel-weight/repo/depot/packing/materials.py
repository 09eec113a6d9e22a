"""Packing: materials (materials, by vendor)."""

from depot.core.records import Record, field_of


def total_cost(records: list[Record]) -> float:
    """The sum of `cost` over the materials."""
    return sum(field_of(record, "cost", 0) for record in records)


def discontinued_materials(records: list[Record]) -> list[Record]:
    """The materials whose status is `discontinued`."""
    return [record for record in records if record.get("status") == "discontinued"]


def materials_by_vendor(records: list[Record]) -> dict[str, list[Record]]:
    """The materials grouped by their `vendor`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("vendor", "")), []).append(record)
    return grouped


def discontinued_share(records: list[Record]) -> float:
    """The percentage of materials that are `discontinued`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(discontinued_materials(records)) / len(records), 1)


def material_label(record: Record) -> str:
    """A one-line description of one of the materials, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('vendor', '-')}): {field_of(record, 'cost', 0)} cost"
