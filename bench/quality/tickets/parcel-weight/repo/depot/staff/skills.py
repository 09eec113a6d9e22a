"""Staff: skills (skills, by area)."""

from depot.core.records import Record, field_of


def total_level(records: list[Record]) -> float:
    """The sum of `level` over the skills."""
    return sum(field_of(record, "level", 0) for record in records)


def expired_skills(records: list[Record]) -> list[Record]:
    """The skills whose status is `expired`."""
    return [record for record in records if record.get("status") == "expired"]


def skills_by_area(records: list[Record]) -> dict[str, list[Record]]:
    """The skills grouped by their `area`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("area", "")), []).append(record)
    return grouped


def expired_share(records: list[Record]) -> float:
    """The percentage of skills that are `expired`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(expired_skills(records)) / len(records), 1)


def skill_label(record: Record) -> str:
    """A one-line description of one of the skills, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('area', '-')}): {field_of(record, 'level', 0)} level"
