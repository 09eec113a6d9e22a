"""Reports: weekly (weeks, by region)."""

from depot.core.records import Record, field_of


def total_revenue(records: list[Record]) -> float:
    """The sum of `revenue` over the weeks."""
    return sum(field_of(record, "revenue", 0) for record in records)


def final_weeks(records: list[Record]) -> list[Record]:
    """The weeks whose status is `final`."""
    return [record for record in records if record.get("status") == "final"]


def weeks_by_region(records: list[Record]) -> dict[str, list[Record]]:
    """The weeks grouped by their `region`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("region", "")), []).append(record)
    return grouped


def final_share(records: list[Record]) -> float:
    """The percentage of weeks that are `final`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(final_weeks(records)) / len(records), 1)


def week_label(record: Record) -> str:
    """A one-line description of one of the weeks, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('region', '-')}): {field_of(record, 'revenue', 0)} revenue"
