"""How people write money: a higher cost cap (`+$5`, or `+5usd` where a shell would read `$5`),
and the setting they price model tokens in."""

import re

PRICES_SETTING = "TICKETSMITH_MODEL_PRICES"

DOLLARS = re.compile(
    r"\+?(?:\$(?P<number>\d[\d,]*(?:\.\d+)?)|(?P<usd>\d[\d,]*(?:\.\d+)?)usd)", re.IGNORECASE
)


def dollars_in(amount: str) -> float | None:
    """The dollars in `+$5` (or `$2.50`, `+5usd`); None when the amount is not in dollars."""
    found = DOLLARS.fullmatch(amount.strip())
    return float((found["number"] or found["usd"]).replace(",", "")) if found else None
