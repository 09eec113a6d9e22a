import pytest

from batching.chunks import chunked


def test_leftover_kept():
    assert chunked([1, 2, 3], 2) == [[1, 2], [3]]


def test_empty():
    assert chunked([], 3) == []


def test_size_larger_than_list():
    assert chunked([1, 2], 5) == [[1, 2]]


@pytest.mark.parametrize("size", [0, -2])
def test_bad_size(size):
    with pytest.raises(ValueError):
        chunked([1, 2], size)


def test_even_split_kept():
    assert chunked([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]
