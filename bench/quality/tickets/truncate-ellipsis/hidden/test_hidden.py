import pytest

from textwrap2.shorten import truncate


def test_default_ellipsis_within_width():
    assert truncate("abcdefghij", 6) == "abc..."


def test_custom_ellipsis():
    assert truncate("abcdefghij", 6, ellipsis="…") == "abcde…"


def test_exact_fit():
    assert truncate("abcdef", 6) == "abcdef"


def test_empty_ellipsis():
    assert truncate("abcdefghij", 4, ellipsis="") == "abcd"


def test_too_narrow():
    with pytest.raises(ValueError):
        truncate("abcdefghij", 2)
