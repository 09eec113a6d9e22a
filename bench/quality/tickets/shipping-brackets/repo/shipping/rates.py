"""Postage by weight, for letters, parcels and express parcels."""


def letter_price(grams: int) -> float:
    """The postage of a letter."""
    if grams <= 0:
        raise ValueError(f"a weight must be positive, got {grams} g")
    if grams <= 20:
        return 0.85
    if grams <= 100:
        return 1.60
    if grams <= 500:
        return 2.75
    raise ValueError(f"a letter weighs at most 500 g, got {grams} g")


def parcel_price(grams: int) -> float:
    """The postage of a parcel."""
    if grams <= 0:
        raise ValueError(f"a weight must be positive, got {grams} g")
    if grams <= 1000:
        return 4.99
    if grams <= 5000:
        return 7.49
    if grams <= 20000:
        return 12.99
    raise ValueError(f"a parcel weighs at most 20000 g, got {grams} g")


def express_price(grams: int) -> float:
    """The postage of an express parcel."""
    if grams <= 0:
        raise ValueError(f"a weight must be positive, got {grams} g")
    if grams <= 1000:
        return 14.90
    if grams <= 5000:
        return 19.90
    raise ValueError(f"an express parcel weighs at most 5000 g, got {grams} g")
