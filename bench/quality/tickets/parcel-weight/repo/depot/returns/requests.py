"""Returns: requests (requests, by reason)."""

from depot.core.records import Record, field_of


def total_items(records: list[Record]) -> float:
    """The sum of `items` over the requests."""
    return sum(field_of(record, "items", 0) for record in records)


def approved_requests(records: list[Record]) -> list[Record]:
    """The requests whose status is `approved`."""
    return [record for record in records if record.get("status") == "approved"]


def requests_by_reason(records: list[Record]) -> dict[str, list[Record]]:
    """The requests grouped by their `reason`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("reason", "")), []).append(record)
    return grouped


def approved_share(records: list[Record]) -> float:
    """The percentage of requests that are `approved`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(approved_requests(records)) / len(records), 1)


def request_label(record: Record) -> str:
    """A one-line description of one of the requests, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('reason', '-')}): {field_of(record, 'items', 0)} items"
