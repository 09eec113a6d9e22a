"""Returns: inspection (inspections, by inspector)."""

from depot.core.records import Record, field_of


def total_defects(records: list[Record]) -> float:
    """The sum of `defects` over the inspections."""
    return sum(field_of(record, "defects", 0) for record in records)


def passed_inspections(records: list[Record]) -> list[Record]:
    """The inspections whose status is `passed`."""
    return [record for record in records if record.get("status") == "passed"]


def inspections_by_inspector(records: list[Record]) -> dict[str, list[Record]]:
    """The inspections grouped by their `inspector`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("inspector", "")), []).append(record)
    return grouped


def passed_share(records: list[Record]) -> float:
    """The percentage of inspections that are `passed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(passed_inspections(records)) / len(records), 1)


def inspection_label(record: Record) -> str:
    """A one-line description of one of the inspections, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('inspector', '-')}): {field_of(record, 'defects', 0)} defects"
