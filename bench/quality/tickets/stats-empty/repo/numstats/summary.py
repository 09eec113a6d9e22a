"""Mean and median."""


def mean(values: list[float]) -> float:
    """The arithmetic mean."""
    return sum(values) / len(values)


def median(values: list[float]) -> float:
    """The middle value."""
    ordered = sorted(values)
    return ordered[len(ordered) // 2]
