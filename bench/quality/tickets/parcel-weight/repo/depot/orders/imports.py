"""Orders: imports (rows, by source)."""

from depot.core.records import Record, field_of


def total_line_number(records: list[Record]) -> float:
    """The sum of `line_number` over the rows."""
    return sum(field_of(record, "line_number", 0) for record in records)


def rejected_rows(records: list[Record]) -> list[Record]:
    """The rows whose status is `rejected`."""
    return [record for record in records if record.get("status") == "rejected"]


def rows_by_source(records: list[Record]) -> dict[str, list[Record]]:
    """The rows grouped by their `source`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("source", "")), []).append(record)
    return grouped


def rejected_share(records: list[Record]) -> float:
    """The percentage of rows that are `rejected`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(rejected_rows(records)) / len(records), 1)


def row_label(record: Record) -> str:
    """A one-line description of one of the rows, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('source', '-')}): {field_of(record, 'line_number', 0)} line_number"
