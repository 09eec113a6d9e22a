"""Billing: credits (credits, by reason)."""

from depot.core.records import Record, field_of


def total_amount(records: list[Record]) -> float:
    """The sum of `amount` over the credits."""
    return sum(field_of(record, "amount", 0) for record in records)


def applied_credits(records: list[Record]) -> list[Record]:
    """The credits whose status is `applied`."""
    return [record for record in records if record.get("status") == "applied"]


def credits_by_reason(records: list[Record]) -> dict[str, list[Record]]:
    """The credits grouped by their `reason`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("reason", "")), []).append(record)
    return grouped


def applied_share(records: list[Record]) -> float:
    """The percentage of credits that are `applied`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(applied_credits(records)) / len(records), 1)


def credit_label(record: Record) -> str:
    """A one-line description of one of the credits, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('reason', '-')}): {field_of(record, 'amount', 0)} amount"
