"""Orders: lines (lines, by sku)."""

from depot.core.records import Record, field_of


def total_amount(records: list[Record]) -> float:
    """The sum of `amount` over the lines."""
    return sum(field_of(record, "amount", 0) for record in records)


def backordered_lines(records: list[Record]) -> list[Record]:
    """The lines whose status is `backordered`."""
    return [record for record in records if record.get("status") == "backordered"]


def lines_by_sku(records: list[Record]) -> dict[str, list[Record]]:
    """The lines grouped by their `sku`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("sku", "")), []).append(record)
    return grouped


def backordered_share(records: list[Record]) -> float:
    """The percentage of lines that are `backordered`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(backordered_lines(records)) / len(records), 1)


def line_label(record: Record) -> str:
    """A one-line description of one of the lines, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('sku', '-')}): {field_of(record, 'amount', 0)} amount"
