from textkit.slug import slugify


def test_simple_title():
    assert slugify("Hello World") == "hello-world"


def test_punctuation_is_dropped():
    assert slugify("What's new?") == "what-s-new"
