"""Split sequences into chunks."""


def chunked(items: list, size: int) -> list[list]:
    """`items` split into lists of `size` items."""
    return [items[start : start + size] for start in range(0, len(items) - size + 1, size)]
