"""Suppliers: audits (audits, by site)."""

from depot.core.records import Record, field_of


def total_findings(records: list[Record]) -> float:
    """The sum of `findings` over the audits."""
    return sum(field_of(record, "findings", 0) for record in records)


def passed_audits(records: list[Record]) -> list[Record]:
    """The audits whose status is `passed`."""
    return [record for record in records if record.get("status") == "passed"]


def audits_by_site(records: list[Record]) -> dict[str, list[Record]]:
    """The audits grouped by their `site`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("site", "")), []).append(record)
    return grouped


def passed_share(records: list[Record]) -> float:
    """The percentage of audits that are `passed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(passed_audits(records)) / len(records), 1)


def audit_label(record: Record) -> str:
    """A one-line description of one of the audits, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('site', '-')}): {field_of(record, 'findings', 0)} findings"
