import pytest

from numstats.summary import mean, median


@pytest.mark.parametrize("function", [mean, median])
def test_empty(function):
    with pytest.raises(ValueError, match="empty"):
        function([])


def test_median_even():
    assert median([1, 2, 3, 4]) == 2.5


def test_median_odd():
    assert median([3, 1, 2]) == 2


def test_median_leaves_input():
    values = [3, 1, 2]
    median(values)
    assert values == [3, 1, 2]
