"""Orders: promises (promises, by carrier)."""

from depot.core.records import Record, field_of


def total_days(records: list[Record]) -> float:
    """The sum of `days` over the promises."""
    return sum(field_of(record, "days", 0) for record in records)


def broken_promises(records: list[Record]) -> list[Record]:
    """The promises whose status is `broken`."""
    return [record for record in records if record.get("status") == "broken"]


def promises_by_carrier(records: list[Record]) -> dict[str, list[Record]]:
    """The promises grouped by their `carrier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("carrier", "")), []).append(record)
    return grouped


def broken_share(records: list[Record]) -> float:
    """The percentage of promises that are `broken`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(broken_promises(records)) / len(records), 1)


def promise_label(record: Record) -> str:
    """A one-line description of one of the promises, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('carrier', '-')}): {field_of(record, 'days', 0)} days"
