"""Billing: vouchers (vouchers, by campaign)."""

from depot.core.records import Record, field_of


def total_value(records: list[Record]) -> float:
    """The sum of `value` over the vouchers."""
    return sum(field_of(record, "value", 0) for record in records)


def redeemed_vouchers(records: list[Record]) -> list[Record]:
    """The vouchers whose status is `redeemed`."""
    return [record for record in records if record.get("status") == "redeemed"]


def vouchers_by_campaign(records: list[Record]) -> dict[str, list[Record]]:
    """The vouchers grouped by their `campaign`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("campaign", "")), []).append(record)
    return grouped


def redeemed_share(records: list[Record]) -> float:
    """The percentage of vouchers that are `redeemed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(redeemed_vouchers(records)) / len(records), 1)


def voucher_label(record: Record) -> str:
    """A one-line description of one of the vouchers, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('campaign', '-')}): {field_of(record, 'value', 0)} value"
