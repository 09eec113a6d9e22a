"""Invoice amounts."""


def subtotal(amounts: list[float]) -> float:
    """The sum of the amounts, rounded to cents."""
    return round(sum(amounts), 2)


def tax(amounts: list[float]) -> float:
    """The VAT on the amounts."""
    return round(subtotal(amounts) * 0.2, 2)


def total(amounts: list[float]) -> float:
    """The amounts with VAT."""
    return round(subtotal(amounts) * 1.2, 2)
