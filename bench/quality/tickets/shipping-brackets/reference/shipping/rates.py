"""Postage by weight, for letters, parcels and express parcels."""

# (up to this many grams, price), lightest first
LETTER = [(20, 0.85), (100, 1.60), (500, 2.75)]
PARCEL = [(1000, 4.99), (5000, 7.49), (20000, 12.99)]
EXPRESS = [(1000, 14.90), (5000, 19.90)]


def bracket_price(grams: int, brackets: list[tuple[int, float]], kind: str) -> float:
    """The price of the lightest bracket `grams` fits in; `kind` names the item in errors."""
    if grams <= 0:
        raise ValueError(f"a weight must be positive, got {grams} g")
    for most, price in brackets:
        if grams <= most:
            return price
    raise ValueError(f"{kind} weighs at most {brackets[-1][0]} g, got {grams} g")


def letter_price(grams: int) -> float:
    """The postage of a letter."""
    return bracket_price(grams, LETTER, "a letter")


def parcel_price(grams: int) -> float:
    """The postage of a parcel."""
    return bracket_price(grams, PARCEL, "a parcel")


def express_price(grams: int) -> float:
    """The postage of an express parcel."""
    return bracket_price(grams, EXPRESS, "an express parcel")
