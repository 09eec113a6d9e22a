import pytest

from numerals.roman import to_roman


@pytest.mark.parametrize(
    "number, expected",
    [
        (4, "IV"),
        (9, "IX"),
        (14, "XIV"),
        (40, "XL"),
        (90, "XC"),
        (400, "CD"),
        (900, "CM"),
        (1994, "MCMXCIV"),
        (3999, "MMMCMXCIX"),
    ],
)
def test_subtractive(number, expected):
    assert to_roman(number) == expected


def test_still_simple():
    assert to_roman(1666) == "MDCLXVI"


def test_upper_bound():
    with pytest.raises(ValueError):
        to_roman(4000)
