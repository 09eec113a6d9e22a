from wordfreq.counter import top_words, words


def test_words_in_order():
    assert words("one, two three") == ["one", "two", "three"]


def test_most_frequent_first():
    assert top_words("x y y z z z", 2) == [("z", 3), ("y", 2)]
