"""Suppliers: samples (samples, by category)."""

from depot.core.records import Record, field_of


def total_units(records: list[Record]) -> float:
    """The sum of `units` over the samples."""
    return sum(field_of(record, "units", 0) for record in records)


def approved_samples(records: list[Record]) -> list[Record]:
    """The samples whose status is `approved`."""
    return [record for record in records if record.get("status") == "approved"]


def samples_by_category(records: list[Record]) -> dict[str, list[Record]]:
    """The samples grouped by their `category`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("category", "")), []).append(record)
    return grouped


def approved_share(records: list[Record]) -> float:
    """The percentage of samples that are `approved`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(approved_samples(records)) / len(records), 1)


def sample_label(record: Record) -> str:
    """A one-line description of one of the samples, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('category', '-')}): {field_of(record, 'units', 0)} units"
