"""Packing: checks (checks, by packer)."""

from depot.core.records import Record, field_of


def total_mismatches(records: list[Record]) -> float:
    """The sum of `mismatches` over the checks."""
    return sum(field_of(record, "mismatches", 0) for record in records)


def failed_checks(records: list[Record]) -> list[Record]:
    """The checks whose status is `failed`."""
    return [record for record in records if record.get("status") == "failed"]


def checks_by_packer(records: list[Record]) -> dict[str, list[Record]]:
    """The checks grouped by their `packer`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("packer", "")), []).append(record)
    return grouped


def failed_share(records: list[Record]) -> float:
    """The percentage of checks that are `failed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(failed_checks(records)) / len(records), 1)


def check_label(record: Record) -> str:
    """A one-line description of one of the checks, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('packer', '-')}): {field_of(record, 'mismatches', 0)} mismatches"
