"""Suppliers: claims (claims, by supplier)."""

from depot.core.records import Record, field_of


def total_amount(records: list[Record]) -> float:
    """The sum of `amount` over the claims."""
    return sum(field_of(record, "amount", 0) for record in records)


def settled_claims(records: list[Record]) -> list[Record]:
    """The claims whose status is `settled`."""
    return [record for record in records if record.get("status") == "settled"]


def claims_by_supplier(records: list[Record]) -> dict[str, list[Record]]:
    """The claims grouped by their `supplier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("supplier", "")), []).append(record)
    return grouped


def settled_share(records: list[Record]) -> float:
    """The percentage of claims that are `settled`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(settled_claims(records)) / len(records), 1)


def claim_label(record: Record) -> str:
    """A one-line description of one of the claims, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('supplier', '-')}): {field_of(record, 'amount', 0)} amount"
