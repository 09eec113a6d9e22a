import pytest

from numerals.roman import to_roman


def test_simple():
    assert to_roman(3) == "III"
    assert to_roman(1666) == "MDCLXVI"


def test_out_of_range():
    with pytest.raises(ValueError):
        to_roman(0)
