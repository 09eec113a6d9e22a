"""Customers: loyalty (members, by tier)."""

from depot.core.records import Record, field_of


def total_points(records: list[Record]) -> float:
    """The sum of `points` over the members."""
    return sum(field_of(record, "points", 0) for record in records)


def lapsed_members(records: list[Record]) -> list[Record]:
    """The members whose status is `lapsed`."""
    return [record for record in records if record.get("status") == "lapsed"]


def members_by_tier(records: list[Record]) -> dict[str, list[Record]]:
    """The members grouped by their `tier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("tier", "")), []).append(record)
    return grouped


def lapsed_share(records: list[Record]) -> float:
    """The percentage of members that are `lapsed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(lapsed_members(records)) / len(records), 1)


def member_label(record: Record) -> str:
    """A one-line description of one of the members, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('tier', '-')}): {field_of(record, 'points', 0)} points"
