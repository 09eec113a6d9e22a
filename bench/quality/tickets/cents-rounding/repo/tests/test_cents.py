from ledger.cents import format_cents, to_cents


def test_whole_amounts():
    assert to_cents(1.5) == 150
    assert to_cents(19.99) == 1999


def test_format():
    assert format_cents(1234) == "12.34"
    assert format_cents(7) == "0.07"
