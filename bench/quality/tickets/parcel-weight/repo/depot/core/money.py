"""Amounts of money in cents, so that sums never drift."""


def to_cents(amount: str | float) -> int:
    """An amount like "12.30" or 12.3 in cents."""
    return round(float(amount) * 100)


def format_cents(cents: int, currency: str = "EUR") -> str:
    """Cents as text for people: `12.30 EUR`."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d} {currency}"
