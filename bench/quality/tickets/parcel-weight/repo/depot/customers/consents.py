"""Customers: consents (consents, by purpose)."""

from depot.core.records import Record, field_of


def total_version(records: list[Record]) -> float:
    """The sum of `version` over the consents."""
    return sum(field_of(record, "version", 0) for record in records)


def withdrawn_consents(records: list[Record]) -> list[Record]:
    """The consents whose status is `withdrawn`."""
    return [record for record in records if record.get("status") == "withdrawn"]


def consents_by_purpose(records: list[Record]) -> dict[str, list[Record]]:
    """The consents grouped by their `purpose`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("purpose", "")), []).append(record)
    return grouped


def withdrawn_share(records: list[Record]) -> float:
    """The percentage of consents that are `withdrawn`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(withdrawn_consents(records)) / len(records), 1)


def consent_label(record: Record) -> str:
    """A one-line description of one of the consents, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('purpose', '-')}): {field_of(record, 'version', 0)} version"
