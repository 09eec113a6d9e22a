import pytest

from timefmt.durations import parse_duration


def test_days():
    assert parse_duration("7d") == 604800


def test_days_and_hours():
    assert parse_duration("2d12h") == 216000


def test_upper_case_d_rejected():
    with pytest.raises(ValueError):
        parse_duration("2D")


def test_old_units_kept():
    assert parse_duration("1h30m") == 5400
