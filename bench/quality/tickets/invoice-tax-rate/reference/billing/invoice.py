"""Invoice amounts."""

DEFAULT_RATE = 0.2


def subtotal(amounts: list[float]) -> float:
    """The sum of the amounts, rounded to cents."""
    return round(sum(amounts), 2)


def tax(amounts: list[float], rate: float = DEFAULT_RATE) -> float:
    """The tax at `rate` (a fraction) on the amounts."""
    if rate < 0:
        raise ValueError(f"rate must not be negative, got {rate}")
    return round(subtotal(amounts) * rate, 2)


def total(amounts: list[float], rate: float = DEFAULT_RATE) -> float:
    """The amounts with tax at `rate`."""
    return round(subtotal(amounts) + tax(amounts, rate), 2)
