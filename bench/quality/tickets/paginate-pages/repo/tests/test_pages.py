import pytest

from listing.pages import paginate


def test_page_zero():
    with pytest.raises(ValueError):
        paginate([1], 0, 10)


def test_past_the_end():
    assert paginate([1, 2], 5, 10) == []
