"""Notifications: schedules (jobs, by queue)."""

from depot.core.records import Record, field_of


def total_interval_minutes(records: list[Record]) -> float:
    """The sum of `interval_minutes` over the jobs."""
    return sum(field_of(record, "interval_minutes", 0) for record in records)


def paused_jobs(records: list[Record]) -> list[Record]:
    """The jobs whose status is `paused`."""
    return [record for record in records if record.get("status") == "paused"]


def jobs_by_queue(records: list[Record]) -> dict[str, list[Record]]:
    """The jobs grouped by their `queue`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("queue", "")), []).append(record)
    return grouped


def paused_share(records: list[Record]) -> float:
    """The percentage of jobs that are `paused`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(paused_jobs(records)) / len(records), 1)


def job_label(record: Record) -> str:
    """A one-line description of one of the jobs, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('queue', '-')}): {field_of(record, 'interval_minutes', 0)} interval_minutes"
