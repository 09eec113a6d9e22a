"""Returns: reasons (reasons, by group)."""

from depot.core.records import Record, field_of


def total_count(records: list[Record]) -> float:
    """The sum of `count` over the reasons."""
    return sum(field_of(record, "count", 0) for record in records)


def hidden_reasons(records: list[Record]) -> list[Record]:
    """The reasons whose status is `hidden`."""
    return [record for record in records if record.get("status") == "hidden"]


def reasons_by_group(records: list[Record]) -> dict[str, list[Record]]:
    """The reasons grouped by their `group`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("group", "")), []).append(record)
    return grouped


def hidden_share(records: list[Record]) -> float:
    """The percentage of reasons that are `hidden`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(hidden_reasons(records)) / len(records), 1)


def reason_label(record: Record) -> str:
    """A one-line description of one of the reasons, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('group', '-')}): {field_of(record, 'count', 0)} count"
