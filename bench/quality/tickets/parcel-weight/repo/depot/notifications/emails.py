"""Notifications: emails (emails, by template)."""

from depot.core.records import Record, field_of


def total_recipients(records: list[Record]) -> float:
    """The sum of `recipients` over the emails."""
    return sum(field_of(record, "recipients", 0) for record in records)


def bounced_emails(records: list[Record]) -> list[Record]:
    """The emails whose status is `bounced`."""
    return [record for record in records if record.get("status") == "bounced"]


def emails_by_template(records: list[Record]) -> dict[str, list[Record]]:
    """The emails grouped by their `template`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("template", "")), []).append(record)
    return grouped


def bounced_share(records: list[Record]) -> float:
    """The percentage of emails that are `bounced`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(bounced_emails(records)) / len(records), 1)


def email_label(record: Record) -> str:
    """A one-line description of one of the emails, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('template', '-')}): {field_of(record, 'recipients', 0)} recipients"
