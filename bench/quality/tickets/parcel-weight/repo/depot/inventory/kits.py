"""Inventory: kits (kits, by kind)."""

from depot.core.records import Record, field_of


def total_parts(records: list[Record]) -> float:
    """The sum of `parts` over the kits."""
    return sum(field_of(record, "parts", 0) for record in records)


def assembled_kits(records: list[Record]) -> list[Record]:
    """The kits whose status is `assembled`."""
    return [record for record in records if record.get("status") == "assembled"]


def kits_by_kind(records: list[Record]) -> dict[str, list[Record]]:
    """The kits grouped by their `kind`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("kind", "")), []).append(record)
    return grouped


def assembled_share(records: list[Record]) -> float:
    """The percentage of kits that are `assembled`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(assembled_kits(records)) / len(records), 1)


def kit_label(record: Record) -> str:
    """A one-line description of one of the kits, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('kind', '-')}): {field_of(record, 'parts', 0)} parts"
