from billing.invoice import subtotal, tax, total


def test_subtotal():
    assert subtotal([1.25, 2.5]) == 3.75


def test_tax_and_total():
    assert tax([100.0]) == 20.0
    assert total([100.0]) == 120.0
