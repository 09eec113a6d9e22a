"""Suppliers: contracts (contracts, by supplier)."""

from depot.core.records import Record, field_of


def total_months(records: list[Record]) -> float:
    """The sum of `months` over the contracts."""
    return sum(field_of(record, "months", 0) for record in records)


def expired_contracts(records: list[Record]) -> list[Record]:
    """The contracts whose status is `expired`."""
    return [record for record in records if record.get("status") == "expired"]


def contracts_by_supplier(records: list[Record]) -> dict[str, list[Record]]:
    """The contracts grouped by their `supplier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("supplier", "")), []).append(record)
    return grouped


def expired_share(records: list[Record]) -> float:
    """The percentage of contracts that are `expired`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(expired_contracts(records)) / len(records), 1)


def contract_label(record: Record) -> str:
    """A one-line description of one of the contracts, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('supplier', '-')}): {field_of(record, 'months', 0)} months"
