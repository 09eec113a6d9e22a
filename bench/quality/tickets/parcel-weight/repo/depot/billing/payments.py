"""Billing: payments (payments, by method)."""

from depot.core.records import Record, field_of


def total_amount(records: list[Record]) -> float:
    """The sum of `amount` over the payments."""
    return sum(field_of(record, "amount", 0) for record in records)


def refunded_payments(records: list[Record]) -> list[Record]:
    """The payments whose status is `refunded`."""
    return [record for record in records if record.get("status") == "refunded"]


def payments_by_method(records: list[Record]) -> dict[str, list[Record]]:
    """The payments grouped by their `method`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("method", "")), []).append(record)
    return grouped


def refunded_share(records: list[Record]) -> float:
    """The percentage of payments that are `refunded`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(refunded_payments(records)) / len(records), 1)


def payment_label(record: Record) -> str:
    """A one-line description of one of the payments, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('method', '-')}): {field_of(record, 'amount', 0)} amount"
