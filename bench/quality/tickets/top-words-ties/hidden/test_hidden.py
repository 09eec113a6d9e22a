from wordfreq.counter import top_words


def test_ties_alphabetical():
    assert top_words("b a b a c", 2) == [("a", 2), ("b", 2)]


def test_case_ignored():
    assert top_words("The the THE cat", 1) == [("the", 3)]


def test_lower_case_output():
    assert top_words("Cat", 1) == [("cat", 1)]


def test_n_larger_than_words():
    assert top_words("c b a", 10) == [("a", 1), ("b", 1), ("c", 1)]


def test_most_frequent_first_kept():
    assert top_words("x y y z z z", 2) == [("z", 3), ("y", 2)]
