"""Split sequences into chunks."""


def chunked(items: list, size: int) -> list[list]:
    """`items` split into lists of `size` items; the last one may be shorter."""
    if size <= 0:
        raise ValueError(f"size must be positive, got {size}")
    return [items[start : start + size] for start in range(0, len(items), size)]
