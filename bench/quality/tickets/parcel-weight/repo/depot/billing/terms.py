"""Billing: terms (terms, by segment)."""

from depot.core.records import Record, field_of


def total_days(records: list[Record]) -> float:
    """The sum of `days` over the terms."""
    return sum(field_of(record, "days", 0) for record in records)


def custom_terms(records: list[Record]) -> list[Record]:
    """The terms whose status is `custom`."""
    return [record for record in records if record.get("status") == "custom"]


def terms_by_segment(records: list[Record]) -> dict[str, list[Record]]:
    """The terms grouped by their `segment`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("segment", "")), []).append(record)
    return grouped


def custom_share(records: list[Record]) -> float:
    """The percentage of terms that are `custom`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(custom_terms(records)) / len(records), 1)


def term_label(record: Record) -> str:
    """A one-line description of one of the terms, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('segment', '-')}): {field_of(record, 'days', 0)} days"
