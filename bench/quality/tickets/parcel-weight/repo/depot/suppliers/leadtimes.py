"""Suppliers: leadtimes (quotes, by supplier)."""

from depot.core.records import Record, field_of


def total_days(records: list[Record]) -> float:
    """The sum of `days` over the quotes."""
    return sum(field_of(record, "days", 0) for record in records)


def late_quotes(records: list[Record]) -> list[Record]:
    """The quotes whose status is `late`."""
    return [record for record in records if record.get("status") == "late"]


def quotes_by_supplier(records: list[Record]) -> dict[str, list[Record]]:
    """The quotes grouped by their `supplier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("supplier", "")), []).append(record)
    return grouped


def late_share(records: list[Record]) -> float:
    """The percentage of quotes that are `late`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(late_quotes(records)) / len(records), 1)


def quote_label(record: Record) -> str:
    """A one-line description of one of the quotes, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('supplier', '-')}): {field_of(record, 'days', 0)} days"
