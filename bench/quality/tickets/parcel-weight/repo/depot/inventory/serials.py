"""Inventory: serials (serials, by model)."""

from depot.core.records import Record, field_of


def total_age_days(records: list[Record]) -> float:
    """The sum of `age_days` over the serials."""
    return sum(field_of(record, "age_days", 0) for record in records)


def scrapped_serials(records: list[Record]) -> list[Record]:
    """The serials whose status is `scrapped`."""
    return [record for record in records if record.get("status") == "scrapped"]


def serials_by_model(records: list[Record]) -> dict[str, list[Record]]:
    """The serials grouped by their `model`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("model", "")), []).append(record)
    return grouped


def scrapped_share(records: list[Record]) -> float:
    """The percentage of serials that are `scrapped`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(scrapped_serials(records)) / len(records), 1)


def serial_label(record: Record) -> str:
    """A one-line description of one of the serials, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('model', '-')}): {field_of(record, 'age_days', 0)} age_days"
