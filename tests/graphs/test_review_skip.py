"""A revision whose failing tests concern a source file goes back to its workers unreviewed."""

from typing import Any, cast

from graphs.implementation.review import failing_in_code
from graphs.implementation.state import ImplementationState
from graphs.schemas import FailedTest, PlannedFile, TestReport

OPS, TESTS = "calc/ops.py", "tests/test_ops.py"
FAILURE = FailedTest(
    test_id="tests/test_ops.py::test_subtract",
    file=TESTS,
    message="assert 8 == 2",
    details="calc/ops.py:5: AssertionError",
)


def state_with(report: TestReport | None, *paths: str) -> ImplementationState:
    """An implementation state planning `paths` after a test run."""
    files = [PlannedFile(path=p, action="modify", purpose="change it") for p in paths]
    assignments: list[dict[str, Any]] = [{"file": f, "context": []} for f in files]
    return cast(ImplementationState, {"tests": report, "assignments": assignments})


def failing(*failures: FailedTest, passed: list[str] | None = None) -> TestReport:
    """A counted test run that failed."""
    return TestReport(
        passed=False, exit_code=1, output="", failed_tests=list(failures), passed_tests=passed or []
    )


def test_failures_in_a_planned_source_file_skip_the_review() -> None:
    assert failing_in_code(state_with(failing(FAILURE), OPS, TESTS))


def test_passing_tests_are_reviewed() -> None:
    report = TestReport(passed=True, exit_code=0, output="", passed_tests=[FAILURE.test_id])
    assert not failing_in_code(state_with(report, OPS, TESTS))


def test_a_change_of_tests_alone_is_reviewed() -> None:
    assert not failing_in_code(state_with(failing(FAILURE), TESTS))


def test_an_uncounted_or_missing_run_is_reviewed() -> None:
    uncounted = TestReport(passed=False, exit_code=2, output="error: no such option")
    assert not failing_in_code(state_with(uncounted, OPS, TESTS))
    assert not failing_in_code(state_with(None, OPS, TESTS))


def test_a_deleted_source_file_is_no_worker_to_tell() -> None:
    state = state_with(failing(FAILURE), TESTS)
    state["assignments"].append(
        {"file": PlannedFile(path=OPS, action="delete", purpose="gone"), "context": []}
    )
    assert not failing_in_code(state)
