"""Suppliers: ratings (ratings, by supplier)."""

from depot.core.records import Record, field_of


def total_score(records: list[Record]) -> float:
    """The sum of `score` over the ratings."""
    return sum(field_of(record, "score", 0) for record in records)


def disputed_ratings(records: list[Record]) -> list[Record]:
    """The ratings whose status is `disputed`."""
    return [record for record in records if record.get("status") == "disputed"]


def ratings_by_supplier(records: list[Record]) -> dict[str, list[Record]]:
    """The ratings grouped by their `supplier`, groups in first-seen order."""
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(str(record.get("supplier", "")), []).append(record)
    return grouped


def disputed_share(records: list[Record]) -> float:
    """The percentage of ratings that are `disputed`, to one decimal (0.0 for none)."""
    if not records:
        return 0.0
    return round(100 * len(disputed_ratings(records)) / len(records), 1)


def rating_label(record: Record) -> str:
    """A one-line description of one of the ratings, for lists."""
    name = str(record.get("name") or record.get("id") or "?")
    return f"{name} ({record.get('supplier', '-')}): {field_of(record, 'score', 0)} score"
