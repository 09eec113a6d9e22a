from textkit.slug import slugify


def test_underscore_separator():
    assert slugify("Hello World", separator="_") == "hello_world"


def test_default_is_hyphen():
    assert slugify("Hello World") == "hello-world"


def test_runs_collapse():
    assert slugify("  a -- b  ", separator="_") == "a_b"


def test_empty_separator():
    assert slugify("Hello World", separator="") == "helloworld"
