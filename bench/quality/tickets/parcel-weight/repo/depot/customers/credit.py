"""Customers: credit (limits, by rating)."""

from depot.core.records import Record, field_of


def total_limit(records: list[Record]) -> float:
    """The sum of `limit` over the limits."""
    return sum(field_of(record, "limit", 0) for record in records)


def frozen_limits(records: list[Record]) -> list[Record]:
    """The limits whose status is `frozen`."""
    return [record for record in records if record.get("status") == "frozen"]


def limits_by_rating(records: list[Record]) -> dict[str, list[Record]]:
    """The limits grouped by their `rating`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("rating", "")), []).append(record)
    return grouped


def frozen_share(records: list[Record]) -> float:
    """The percentage of limits that are `frozen`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(frozen_limits(records)) / len(records), 1)


def limit_label(record: Record) -> str:
    """A one-line description of one of the limits, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('rating', '-')}): {field_of(record, 'limit', 0)} limit"
