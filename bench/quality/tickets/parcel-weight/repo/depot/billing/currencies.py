"""Billing: currencies (rates, by currency)."""

from depot.core.records import Record, field_of


def total_rate(records: list[Record]) -> float:
    """The sum of `rate` over the rates."""
    return sum(field_of(record, "rate", 0) for record in records)


def stale_rates(records: list[Record]) -> list[Record]:
    """The rates whose status is `stale`."""
    return [record for record in records if record.get("status") == "stale"]


def rates_by_currency(records: list[Record]) -> dict[str, list[Record]]:
    """The rates grouped by their `currency`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("currency", "")), []).append(record)
    return grouped


def stale_share(records: list[Record]) -> float:
    """The percentage of rates that are `stale`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(stale_rates(records)) / len(records), 1)


def rate_label(record: Record) -> str:
    """A one-line description of one of the rates, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('currency', '-')}): {field_of(record, 'rate', 0)} rate"
