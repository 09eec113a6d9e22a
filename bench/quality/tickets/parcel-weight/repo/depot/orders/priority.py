"""Orders: priority (orders, by region)."""

from depot.core.records import Record, field_of


def total_score(records: list[Record]) -> float:
    """The sum of `score` over the orders."""
    return sum(field_of(record, "score", 0) for record in records)


def express_orders(records: list[Record]) -> list[Record]:
    """The orders whose status is `express`."""
    return [record for record in records if record.get("status") == "express"]


def orders_by_region(records: list[Record]) -> dict[str, list[Record]]:
    """The orders grouped by their `region`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("region", "")), []).append(record)
    return grouped


def express_share(records: list[Record]) -> float:
    """The percentage of orders that are `express`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(express_orders(records)) / len(records), 1)


def order_label(record: Record) -> str:
    """A one-line description of one of the orders, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('region', '-')}): {field_of(record, 'score', 0)} score"
