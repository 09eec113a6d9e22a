"""Notifications: alerts (alerts, by team)."""

from depot.core.records import Record, field_of


def total_severity(records: list[Record]) -> float:
    """The sum of `severity` over the alerts."""
    return sum(field_of(record, "severity", 0) for record in records)


def muted_alerts(records: list[Record]) -> list[Record]:
    """The alerts whose status is `muted`."""
    return [record for record in records if record.get("status") == "muted"]


def alerts_by_team(records: list[Record]) -> dict[str, list[Record]]:
    """The alerts grouped by their `team`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("team", "")), []).append(record)
    return grouped


def muted_share(records: list[Record]) -> float:
    """The percentage of alerts that are `muted`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(muted_alerts(records)) / len(records), 1)


def alert_label(record: Record) -> str:
    """A one-line description of one of the alerts, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('team', '-')}): {field_of(record, 'severity', 0)} severity"
