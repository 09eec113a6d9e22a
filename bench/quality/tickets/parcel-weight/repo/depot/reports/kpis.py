"""Reports: kpis (kpis, by owner)."""

from depot.core.records import Record, field_of


def total_value(records: list[Record]) -> float:
    """The sum of `value` over the kpis."""
    return sum(field_of(record, "value", 0) for record in records)


def breached_kpis(records: list[Record]) -> list[Record]:
    """The kpis whose status is `breached`."""
    return [record for record in records if record.get("status") == "breached"]


def kpis_by_owner(records: list[Record]) -> dict[str, list[Record]]:
    """The kpis grouped by their `owner`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("owner", "")), []).append(record)
    return grouped


def breached_share(records: list[Record]) -> float:
    """The percentage of kpis that are `breached`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(breached_kpis(records)) / len(records), 1)


def kpi_label(record: Record) -> str:
    """A one-line description of one of the kpis, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('owner', '-')}): {field_of(record, 'value', 0)} value"
