from shop.cart import Cart


def test_empty_cart():
    assert Cart().total() == 0


def test_total():
    cart = Cart()
    cart.add("pen", 1.5, 4)
    cart.add("book", 12.0)
    assert cart.total() == 18.0
