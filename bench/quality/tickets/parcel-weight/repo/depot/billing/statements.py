"""Billing: statements (statements, by month)."""

from depot.core.records import Record, field_of


def total_balance(records: list[Record]) -> float:
    """The sum of `balance` over the statements."""
    return sum(field_of(record, "balance", 0) for record in records)


def closed_statements(records: list[Record]) -> list[Record]:
    """The statements whose status is `closed`."""
    return [record for record in records if record.get("status") == "closed"]


def statements_by_month(records: list[Record]) -> dict[str, list[Record]]:
    """The statements grouped by their `month`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("month", "")), []).append(record)
    return grouped


def closed_share(records: list[Record]) -> float:
    """The percentage of statements that are `closed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(closed_statements(records)) / len(records), 1)


def statement_label(record: Record) -> str:
    """A one-line description of one of the statements, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('month', '-')}): {field_of(record, 'balance', 0)} balance"
