"""Which criteria are accounted for (the ticket's own, as written), and which test covers
one: the name it spells, used as that name."""

from graphs.implementation.criteria.ticket import acceptance_criteria, ticket_criteria
from graphs.implementation.finish.coverage import covering_test
from graphs.schemas import Requirements, TestReport, TicketContext

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
    source = (
        'def test_ties():\n    assert counter.top_words("b a b a c", 2) == [("a", 2), ("b", 2)]\n'
    )
    assert covering_test(CRITERION, report(), {TEST_ID: source}) == (TEST_ID, True)


def test_a_test_of_the_function_that_does_not_show_the_stated_result_does_not_cover_it() -> None:
    # The repository's own test of convert(0, "C", "F") is not a test of convert(0, "C", "K").
    criterion = '`convert(0, "C", "K")` returns `273.15`.'
    source = 'def test_ties():\n    assert convert(0, "C", "F") == 32\n'
    assert covering_test(criterion, report(), {TEST_ID: source}) == (None, None)
    shown = 'def test_ties():\n    assert convert(0, "C", "K") == pytest.approx(273.15)\n'
    assert covering_test(criterion, report(), {TEST_ID: shown}) == (TEST_ID, True)
    partial = 'def test_ties():\n    assert top_words("b a b a c", 2)[0] == ("a", 2)\n'
    assert covering_test(CRITERION, report(), {TEST_ID: partial}) == (None, None)


def test_a_criterion_stating_two_results_is_covered_by_a_test_of_either() -> None:
    criterion = (
        "`total([100.0], rate=0.1)` returns `110.0`; `tax([100.0], rate=0.1)` returns `10.0`."
    )
    source = "def test_ties():\n    assert tax([100.0], rate=0.1) == pytest.approx(10.0)\n"
    assert covering_test(criterion, report(), {TEST_ID: source}) == (TEST_ID, True)


def test_the_tickets_bullets_are_its_criteria_with_wrapped_lines_joined() -> None:
    text = (
        "Acceptance criteria:\n- `paginate([1, 2, 3], 1, 2)` returns `[1, 2]`;\n"
        "  page 2 returns `[3]`.\n\n* A page below 1 raises ValueError.\n"
        "2) `page_count(0, 2)` is 0."
    )
    assert ticket_criteria(text) == [
        "`paginate([1, 2, 3], 1, 2)` returns `[1, 2]`; page 2 returns `[3]`.",
        "A page below 1 raises ValueError.",
        "`page_count(0, 2)` is 0.",
    ]


def test_criteria_without_bullets_are_one_a_line() -> None:
    assert ticket_criteria("returns 3\n\nraises ValueError\n") == ["returns 3", "raises ValueError"]
    assert ticket_criteria(None) == [] and ticket_criteria("  \n") == []


def test_the_tickets_own_criteria_win_over_the_refined_ones() -> None:
    # A small model's refined list can split a code block into "criteria" such as "```python".
    refined = Requirements(requirements=["r"], acceptance_criteria=["```python", "assert x"])
    ticket = TicketContext(key="P-1", summary="s", description="d", acceptance_criteria="- a\n- b")
    assert acceptance_criteria(ticket, refined) == ["a", "b"]
    bare = ticket.model_copy(update={"acceptance_criteria": None})
    assert acceptance_criteria(bare, refined) == ["```python", "assert x"]
    assert acceptance_criteria(bare, None) == []


def test_a_test_written_for_another_criterion_does_not_cover_this_one() -> None:
    # The value criterion had no test kept; the error criterion's test calls `total` too.
    value = "`total(discount=10)` on a cart worth 200.0 returns 180.0."
    error = "A discount below 0 raises ValueError."
    source = f'def test_criterion_1():\n    """{error}"""\n    Cart().total(discount=-10)\n'
    assert covering_test(value, report(), {TEST_ID: source}, [value, error]) == (None, None)
    assert covering_test(error, report(), {TEST_ID: source}, [value, error]) == (TEST_ID, True)
