"""Pagination."""


def _check_per_page(per_page: int) -> None:
    if per_page < 1:
        raise ValueError(f"per_page must be 1 or more, got {per_page}")


def paginate(items: list, page: int, per_page: int) -> list:
    """Page `page` (from 1) of `items`, `per_page` items a page."""
    _check_per_page(per_page)
    if page < 1:
        raise ValueError(f"page must be 1 or more, got {page}")
    start = (page - 1) * per_page
    return items[start : start + per_page]


def page_count(total: int, per_page: int) -> int:
    """How many pages `total` items fill."""
    _check_per_page(per_page)
    return -(-total // per_page)
