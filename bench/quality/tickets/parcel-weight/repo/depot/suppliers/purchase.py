"""Suppliers: purchase (purchases, by supplier)."""

from depot.core.records import Record, field_of


def total_amount(records: list[Record]) -> float:
    """The sum of `amount` over the purchases."""
    return sum(field_of(record, "amount", 0) for record in records)


def received_purchases(records: list[Record]) -> list[Record]:
    """The purchases whose status is `received`."""
    return [record for record in records if record.get("status") == "received"]


def purchases_by_supplier(records: list[Record]) -> dict[str, list[Record]]:
    """The purchases grouped by their `supplier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("supplier", "")), []).append(record)
    return grouped


def received_share(records: list[Record]) -> float:
    """The percentage of purchases that are `received`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(received_purchases(records)) / len(records), 1)


def purchase_label(record: Record) -> str:
    """A one-line description of one of the purchases, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('supplier', '-')}): {field_of(record, 'amount', 0)} amount"
