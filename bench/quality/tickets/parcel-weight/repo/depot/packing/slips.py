"""Packing: slips (slips, by language)."""

from depot.core.records import Record, field_of


def total_lines(records: list[Record]) -> float:
    """The sum of `lines` over the slips."""
    return sum(field_of(record, "lines", 0) for record in records)


def reprinted_slips(records: list[Record]) -> list[Record]:
    """The slips whose status is `reprinted`."""
    return [record for record in records if record.get("status") == "reprinted"]


def slips_by_language(records: list[Record]) -> dict[str, list[Record]]:
    """The slips grouped by their `language`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("language", "")), []).append(record)
    return grouped


def reprinted_share(records: list[Record]) -> float:
    """The percentage of slips that are `reprinted`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(reprinted_slips(records)) / len(records), 1)


def slip_label(record: Record) -> str:
    """A one-line description of one of the slips, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('language', '-')}): {field_of(record, 'lines', 0)} lines"
