"""Picking: scanners (scans, by device)."""

from depot.core.records import Record, field_of


def total_attempts(records: list[Record]) -> float:
    """The sum of `attempts` over the scans."""
    return sum(field_of(record, "attempts", 0) for record in records)


def failed_scans(records: list[Record]) -> list[Record]:
    """The scans whose status is `failed`."""
    return [record for record in records if record.get("status") == "failed"]


def scans_by_device(records: list[Record]) -> dict[str, list[Record]]:
    """The scans grouped by their `device`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("device", "")), []).append(record)
    return grouped


def failed_share(records: list[Record]) -> float:
    """The percentage of scans that are `failed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(failed_scans(records)) / len(records), 1)


def scan_label(record: Record) -> str:
    """A one-line description of one of the scans, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('device', '-')}): {field_of(record, 'attempts', 0)} attempts"
