"""Suppliers: catalogue (products, by brand)."""

from depot.core.records import Record, field_of


def total_price(records: list[Record]) -> float:
    """The sum of `price` over the products."""
    return sum(field_of(record, "price", 0) for record in records)


def delisted_products(records: list[Record]) -> list[Record]:
    """The products whose status is `delisted`."""
    return [record for record in records if record.get("status") == "delisted"]


def products_by_brand(records: list[Record]) -> dict[str, list[Record]]:
    """The products grouped by their `brand`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("brand", "")), []).append(record)
    return grouped


def delisted_share(records: list[Record]) -> float:
    """The percentage of products that are `delisted`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(delisted_products(records)) / len(records), 1)


def product_label(record: Record) -> str:
    """A one-line description of one of the products, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('brand', '-')}): {field_of(record, 'price', 0)} price"
