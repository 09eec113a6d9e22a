from ledger.cents import format_cents, to_cents


def test_half_cents_go_to_the_even_cent():
    assert to_cents(0.125) == 12
    assert to_cents(0.135) == 14
    assert to_cents(0.375) == 38
    assert to_cents(2.665) == 266


def test_negative_half_cents_too():
    assert to_cents(-0.125) == -12


def test_other_amounts_round_to_the_nearest_cent():
    assert to_cents(0.126) == 13
    assert to_cents(0.124) == 12
    assert to_cents(19.99) == 1999


def test_format_unchanged():
    assert format_cents(-5) == "-0.05"
    assert format_cents(100) == "1.00"
