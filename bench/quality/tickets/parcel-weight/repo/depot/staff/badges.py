"""Staff: badges (badges, by site)."""

from depot.core.records import Record, field_of


def total_doors(records: list[Record]) -> float:
    """The sum of `doors` over the badges."""
    return sum(field_of(record, "doors", 0) for record in records)


def revoked_badges(records: list[Record]) -> list[Record]:
    """The badges whose status is `revoked`."""
    return [record for record in records if record.get("status") == "revoked"]


def badges_by_site(records: list[Record]) -> dict[str, list[Record]]:
    """The badges grouped by their `site`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("site", "")), []).append(record)
    return grouped


def revoked_share(records: list[Record]) -> float:
    """The percentage of badges that are `revoked`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(revoked_badges(records)) / len(records), 1)


def badge_label(record: Record) -> str:
    """A one-line description of one of the badges, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('site', '-')}): {field_of(record, 'doors', 0)} doors"
