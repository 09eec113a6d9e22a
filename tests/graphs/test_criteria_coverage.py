"""Which test covers an acceptance criterion: the name it spells, used as that name."""

from graphs.implementation.coverage import covering_test
from graphs.schemas import TestReport

CRITERION = '`top_words("b a b a c", 2)` returns `[("a", 2), ("b", 2)]`.'
TEST_ID = "tests/test_counter.py::test_ties"


def report() -> TestReport:
    """A run where the one test passed."""
    return TestReport(passed=True, exit_code=0, output="1 passed", passed_tests=[TEST_ID])


def test_a_test_of_a_renamed_function_does_not_cover_the_criterion() -> None:
    # A small model added `top_words_with_ties` where the ticket asked `top_words` to change.
    source = 'def test_ties():\n    assert top_words_with_ties("b a b a c", 2) == [("a", 2)]\n'
    assert covering_test(CRITERION, report(), {TEST_ID: source}) == (None, None)


def test_a_test_calling_the_named_function_covers_it() -> None:
    source = 'def test_ties():\n    assert counter.top_words("b a b a c", 2) == [("a", 2)]\n'
    assert covering_test(CRITERION, report(), {TEST_ID: source}) == (TEST_ID, True)
