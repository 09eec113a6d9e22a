import pytest

from shipping.rates import express_price, letter_price, parcel_price


@pytest.mark.parametrize(
    ("grams", "price"), [(1, 0.85), (20, 0.85), (21, 1.60), (100, 1.60), (101, 2.75), (500, 2.75)]
)
def test_letters(grams, price):
    assert letter_price(grams) == price


@pytest.mark.parametrize(
    ("grams", "price"), [(1, 4.99), (1000, 4.99), (1001, 7.49), (5000, 7.49), (20000, 12.99)]
)
def test_parcels(grams, price):
    assert parcel_price(grams) == price


@pytest.mark.parametrize(("grams", "price"), [(1, 14.90), (1000, 14.90), (5000, 19.90)])
def test_express(grams, price):
    assert express_price(grams) == price


@pytest.mark.parametrize("price_of", [letter_price, parcel_price, express_price])
@pytest.mark.parametrize("grams", [0, -5])
def test_a_weight_must_be_positive(price_of, grams):
    with pytest.raises(ValueError, match=f"a weight must be positive, got {grams} g"):
        price_of(grams)


def test_too_heavy():
    with pytest.raises(ValueError, match="a letter weighs at most 500 g, got 501 g"):
        letter_price(501)
    with pytest.raises(ValueError, match="a parcel weighs at most 20000 g, got 20001 g"):
        parcel_price(20001)
    with pytest.raises(ValueError, match="an express parcel weighs at most 5000 g, got 5001 g"):
        express_price(5001)
