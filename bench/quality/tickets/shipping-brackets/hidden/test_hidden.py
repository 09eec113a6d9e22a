import pytest

from shipping import rates
from shipping.rates import bracket_price, express_price, letter_price, parcel_price

BRACKETS = [(20, 1.0), (100, 2.0)]


def test_the_lookup_finds_the_lightest_bracket_that_fits():
    assert bracket_price(20, BRACKETS, "a card") == 1.0
    assert bracket_price(21, BRACKETS, "a card") == 2.0
    assert bracket_price(100, BRACKETS, "a card") == 2.0


def test_the_lookup_names_the_item_and_its_limit():
    with pytest.raises(ValueError, match="a card weighs at most 100 g, got 101 g"):
        bracket_price(101, BRACKETS, "a card")
    with pytest.raises(ValueError, match="a weight must be positive, got 0 g"):
        bracket_price(0, BRACKETS, "a card")


@pytest.mark.parametrize(
    ("price_of", "grams", "price"),
    [(letter_price, 100, 1.60), (parcel_price, 1001, 7.49), (express_price, 5000, 19.90)],
)
def test_every_service_looks_its_price_up(monkeypatch, price_of, grams, price):
    asked = []

    def recorded(*args):
        asked.append(args[0])
        return bracket_price(*args)

    monkeypatch.setattr(rates, "bracket_price", recorded)
    assert price_of(grams) == price
    assert asked == [grams]


def test_prices_and_limits_are_unchanged():
    assert [letter_price(g) for g in (20, 21, 101, 500)] == [0.85, 1.60, 2.75, 2.75]
    assert [parcel_price(g) for g in (1000, 5000, 20000)] == [4.99, 7.49, 12.99]
    with pytest.raises(ValueError, match="an express parcel weighs at most 5000 g"):
        express_price(5001)
