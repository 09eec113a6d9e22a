"""Inventory: reorder (rules, by supplier)."""

from depot.core.records import Record, field_of


def total_minimum(records: list[Record]) -> float:
    """The sum of `minimum` over the rules."""
    return sum(field_of(record, "minimum", 0) for record in records)


def active_rules(records: list[Record]) -> list[Record]:
    """The rules whose status is `active`."""
    return [record for record in records if record.get("status") == "active"]


def rules_by_supplier(records: list[Record]) -> dict[str, list[Record]]:
    """The rules grouped by their `supplier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("supplier", "")), []).append(record)
    return grouped


def active_share(records: list[Record]) -> float:
    """The percentage of rules that are `active`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(active_rules(records)) / len(records), 1)


def rule_label(record: Record) -> str:
    """A one-line description of one of the rules, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('supplier', '-')}): {field_of(record, 'minimum', 0)} minimum"
