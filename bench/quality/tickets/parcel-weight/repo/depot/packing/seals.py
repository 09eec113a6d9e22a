"""Packing: seals (seals, by tape)."""

from depot.core.records import Record, field_of


def total_metres(records: list[Record]) -> float:
    """The sum of `metres` over the seals."""
    return sum(field_of(record, "metres", 0) for record in records)


def broken_seals(records: list[Record]) -> list[Record]:
    """The seals whose status is `broken`."""
    return [record for record in records if record.get("status") == "broken"]


def seals_by_tape(records: list[Record]) -> dict[str, list[Record]]:
    """The seals grouped by their `tape`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("tape", "")), []).append(record)
    return grouped


def broken_share(records: list[Record]) -> float:
    """The percentage of seals that are `broken`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(broken_seals(records)) / len(records), 1)


def seal_label(record: Record) -> str:
    """A one-line description of one of the seals, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('tape', '-')}): {field_of(record, 'metres', 0)} metres"
