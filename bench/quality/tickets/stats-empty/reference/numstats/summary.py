"""Mean and median."""

EMPTY = "no data: the list is empty"


def mean(values: list[float]) -> float:
    """The arithmetic mean."""
    if not values:
        raise ValueError(EMPTY)
    return sum(values) / len(values)


def median(values: list[float]) -> float:
    """The middle value, or the mean of the two middle values."""
    if not values:
        raise ValueError(EMPTY)
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2
