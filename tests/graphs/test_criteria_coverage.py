"""Which criteria are accounted for (the ticket's own, as written), and which test covers
one: the name it spells, used as that name."""

from graphs.implementation.criteria.ticket import acceptance_criteria, ticket_criteria
from graphs.implementation.finish.coverage import covering_test
from graphs.schemas import Requirements, TestReport, TicketContext

CRITERION = '`rota("mon tue", 2)` returns `[("mon", 2), ("tue", 2)]`.'
TEST_ID = "tests/test_rota.py::test_shifts"


def report() -> TestReport:
    """A run where the one test passed."""
    return TestReport(passed=True, exit_code=0, output="1 passed", passed_tests=[TEST_ID])


def test_a_test_of_a_renamed_function_does_not_cover_the_criterion() -> None:
    # A small model added `rota_with_shifts` where the ticket asked `rota` to change.
    source = 'def test_shifts():\n    assert rota_with_shifts("mon tue", 2) == [("mon", 2)]\n'
    assert covering_test(CRITERION, report(), {TEST_ID: source}) == (None, None)


def test_a_test_calling_the_named_function_covers_it() -> None:
    source = (
        'def test_shifts():\n    assert shifts.rota("mon tue", 2) == [("mon", 2), ("tue", 2)]\n'
    )
    assert covering_test(CRITERION, report(), {TEST_ID: source}) == (TEST_ID, True)


def test_a_test_of_the_function_that_does_not_show_the_stated_result_does_not_cover_it() -> None:
    # The repository's own test of to_metres(3, "yd") is not a test of to_metres(3, "ft").
    criterion = '`to_metres(3, "ft")` returns `0.9144`.'
    source = 'def test_shifts():\n    assert to_metres(3, "yd") == 2.7432\n'
    assert covering_test(criterion, report(), {TEST_ID: source}) == (None, None)
    shown = 'def test_shifts():\n    assert to_metres(3, "ft") == pytest.approx(0.9144)\n'
    assert covering_test(criterion, report(), {TEST_ID: shown}) == (TEST_ID, True)
    partial = 'def test_shifts():\n    assert rota("mon tue", 2)[0] == ("mon", 2)\n'
    assert covering_test(CRITERION, report(), {TEST_ID: partial}) == (None, None)


def test_a_criterion_stating_two_results_is_covered_by_a_test_of_either() -> None:
    criterion = "`water([2.0], days=3)` returns `6.0`; `cost([2.0], days=3)` returns `1.5`."
    source = "def test_shifts():\n    assert cost([2.0], days=3) == pytest.approx(1.5)\n"
    assert covering_test(criterion, report(), {TEST_ID: source}) == (TEST_ID, True)


def test_the_tickets_bullets_are_its_criteria_with_wrapped_lines_joined() -> None:
    text = (
        'Acceptance criteria:\n- `blend("red", "blue")` returns `"purple"`;\n'
        '  with white it returns `"lilac"`.\n\n* An unknown colour raises ValueError.\n'
        "2) `shade(0, 2)` is 0."
    )
    assert ticket_criteria(text) == [
        '`blend("red", "blue")` returns `"purple"`; with white it returns `"lilac"`.',
        "An unknown colour raises ValueError.",
        "`shade(0, 2)` is 0.",
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
    # The value criterion had no test kept; the error criterion's test calls `brew` too.
    value = "`brew(strength=10)` on a pot of 200.0 ml returns 20.0."
    error = "A strength below 0 raises ValueError."
    source = f'def test_criterion_1():\n    """{error}"""\n    Pot().brew(strength=-10)\n'
    assert covering_test(value, report(), {TEST_ID: source}, [value, error]) == (None, None)
    assert covering_test(error, report(), {TEST_ID: source}, [value, error]) == (TEST_ID, True)
