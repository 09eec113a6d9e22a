"""Notifications: webhooks (calls, by endpoint)."""

from depot.core.records import Record, field_of


def total_attempts(records: list[Record]) -> float:
    """The sum of `attempts` over the calls."""
    return sum(field_of(record, "attempts", 0) for record in records)


def dead_calls(records: list[Record]) -> list[Record]:
    """The calls whose status is `dead`."""
    return [record for record in records if record.get("status") == "dead"]


def calls_by_endpoint(records: list[Record]) -> dict[str, list[Record]]:
    """The calls grouped by their `endpoint`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("endpoint", "")), []).append(record)
    return grouped


def dead_share(records: list[Record]) -> float:
    """The percentage of calls that are `dead`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(dead_calls(records)) / len(records), 1)


def call_label(record: Record) -> str:
    """A one-line description of one of the calls, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('endpoint', '-')}): {field_of(record, 'attempts', 0)} attempts"
