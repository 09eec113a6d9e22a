from settings.values import parse_bool, parse_int


def test_true_false():
    assert parse_bool("true") is True
    assert parse_bool("false") is False


def test_int_default():
    assert parse_int("", 5) == 5
    assert parse_int("7") == 7
