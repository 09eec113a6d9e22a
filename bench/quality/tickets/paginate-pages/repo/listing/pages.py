"""Pagination."""


def paginate(items: list, page: int, per_page: int) -> list:
    """Page `page` (from 1) of `items`, `per_page` items a page."""
    if page < 1:
        raise ValueError(f"page must be 1 or more, got {page}")
    start = (page - 1) * per_page + 1
    return items[start : start + per_page]
