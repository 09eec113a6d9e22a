"""Roman numerals."""

_VALUES = [(1000, "M"), (500, "D"), (100, "C"), (50, "L"), (10, "X"), (5, "V"), (1, "I")]


def to_roman(number: int) -> str:
    """`number` (1..3999) in Roman numerals."""
    if not 1 <= number <= 3999:
        raise ValueError(f"out of range: {number}")
    parts = []
    for value, letters in _VALUES:
        count, number = divmod(number, value)
        parts.append(letters * count)
    return "".join(parts)
