"""Customers: contacts (contacts, by role)."""

from depot.core.records import Record, field_of


def total_calls(records: list[Record]) -> float:
    """The sum of `calls` over the contacts."""
    return sum(field_of(record, "calls", 0) for record in records)


def unsubscribed_contacts(records: list[Record]) -> list[Record]:
    """The contacts whose status is `unsubscribed`."""
    return [record for record in records if record.get("status") == "unsubscribed"]


def contacts_by_role(records: list[Record]) -> dict[str, list[Record]]:
    """The contacts grouped by their `role`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("role", "")), []).append(record)
    return grouped


def unsubscribed_share(records: list[Record]) -> float:
    """The percentage of contacts that are `unsubscribed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(unsubscribed_contacts(records)) / len(records), 1)


def contact_label(record: Record) -> str:
    """A one-line description of one of the contacts, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('role', '-')}): {field_of(record, 'calls', 0)} calls"
