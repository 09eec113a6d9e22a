"""Staff: training (courses, by trainer)."""

from depot.core.records import Record, field_of


def total_hours(records: list[Record]) -> float:
    """The sum of `hours` over the courses."""
    return sum(field_of(record, "hours", 0) for record in records)


def mandatory_courses(records: list[Record]) -> list[Record]:
    """The courses whose status is `mandatory`."""
    return [record for record in records if record.get("status") == "mandatory"]


def courses_by_trainer(records: list[Record]) -> dict[str, list[Record]]:
    """The courses grouped by their `trainer`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("trainer", "")), []).append(record)
    return grouped


def mandatory_share(records: list[Record]) -> float:
    """The percentage of courses that are `mandatory`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(mandatory_courses(records)) / len(records), 1)


def course_label(record: Record) -> str:
    """A one-line description of one of the courses, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('trainer', '-')}): {field_of(record, 'hours', 0)} hours"
