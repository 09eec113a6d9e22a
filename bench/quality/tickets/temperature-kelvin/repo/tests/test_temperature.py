import pytest

from units.temperature import convert


def test_freezing_point():
    assert convert(0, "C", "F") == 32


def test_boiling_point_back():
    assert convert(212, "F", "C") == 100


def test_unknown_unit():
    with pytest.raises(ValueError):
        convert(1, "C", "X")
