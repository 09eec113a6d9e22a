"""Amounts in whole cents, as the ledger export writes them."""

from decimal import ROUND_HALF_EVEN, Decimal


def to_cents(amount: float) -> int:
    """`amount` in whole cents; a half cent goes to the even cent (banker's rounding), as the
    bank's statements round, so that the ledger's totals match theirs."""
    cents = Decimal(str(amount)).scaleb(2)
    return int(cents.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))


def format_cents(cents: int) -> str:
    """`1234` as `12.34`, `-5` as `-0.05`."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"
