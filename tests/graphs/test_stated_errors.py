"""Errors the criteria say the change raises, looked for in the planned files' raises."""

from graphs.implementation.diagnose.stated_errors import stated_errors, unraised_errors

CRITERIA = [
    "`brightness(level=10)` on a lamp of 200.0 lumens returns 20.0.",
    "A level below 0 or above 100 raises ValueError.",
    "Unknown units still raise KeyError.",
]
PLAIN = "def brightness(lumens, level=0):\n    return lumens * level / 100\n"


def test_every_error_stated_must_be_raised_also_one_raised_already() -> None:
    assert stated_errors(CRITERIA) == {"ValueError": CRITERIA[1], "KeyError": CRITERIA[2]}


def test_a_stated_error_no_source_raises_is_named_with_its_criterion() -> None:
    assert unraised_errors(CRITERIA, [PLAIN]) == [
        ("ValueError", CRITERIA[1]),
        ("KeyError", CRITERIA[2]),
    ]
    assert unraised_errors(CRITERIA, []) == []


def test_a_raise_of_the_error_or_of_a_subclass_anywhere_in_the_sources_counts() -> None:
    raising = (
        "def check(level):\n    if level < 0:\n        raise ValueError(level)\n"
        "    raise KeyError(level)\n"
    )
    assert unraised_errors(CRITERIA, [PLAIN, raising]) == []
    subclass = (
        "class LevelError(ValueError):\n    pass\n\n\n"
        "def check(level):\n    raise errors.LevelError('bad') from None\n"
        "    raise KeyError(level)\n"
    )
    assert unraised_errors(CRITERIA, [PLAIN, subclass]) == []
    other = "def check(level):\n    raise TypeError(level)\n    raise KeyError(level)\n"
    assert unraised_errors(CRITERIA, [other]) == [("ValueError", CRITERIA[1])]


def test_sources_that_might_raise_anything_or_do_not_parse_are_not_judged() -> None:
    reraise = (
        "def check(value):\n    try:\n        int(value)\n    except Exception:\n        raise\n"
    )
    variable = "def check(value, error):\n    raise error\n"
    assert unraised_errors(CRITERIA, [PLAIN, reraise]) == []
    assert unraised_errors(CRITERIA, [variable]) == []
    assert unraised_errors(CRITERIA, ["def broken(:\n"]) == []
