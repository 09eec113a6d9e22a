"""A revision replaces the best one unless it is worse: the repository's tests never break."""

from graphs.implementation.tester.best import Standing, regression, trade_note
from graphs.schemas import FailedTest, TestReport

OWN = ["tests/test_wind.py::test_calm", "tests/test_wind.py::test_unknown"]
ZERO = "tests/test_wind_1_acceptance.py::test_below_zero_knots"
GUSTS = [
    "tests/test_wind_1_acceptance.py::test_example_1",
    "tests/test_wind_1_acceptance.py::test_example_2",
]


def report(passed: list[str], failed: list[str]) -> TestReport:
    return TestReport(
        passed=not failed,
        exit_code=1 if failed else 0,
        output="",
        passed_tests=passed,
        failed_tests=[FailedTest(test_id=t, file=t.split("::")[0], message="E") for t in failed],
    )


BEST = Standing(revision=1, files={}, tests=report([*OWN, ZERO], GUSTS), own=OWN)


def test_a_new_test_may_be_traded_for_more_passing_tests() -> None:
    new = report([*OWN, *GUSTS], [ZERO])
    assert regression(BEST, new) == ""
    assert trade_note(BEST, new) == (
        f"kept with 4 tests passing against 3, though {ZERO} no longer pass"
    )


def test_a_new_test_is_not_traded_for_as_many() -> None:
    new = report([*OWN, GUSTS[0]], [ZERO, GUSTS[1]])
    assert regression(BEST, new) == f"it broke tests that passed before: {ZERO}"
    assert trade_note(BEST, new) == ""


def test_the_repository_s_own_tests_never_break_whatever_else_passes() -> None:
    new = report([OWN[0], ZERO, *GUSTS], [OWN[1]])
    assert regression(BEST, new) == f"it broke tests that passed before: {OWN[1]}"


def test_a_run_that_breaks_nothing_and_passes_more_is_no_trade() -> None:
    new = report([*OWN, ZERO, GUSTS[0]], [GUSTS[1]])
    assert (regression(BEST, new), trade_note(BEST, new)) == ("", "")
