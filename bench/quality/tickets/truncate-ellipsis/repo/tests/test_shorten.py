from textwrap2.shorten import truncate


def test_short_text_unchanged():
    assert truncate("abc", 10) == "abc"
