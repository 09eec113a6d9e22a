from batching.chunks import chunked


def test_even_split():
    assert chunked([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]
