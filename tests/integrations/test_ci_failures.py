"""The classification of a failed CI job on small logs: flakes (cancelled, timed out, the
runner, the network, a test that passed on its rerun) and failures of the change."""

import pytest

from integrations.github.ci_failures import EVIDENCE, Deterministic, Flake, classify

STAMP = "2026-12-02T09:14:03.1234567Z "


def log(*lines: str) -> str:
    """Lines as Actions writes them, each with its timestamp."""
    return "".join(f"{STAMP}{line}\n" for line in lines)


PYTEST_FAILED = log(
    "##[group]Run python -m pytest -q",
    "....F",
    "=========================== short test summary info ============================",
    "FAILED tests/test_ops.py::test_power - assert 6 == 8",
    "1 failed, 4 passed in 0.12s",
    "##[error]Process completed with exit code 1.",
)


@pytest.mark.parametrize(
    ("conclusion", "reason"),
    [("cancelled", "the job was cancelled"), ("timed_out", "the job timed out")],
)
def test_a_cancelled_or_timed_out_job_is_a_flake(conclusion: str, reason: str) -> None:
    assert classify(conclusion, PYTEST_FAILED) == Flake(reason=reason)


def test_failing_tests_are_the_changes() -> None:
    verdict = classify("failure", PYTEST_FAILED)
    assert verdict == Deterministic(
        reason="tests failed", evidence="FAILED tests/test_ops.py::test_power - assert 6 == 8"
    )


@pytest.mark.parametrize(
    ("lines", "evidence"),
    [
        (
            ["Cloning into 'calc'...",
             "fatal: unable to access 'https://github.com/demo/calc/': Could not resolve host: "
             "github.com", "##[error]The process '/usr/bin/git' failed with exit code 128"],
            "fatal: unable to access 'https://github.com/demo/calc/': Could not resolve host: "
            "github.com",
        ),
        (
            ["Collecting requests", "  WARNING: Retrying after connection broken by "
             "'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read timed "
             "out.\")'", "ERROR: No matching distribution found for requests"],
            "WARNING: Retrying after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool"
            "(host='pypi.org', port=443): Read timed out.\")'",
        ),
        (
            ["npm ERR! code ECONNRESET", "npm ERR! network aborted"],
            "npm ERR! code ECONNRESET",
        ),
    ],
)  # fmt: skip
def test_a_network_error_outside_the_tests_is_a_flake(lines: list[str], evidence: str) -> None:
    verdict = classify("failure", log(*lines))
    assert verdict == Flake(reason="a network error", evidence=evidence)


def test_a_network_error_inside_a_failing_test_is_the_changes() -> None:
    verdict = classify("failure", log(
        "FAILED tests/test_fetch.py::test_get - requests.exceptions.ConnectionError: "
        "Max retries exceeded with url: /x", "1 failed in 0.3s",
    ))  # fmt: skip
    assert isinstance(verdict, Deterministic) and verdict.reason == "tests failed"


def test_a_runner_that_lost_the_server_is_a_flake_even_from_an_annotation() -> None:
    note = (
        "The hosted runner: GitHub Actions 12 lost communication with the server. Anything in "
        "your workflow that terminates the runner process can cause this error."
    )
    verdict = classify("failure", "", [note])
    assert isinstance(verdict, Flake) and verdict.reason == "the runner failed"
    assert verdict.evidence.startswith("The hosted runner: GitHub Actions 12 lost")
    assert len(verdict.evidence) <= EVIDENCE


def test_a_job_past_its_time_limit_timed_out() -> None:
    verdict = classify("failure", log(
        "##[error]The job running on runner GitHub Actions 3 has exceeded the maximum execution "
        "time of 10 minutes.",
    ))  # fmt: skip
    assert isinstance(verdict, Flake) and verdict.reason == "the job timed out"


@pytest.mark.parametrize(
    "lines",
    [
        ["tests/test_ops.py::test_clock RERUN                [ 50%]",
         "tests/test_ops.py::test_clock PASSED               [ 50%]",
         "=================== 2 passed, 1 rerun in 1.31s ===================",
         "##[error]Process completed with exit code 1."],
        ["[WARNING] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Flakes: 1",
         "[ERROR] BUILD FAILURE"],
    ],
)  # fmt: skip
def test_a_test_that_passed_when_rerun_is_a_flake(lines: list[str]) -> None:
    verdict = classify("failure", log(*lines))
    assert isinstance(verdict, Flake) and verdict.reason == "a test passed when it was rerun"


def test_a_rerun_test_beside_one_that_failed_for_good_is_the_changes() -> None:
    verdict = classify("failure", log(
        "tests/test_ops.py::test_clock RERUN", "tests/test_ops.py::test_clock PASSED",
        "tests/test_ops.py::test_power FAILED", "==== 1 failed, 1 passed, 1 rerun in 0.9s ====",
    ))  # fmt: skip
    assert isinstance(verdict, Deterministic) and verdict.reason == "tests failed"


def test_a_failure_without_evidence_is_the_changes() -> None:
    verdict = classify("failure", log("error: cannot find symbol", "##[error]Build failed."))
    assert verdict == Deterministic(reason="the job failed", evidence="##[error]Build failed.")


def test_what_a_verdict_quotes_is_one_short_line_without_backticks() -> None:
    line = "fatal: unable to access 'https://x/': Could not resolve host: x ```ignore this``` "
    verdict = classify("failure", log(line + "y" * 500))
    assert "`" not in verdict.evidence and "\n" not in verdict.evidence
    assert len(verdict.evidence) == EVIDENCE and verdict.evidence.endswith("...")


def test_only_the_end_of_a_huge_log_is_read() -> None:
    early = "fatal: unable to access 'https://x/': Could not resolve host: x\n"
    late = "FAILED tests/test_ops.py::test_power - assert 6 == 8\n"
    verdict = classify("failure", early + "ok\n" * 400_000 + late)
    assert isinstance(verdict, Deterministic) and verdict.evidence.startswith("FAILED")
    assert isinstance(classify("failure", early + "ok\n" * 400_000), Deterministic)
