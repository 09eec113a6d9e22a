"""Reports: forecasts (forecasts, by sku)."""

from depot.core.records import Record, field_of


def total_units(records: list[Record]) -> float:
    """The sum of `units` over the forecasts."""
    return sum(field_of(record, "units", 0) for record in records)


def revised_forecasts(records: list[Record]) -> list[Record]:
    """The forecasts whose status is `revised`."""
    return [record for record in records if record.get("status") == "revised"]


def forecasts_by_sku(records: list[Record]) -> dict[str, list[Record]]:
    """The forecasts grouped by their `sku`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("sku", "")), []).append(record)
    return grouped


def revised_share(records: list[Record]) -> float:
    """The percentage of forecasts that are `revised`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(revised_forecasts(records)) / len(records), 1)


def forecast_label(record: Record) -> str:
    """A one-line description of one of the forecasts, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('sku', '-')}): {field_of(record, 'units', 0)} units"
