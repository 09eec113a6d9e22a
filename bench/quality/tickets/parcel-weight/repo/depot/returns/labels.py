"""Returns: labels (labels, by carrier)."""

from depot.core.records import Record, field_of


def total_weight_g(records: list[Record]) -> float:
    """The sum of `weight_g` over the labels."""
    return sum(field_of(record, "weight_g", 0) for record in records)


def used_labels(records: list[Record]) -> list[Record]:
    """The labels whose status is `used`."""
    return [record for record in records if record.get("status") == "used"]


def labels_by_carrier(records: list[Record]) -> dict[str, list[Record]]:
    """The labels grouped by their `carrier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("carrier", "")), []).append(record)
    return grouped


def used_share(records: list[Record]) -> float:
    """The percentage of labels that are `used`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(used_labels(records)) / len(records), 1)


def label_label(record: Record) -> str:
    """A one-line description of one of the labels, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('carrier', '-')}): {field_of(record, 'weight_g', 0)} weight_g"
