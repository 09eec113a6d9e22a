"""Staff: absence (absences, by kind)."""

from depot.core.records import Record, field_of


def total_days(records: list[Record]) -> float:
    """The sum of `days` over the absences."""
    return sum(field_of(record, "days", 0) for record in records)


def approved_absences(records: list[Record]) -> list[Record]:
    """The absences whose status is `approved`."""
    return [record for record in records if record.get("status") == "approved"]


def absences_by_kind(records: list[Record]) -> dict[str, list[Record]]:
    """The absences grouped by their `kind`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("kind", "")), []).append(record)
    return grouped


def approved_share(records: list[Record]) -> float:
    """The percentage of absences that are `approved`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(approved_absences(records)) / len(records), 1)


def absence_label(record: Record) -> str:
    """A one-line description of one of the absences, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('kind', '-')}): {field_of(record, 'days', 0)} days"
