"""Billing: invoices (invoices, by customer)."""

from depot.core.records import Record, field_of


def total_amount_due(records: list[Record]) -> float:
    """The sum of `amount_due` over the invoices."""
    return sum(field_of(record, "amount_due", 0) for record in records)


def paid_invoices(records: list[Record]) -> list[Record]:
    """The invoices whose status is `paid`."""
    return [record for record in records if record.get("status") == "paid"]


def invoices_by_customer(records: list[Record]) -> dict[str, list[Record]]:
    """The invoices grouped by their `customer`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("customer", "")), []).append(record)
    return grouped


def paid_share(records: list[Record]) -> float:
    """The percentage of invoices that are `paid`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(paid_invoices(records)) / len(records), 1)


def invoice_label(record: Record) -> str:
    """A one-line description of one of the invoices, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('customer', '-')}): {field_of(record, 'amount_due', 0)} amount_due"
