"""Customers: addresses (addresses, by country)."""

from depot.core.records import Record, field_of


def total_uses(records: list[Record]) -> float:
    """The sum of `uses` over the addresses."""
    return sum(field_of(record, "uses", 0) for record in records)


def invalid_addresses(records: list[Record]) -> list[Record]:
    """The addresses whose status is `invalid`."""
    return [record for record in records if record.get("status") == "invalid"]


def addresses_by_country(records: list[Record]) -> dict[str, list[Record]]:
    """The addresses grouped by their `country`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("country", "")), []).append(record)
    return grouped


def invalid_share(records: list[Record]) -> float:
    """The percentage of addresses that are `invalid`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(invalid_addresses(records)) / len(records), 1)


def address_label(record: Record) -> str:
    """A one-line description of one of the addresses, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('country', '-')}): {field_of(record, 'uses', 0)} uses"
