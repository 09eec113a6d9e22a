"""Reports: exports (rows, by report)."""

from depot.core.records import Record, field_of


def total_bytes(records: list[Record]) -> float:
    """The sum of `bytes` over the rows."""
    return sum(field_of(record, "bytes", 0) for record in records)


def truncated_rows(records: list[Record]) -> list[Record]:
    """The rows whose status is `truncated`."""
    return [record for record in records if record.get("status") == "truncated"]


def rows_by_report(records: list[Record]) -> dict[str, list[Record]]:
    """The rows grouped by their `report`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("report", "")), []).append(record)
    return grouped


def truncated_share(records: list[Record]) -> float:
    """The percentage of rows that are `truncated`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(truncated_rows(records)) / len(records), 1)


def row_label(record: Record) -> str:
    """A one-line description of one of the rows, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('report', '-')}): {field_of(record, 'bytes', 0)} bytes"
