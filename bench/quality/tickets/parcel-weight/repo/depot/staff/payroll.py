"""Staff: payroll (payslips, by month)."""

from depot.core.records import Record, field_of


def total_gross(records: list[Record]) -> float:
    """The sum of `gross` over the payslips."""
    return sum(field_of(record, "gross", 0) for record in records)


def corrected_payslips(records: list[Record]) -> list[Record]:
    """The payslips whose status is `corrected`."""
    return [record for record in records if record.get("status") == "corrected"]


def payslips_by_month(records: list[Record]) -> dict[str, list[Record]]:
    """The payslips grouped by their `month`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("month", "")), []).append(record)
    return grouped


def corrected_share(records: list[Record]) -> float:
    """The percentage of payslips that are `corrected`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(corrected_payslips(records)) / len(records), 1)


def payslip_label(record: Record) -> str:
    """A one-line description of one of the payslips, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('month', '-')}): {field_of(record, 'gross', 0)} gross"
