"""Roman numerals."""

_VALUES = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]  # fmt: skip


def to_roman(number: int) -> str:
    """`number` (1..3999) in Roman numerals."""
    if not 1 <= number <= 3999:
        raise ValueError(f"out of range: {number}")
    parts = []
    for value, letters in _VALUES:
        count, number = divmod(number, value)
        parts.append(letters * count)
    return "".join(parts)
