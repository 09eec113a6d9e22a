"""Reports: daily (days, by site)."""

from depot.core.records import Record, field_of


def total_orders(records: list[Record]) -> float:
    """The sum of `orders` over the days."""
    return sum(field_of(record, "orders", 0) for record in records)


def closed_days(records: list[Record]) -> list[Record]:
    """The days whose status is `closed`."""
    return [record for record in records if record.get("status") == "closed"]


def days_by_site(records: list[Record]) -> dict[str, list[Record]]:
    """The days grouped by their `site`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("site", "")), []).append(record)
    return grouped


def closed_share(records: list[Record]) -> float:
    """The percentage of days that are `closed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(closed_days(records)) / len(records), 1)


def day_label(record: Record) -> str:
    """A one-line description of one of the days, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('site', '-')}): {field_of(record, 'orders', 0)} orders"
