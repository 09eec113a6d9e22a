import pytest

from units.temperature import convert


def test_celsius_to_kelvin():
    assert convert(0, "C", "K") == pytest.approx(273.15)


def test_kelvin_to_fahrenheit():
    assert convert(273.15, "K", "F") == pytest.approx(32.0)


def test_kelvin_to_celsius():
    assert convert(373.15, "K", "C") == pytest.approx(100.0)


def test_below_absolute_zero():
    with pytest.raises(ValueError):
        convert(-300, "C", "K")


def test_negative_kelvin():
    with pytest.raises(ValueError):
        convert(-1, "K", "C")


def test_unknown_unit():
    with pytest.raises(ValueError):
        convert(1, "K", "X")
