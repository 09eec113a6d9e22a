"""What people read about a test run: a failed environment, a sandbox limit, an unsandboxed run."""

from activities.messages import RunTestsResult
from cli.status.render import render_status, to_text
from graphs.schemas import FileChange, Implementation
from workflows.ticket import texts
from workflows.ticket.messages import Phase, Status, TicketStatus

CODE = Implementation(changes=[FileChange(path="sizes/describe.py", content="x = 1\n")], notes="")
BUILD_ERROR = (
    "The repository's environment could not be built: install the declared dependencies failed"
    " (`uv pip install ... nosuchpkg`, exit code 1).\nInstaller output (last lines):\n"
    "  × No solution found: nosuchpkg was not found in the package registry"
)


def test_a_failed_build_is_reported_as_such_not_as_failing_tests() -> None:
    run = RunTestsResult(
        passed=False, exit_code=-1, output=BUILD_ERROR, environment="pyproject.toml",
        environment_error=BUILD_ERROR, sandboxed=True,
    )  # fmt: skip
    summary = texts.tests_summary(run.passed, run.exit_code, run.output, run)
    assert summary.startswith("The tests could not run.")
    assert "nosuchpkg was not found" in summary and "exit code -1" not in summary
    note = texts.tests_note(run)
    comment = texts.pr_comment("http://pr/1", True, False, CODE, note)
    assert comment.startswith("Draft pull request opened: http://pr/1. It changes 1 file and")
    assert "environment could not be built" in comment and "nosuchpkg" in comment


def test_a_limit_and_an_unsandboxed_run_are_named() -> None:
    run = RunTestsResult(
        passed=False, exit_code=-9, output="...\n[stopped: the memory limit was hit]",
        environment="pyproject.toml", limit="memory", sandboxed=False,
    )  # fmt: skip
    assert "was stopped by the sandbox's memory limit" in texts.tests_summary(
        run.passed, run.exit_code, run.output, run
    )
    note = texts.tests_note(run)
    assert "stopped by the sandbox's memory limit" in note
    assert "unsandboxed" in note
    clean = RunTestsResult(
        passed=True, exit_code=0, output="1 passed", environment="x", sandboxed=True
    )
    assert texts.tests_note(clean) == ""
    assert texts.pr_comment("http://pr/1", False, True, CODE, "") == (
        "Pull request opened: http://pr/1. It changes 1 file and the tests pass."
    )


def test_the_status_shows_the_note() -> None:
    current = TicketStatus(
        key="SIZE-1", phase=Phase.IMPLEMENTATION, status=Status.COMPLETED, message="Done",
        pr_url="http://pr/1", tests_passed=False, tests_note=BUILD_ERROR,
    )  # fmt: skip
    text = to_text(render_status(current, "http://ui/SIZE-1"))
    assert "  tests: The repository's environment could not be built" in text
    assert "  tests:   × No solution found" in text
