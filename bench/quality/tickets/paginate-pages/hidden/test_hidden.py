import pytest

from listing.pages import page_count, paginate


def test_first_page():
    assert paginate([1, 2, 3, 4, 5], 1, 2) == [1, 2]


def test_last_partial_page():
    assert paginate([1, 2, 3, 4, 5], 3, 2) == [5]


def test_past_the_end():
    assert paginate([1, 2, 3], 3, 2) == []


def test_page_below_one():
    with pytest.raises(ValueError):
        paginate([1], 0, 2)


@pytest.mark.parametrize("total, per_page, pages", [(5, 2, 3), (4, 2, 2), (0, 2, 0), (1, 10, 1)])
def test_page_count(total, per_page, pages):
    assert page_count(total, per_page) == pages


def test_bad_per_page():
    with pytest.raises(ValueError):
        page_count(3, 0)
