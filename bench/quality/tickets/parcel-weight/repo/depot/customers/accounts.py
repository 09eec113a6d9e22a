"""Customers: accounts (accounts, by segment)."""

from depot.core.records import Record, field_of


def total_orders(records: list[Record]) -> float:
    """The sum of `orders` over the accounts."""
    return sum(field_of(record, "orders", 0) for record in records)


def closed_accounts(records: list[Record]) -> list[Record]:
    """The accounts whose status is `closed`."""
    return [record for record in records if record.get("status") == "closed"]


def accounts_by_segment(records: list[Record]) -> dict[str, list[Record]]:
    """The accounts grouped by their `segment`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("segment", "")), []).append(record)
    return grouped


def closed_share(records: list[Record]) -> float:
    """The percentage of accounts that are `closed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(closed_accounts(records)) / len(records), 1)


def account_label(record: Record) -> str:
    """A one-line description of one of the accounts, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('segment', '-')}): {field_of(record, 'orders', 0)} orders"
