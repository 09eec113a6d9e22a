"""Reports: margins (products, by category)."""

from depot.core.records import Record, field_of


def total_margin(records: list[Record]) -> float:
    """The sum of `margin` over the products."""
    return sum(field_of(record, "margin", 0) for record in records)


def negative_products(records: list[Record]) -> list[Record]:
    """The products whose status is `negative`."""
    return [record for record in records if record.get("status") == "negative"]


def products_by_category(records: list[Record]) -> dict[str, list[Record]]:
    """The products grouped by their `category`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("category", "")), []).append(record)
    return grouped


def negative_share(records: list[Record]) -> float:
    """The percentage of products that are `negative`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(negative_products(records)) / len(records), 1)


def product_label(record: Record) -> str:
    """A one-line description of one of the products, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('category', '-')}): {field_of(record, 'margin', 0)} margin"
