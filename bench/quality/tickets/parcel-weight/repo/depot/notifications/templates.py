"""Notifications: templates (templates, by language)."""

from depot.core.records import Record, field_of


def total_version(records: list[Record]) -> float:
    """The sum of `version` over the templates."""
    return sum(field_of(record, "version", 0) for record in records)


def draft_templates(records: list[Record]) -> list[Record]:
    """The templates whose status is `draft`."""
    return [record for record in records if record.get("status") == "draft"]


def templates_by_language(records: list[Record]) -> dict[str, list[Record]]:
    """The templates grouped by their `language`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("language", "")), []).append(record)
    return grouped


def draft_share(records: list[Record]) -> float:
    """The percentage of templates that are `draft`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(draft_templates(records)) / len(records), 1)


def template_label(record: Record) -> str:
    """A one-line description of one of the templates, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('language', '-')}): {field_of(record, 'version', 0)} version"
