"""Billing: exports (entries, by ledger)."""

from depot.core.records import Record, field_of


def total_amount(records: list[Record]) -> float:
    """The sum of `amount` over the entries."""
    return sum(field_of(record, "amount", 0) for record in records)


def exported_entries(records: list[Record]) -> list[Record]:
    """The entries whose status is `exported`."""
    return [record for record in records if record.get("status") == "exported"]


def entries_by_ledger(records: list[Record]) -> dict[str, list[Record]]:
    """The entries grouped by their `ledger`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("ledger", "")), []).append(record)
    return grouped


def exported_share(records: list[Record]) -> float:
    """The percentage of entries that are `exported`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(exported_entries(records)) / len(records), 1)


def entry_label(record: Record) -> str:
    """A one-line description of one of the entries, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('ledger', '-')}): {field_of(record, 'amount', 0)} amount"
