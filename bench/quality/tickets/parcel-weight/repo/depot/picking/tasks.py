"""Picking: tasks (tasks, by picker)."""

from depot.core.records import Record, field_of


def total_minutes(records: list[Record]) -> float:
    """The sum of `minutes` over the tasks."""
    return sum(field_of(record, "minutes", 0) for record in records)


def done_tasks(records: list[Record]) -> list[Record]:
    """The tasks whose status is `done`."""
    return [record for record in records if record.get("status") == "done"]


def tasks_by_picker(records: list[Record]) -> dict[str, list[Record]]:
    """The tasks grouped by their `picker`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("picker", "")), []).append(record)
    return grouped


def done_share(records: list[Record]) -> float:
    """The percentage of tasks that are `done`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(done_tasks(records)) / len(records), 1)


def task_label(record: Record) -> str:
    """A one-line description of one of the tasks, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('picker', '-')}): {field_of(record, 'minutes', 0)} minutes"
