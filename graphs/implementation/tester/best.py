"""Never regress: the best revision so far by tests passed, and whether a new one may replace it."""

from pydantic import BaseModel

from graphs.schemas import FailedTest, FileChange, TestReport

MAX_NAMED = 5


class Standing(BaseModel):
    """The best revision so far (0: the checkout as it was), its files and its test run.

    `own` lists the tests the checkout had before any change: the repository's own tests.
    """

    revision: int
    files: dict[str, FileChange]
    tests: TestReport
    own: list[str]


def own_tests(baseline: TestReport) -> list[str]:
    """The tests of the checkout as it was, passing or not."""
    return [*baseline.passed_tests, *(f.test_id for f in baseline.failed_tests)]


def rank(report: TestReport, own: list[str]) -> tuple[int, int, int]:
    """How good a run is: the repository's own tests passed first, then all tests passed.

    A run that did not list its tests counts only as green or not: a new test that fails
    (written before the code it tests) is no step back.
    """
    if not report.counted:
        return 0, 0, int(report.passed)
    mine = set(own)
    return sum(t in mine for t in report.passed_tests), len(report.passed_tests), 0


def broken_tests(best: TestReport, new: TestReport) -> list[str]:
    """Tests that passed in the best run and do not pass in the new one."""
    if not best.counted:
        return ["the test command"] if best.passed and not new.passed else []
    return sorted(set(best.passed_tests) - set(new.passed_tests))


def broken_failures(best: TestReport, new: TestReport) -> list[FailedTest]:
    """The new run's failures of tests that passed in the best run, with their errors."""
    passed = set(best.passed_tests)
    return [f for f in new.failed_tests if f.test_id in passed]


def named(tests: list[str]) -> str:
    """Test ids for a note, the first few."""
    return ", ".join(tests[:MAX_NAMED]) + (" and more" if len(tests) > MAX_NAMED else "")


def traded(best: Standing, new: TestReport) -> bool:
    """Whether the new run breaks only tests written for this change and passes more tests."""
    broken = broken_tests(best.tests, new)
    return (
        bool(broken)
        and not set(best.own).intersection(broken)
        and rank(new, best.own) > rank(best.tests, best.own)
    )


def trade_note(best: Standing, new: TestReport) -> str:
    """What a kept revision gave up for more passing tests (empty when nothing)."""
    if not traded(best, new):
        return ""
    more, before = len(new.passed_tests), len(best.tests.passed_tests)
    gone = named(broken_tests(best.tests, new))
    return f"kept with {more} tests passing against {before}, though {gone} no longer pass"


def regression(best: Standing, new: TestReport) -> str:
    """Why the new run is worse than the best (empty when it is not).

    A revision may trade a test written for this change for more of them: such a test can
    pass on the old code for another reason (a ValueError for an unknown unit where the
    ticket wants one for a temperature below absolute zero) and then block every revision
    that makes the others pass. The repository's own tests may never break.
    """
    broken = broken_tests(best.tests, new)
    if broken and not traded(best, new):
        return f"it broke tests that passed before: {named(broken)}"
    if rank(new, best.own) < rank(best.tests, best.own):
        return f"fewer tests pass ({len(new.passed_tests)} against {len(best.tests.passed_tests)})"
    return ""
