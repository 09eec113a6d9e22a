"""Staff: safety (incidents, by hall)."""

from depot.core.records import Record, field_of


def total_severity(records: list[Record]) -> float:
    """The sum of `severity` over the incidents."""
    return sum(field_of(record, "severity", 0) for record in records)


def closed_incidents(records: list[Record]) -> list[Record]:
    """The incidents whose status is `closed`."""
    return [record for record in records if record.get("status") == "closed"]


def incidents_by_hall(records: list[Record]) -> dict[str, list[Record]]:
    """The incidents grouped by their `hall`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("hall", "")), []).append(record)
    return grouped


def closed_share(records: list[Record]) -> float:
    """The percentage of incidents that are `closed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(closed_incidents(records)) / len(records), 1)


def incident_label(record: Record) -> str:
    """A one-line description of one of the incidents, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('hall', '-')}): {field_of(record, 'severity', 0)} severity"
