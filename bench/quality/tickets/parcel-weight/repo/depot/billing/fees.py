"""Billing: fees (fees, by kind)."""

from depot.core.records import Record, field_of


def total_amount(records: list[Record]) -> float:
    """The sum of `amount` over the fees."""
    return sum(field_of(record, "amount", 0) for record in records)


def waived_fees(records: list[Record]) -> list[Record]:
    """The fees whose status is `waived`."""
    return [record for record in records if record.get("status") == "waived"]


def fees_by_kind(records: list[Record]) -> dict[str, list[Record]]:
    """The fees grouped by their `kind`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("kind", "")), []).append(record)
    return grouped


def waived_share(records: list[Record]) -> float:
    """The percentage of fees that are `waived`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(waived_fees(records)) / len(records), 1)


def fee_label(record: Record) -> str:
    """A one-line description of one of the fees, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('kind', '-')}): {field_of(record, 'amount', 0)} amount"
