"""Returns: refunds (refunds, by method)."""

from depot.core.records import Record, field_of


def total_amount(records: list[Record]) -> float:
    """The sum of `amount` over the refunds."""
    return sum(field_of(record, "amount", 0) for record in records)


def issued_refunds(records: list[Record]) -> list[Record]:
    """The refunds whose status is `issued`."""
    return [record for record in records if record.get("status") == "issued"]


def refunds_by_method(records: list[Record]) -> dict[str, list[Record]]:
    """The refunds grouped by their `method`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("method", "")), []).append(record)
    return grouped


def issued_share(records: list[Record]) -> float:
    """The percentage of refunds that are `issued`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(issued_refunds(records)) / len(records), 1)


def refund_label(record: Record) -> str:
    """A one-line description of one of the refunds, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('method', '-')}): {field_of(record, 'amount', 0)} amount"
