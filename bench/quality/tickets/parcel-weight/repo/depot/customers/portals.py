"""Customers: portals (logins, by browser)."""

from depot.core.records import Record, field_of


def total_sessions(records: list[Record]) -> float:
    """The sum of `sessions` over the logins."""
    return sum(field_of(record, "sessions", 0) for record in records)


def locked_logins(records: list[Record]) -> list[Record]:
    """The logins whose status is `locked`."""
    return [record for record in records if record.get("status") == "locked"]


def logins_by_browser(records: list[Record]) -> dict[str, list[Record]]:
    """The logins grouped by their `browser`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("browser", "")), []).append(record)
    return grouped


def locked_share(records: list[Record]) -> float:
    """The percentage of logins that are `locked`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(locked_logins(records)) / len(records), 1)


def login_label(record: Record) -> str:
    """A one-line description of one of the logins, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('browser', '-')}): {field_of(record, 'sessions', 0)} sessions"
