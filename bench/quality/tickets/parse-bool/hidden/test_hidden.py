import pytest

from settings.values import parse_bool


@pytest.mark.parametrize("text", ["yes", "on", "1", "true", " Yes ", "TRUE"])
def test_true(text):
    assert parse_bool(text) is True


@pytest.mark.parametrize("text", ["no", "off", "0", "false", "Off"])
def test_false(text):
    assert parse_bool(text) is False


@pytest.mark.parametrize("text", ["maybe", "", "2"])
def test_rejected(text):
    with pytest.raises(ValueError, match=repr(text)):
        parse_bool(text)
