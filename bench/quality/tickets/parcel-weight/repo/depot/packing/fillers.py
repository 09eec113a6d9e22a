"""Packing: fillers (fillers, by material)."""

from depot.core.records import Record, field_of


def total_litres(records: list[Record]) -> float:
    """The sum of `litres` over the fillers."""
    return sum(field_of(record, "litres", 0) for record in records)


def empty_fillers(records: list[Record]) -> list[Record]:
    """The fillers whose status is `empty`."""
    return [record for record in records if record.get("status") == "empty"]


def fillers_by_material(records: list[Record]) -> dict[str, list[Record]]:
    """The fillers grouped by their `material`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("material", "")), []).append(record)
    return grouped


def empty_share(records: list[Record]) -> float:
    """The percentage of fillers that are `empty`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(empty_fillers(records)) / len(records), 1)


def filler_label(record: Record) -> str:
    """A one-line description of one of the fillers, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('material', '-')}): {field_of(record, 'litres', 0)} litres"
