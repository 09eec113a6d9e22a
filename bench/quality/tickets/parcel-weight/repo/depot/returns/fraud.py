"""Returns: fraud (cases, by channel)."""

from depot.core.records import Record, field_of


def total_score(records: list[Record]) -> float:
    """The sum of `score` over the cases."""
    return sum(field_of(record, "score", 0) for record in records)


def confirmed_cases(records: list[Record]) -> list[Record]:
    """The cases whose status is `confirmed`."""
    return [record for record in records if record.get("status") == "confirmed"]


def cases_by_channel(records: list[Record]) -> dict[str, list[Record]]:
    """The cases grouped by their `channel`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("channel", "")), []).append(record)
    return grouped


def confirmed_share(records: list[Record]) -> float:
    """The percentage of cases that are `confirmed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(confirmed_cases(records)) / len(records), 1)


def case_label(record: Record) -> str:
    """A one-line description of one of the cases, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('channel', '-')}): {field_of(record, 'score', 0)} score"
