import pytest

from shop.cart import Cart


def cart_of(amount):
    cart = Cart()
    cart.add("thing", amount)
    return cart


def test_ten_percent():
    assert cart_of(200.0).total(discount=10) == 180.0


def test_no_discount():
    assert cart_of(200.0).total() == 200.0


def test_full_discount():
    assert cart_of(50.0).total(discount=100) == 0.0


def test_rounded_to_cents():
    assert cart_of(9.99).total(discount=33) == 6.69


@pytest.mark.parametrize("bad", [-1, 101])
def test_invalid(bad):
    with pytest.raises(ValueError):
        cart_of(10.0).total(discount=bad)
