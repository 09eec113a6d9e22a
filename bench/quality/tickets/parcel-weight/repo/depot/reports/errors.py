"""Reports: errors (errors, by system)."""

from depot.core.records import Record, field_of


def total_count(records: list[Record]) -> float:
    """The sum of `count` over the errors."""
    return sum(field_of(record, "count", 0) for record in records)


def acknowledged_errors(records: list[Record]) -> list[Record]:
    """The errors whose status is `acknowledged`."""
    return [record for record in records if record.get("status") == "acknowledged"]


def errors_by_system(records: list[Record]) -> dict[str, list[Record]]:
    """The errors grouped by their `system`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("system", "")), []).append(record)
    return grouped


def acknowledged_share(records: list[Record]) -> float:
    """The percentage of errors that are `acknowledged`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(acknowledged_errors(records)) / len(records), 1)


def error_label(record: Record) -> str:
    """A one-line description of one of the errors, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('system', '-')}): {field_of(record, 'count', 0)} count"
