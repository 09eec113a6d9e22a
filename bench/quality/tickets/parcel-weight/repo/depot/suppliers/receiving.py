"""Suppliers: receiving (deliveries, by dock)."""

from depot.core.records import Record, field_of


def total_pallets(records: list[Record]) -> float:
    """The sum of `pallets` over the deliveries."""
    return sum(field_of(record, "pallets", 0) for record in records)


def rejected_deliveries(records: list[Record]) -> list[Record]:
    """The deliveries whose status is `rejected`."""
    return [record for record in records if record.get("status") == "rejected"]


def deliveries_by_dock(records: list[Record]) -> dict[str, list[Record]]:
    """The deliveries grouped by their `dock`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("dock", "")), []).append(record)
    return grouped


def rejected_share(records: list[Record]) -> float:
    """The percentage of deliveries that are `rejected`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(rejected_deliveries(records)) / len(records), 1)


def delivery_label(record: Record) -> str:
    """A one-line description of one of the deliveries, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('dock', '-')}): {field_of(record, 'pallets', 0)} pallets"
